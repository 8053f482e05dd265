import { CircleCheckIcon, TriangleAlertIcon } from 'lucide-react'
import { Link, useSearchParams } from 'wouter'
import { CenteredLayout } from '@/components/layout/centered-layout'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { useVerifyEmail } from '../hooks/use-verify-email'

/**
 * /verify-email?token=...: sends the token once on mount and shows verifying, verified, or
 * failed with the server's message, with a link to /.
 */
export function VerifyEmailPage() {
  useDocumentTitle('Verify email')
  const [params] = useSearchParams()
  const state = useVerifyEmail(params.get('token')?.trim() || null)

  return (
    <CenteredLayout>
      <Card aria-live="polite" aria-busy={state.status === 'verifying'}>
        {state.status === 'verifying' ? (
          <CardHeader>
            <Spinner className="mb-2 size-8 text-primary" />
            <CardTitle as="h1">Verifying your email...</CardTitle>
            <CardDescription>This takes just a moment.</CardDescription>
          </CardHeader>
        ) : state.status === 'verified' ? (
          <>
            <CardHeader>
              <CircleCheckIcon className="mb-2 size-8 text-success" aria-hidden />
              <CardTitle as="h1">Email verified</CardTitle>
              <CardDescription>Thanks! Your email address is confirmed.</CardDescription>
            </CardHeader>
            <CardFooter>
              <Button asChild>
                <Link href="/">Continue to Reelgraph</Link>
              </Button>
            </CardFooter>
          </>
        ) : (
          <>
            <CardHeader>
              <TriangleAlertIcon className="mb-2 size-8 text-destructive" aria-hidden />
              <CardTitle as="h1">We couldn't verify your email</CardTitle>
              <CardDescription role="alert">{state.message}</CardDescription>
            </CardHeader>
            <CardFooter className="flex-col items-start gap-3">
              <p className="text-muted-foreground text-sm">
                Verification links work once and expire after a while. Once signed in, you can ask
                for a new link from the notice at the top of the page.
              </p>
              <Button asChild variant="outline">
                <Link href="/">Go to Reelgraph</Link>
              </Button>
            </CardFooter>
          </>
        )}
      </Card>
    </CenteredLayout>
  )
}
