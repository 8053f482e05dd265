import { MEMBER_MESSAGES, type User } from '@reelgraph/shared'
import { MailOpenIcon, TriangleAlertIcon } from 'lucide-react'
import { Link, useSearchParams } from 'wouter'
import { CenteredLayout } from '@/components/layout/centered-layout'
import { PageLoader } from '@/components/layout/page-loader'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { errorMessage, isApiError } from '@/lib/api-client'
import { useInvitationPreview } from '../api/members-api'
import { invitePath } from '../lib/sharing'
import { InvitationCard } from './invitation-card'

/** Props of {@link InvitePage}: the session, handed down by `app/`. */
export interface InvitePageProps {
  user: User | null
  isLoadingUser: boolean
  /** Signs out and stays here, so the invited account can sign in. */
  onSignOut: () => void
  isSigningOut: boolean
}

/** The invitation cannot be used: unknown, revoked, expired or already accepted. */
export function InvalidInvitation({ message }: { message: string }) {
  return (
    <Card role="alert">
      <CardHeader>
        <TriangleAlertIcon className="mb-2 size-8 text-destructive" aria-hidden />
        <CardTitle as="h1">This invitation can't be used</CardTitle>
        <CardDescription>{message}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild variant="outline">
          <Link href="/projects">Go to Projects</Link>
        </Button>
      </CardFooter>
    </Card>
  )
}

/**
 * /invite?token=... (the link of an invitation email, issue 6 item 1; public route): shows
 * who invited the visitor to which project and as what, then lets the invited account
 * accept, tells another account to sign in with the invited address (with Sign out), and
 * offers a signed-out visitor to sign in or create an account and come back here. An
 * invalid or expired link says so, with a link to /projects.
 */
export function InvitePage({ user, isLoadingUser, onSignOut, isSigningOut }: InvitePageProps) {
  useDocumentTitle('Invitation')
  const [params] = useSearchParams()
  const token = params.get('token')?.trim() || null
  const preview = useInvitationPreview(token)

  let body
  if (!token) {
    body = <InvalidInvitation message={MEMBER_MESSAGES.invitationInvalid} />
  } else if (preview.isPending || isLoadingUser) {
    return <PageLoader label="Loading your invitation..." />
  } else if (preview.isError) {
    body = isApiError(preview.error, 404) ? (
      <InvalidInvitation message={MEMBER_MESSAGES.invitationInvalid} />
    ) : (
      <Card role="alert">
        <CardHeader>
          <MailOpenIcon className="mb-2 size-8 text-muted-foreground" aria-hidden />
          <CardTitle as="h1">We couldn't load this invitation</CardTitle>
          <CardDescription>{errorMessage(preview.error)}</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button type="button" onClick={() => void preview.refetch()}>
            Try again
          </Button>
        </CardFooter>
      </Card>
    )
  } else {
    body = (
      <InvitationCard
        token={token}
        preview={preview.data}
        user={user}
        returnTo={invitePath(token)}
        onSignOut={onSignOut}
        isSigningOut={isSigningOut}
      />
    )
  }
  return <CenteredLayout>{body}</CenteredLayout>
}
