import { MailWarningIcon, XIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useResendVerification } from '../hooks/use-resend-verification'

const DISMISSED_KEY = 'reelgraph:verify-banner-dismissed'

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

/**
 * A slim notice under the header while the user's email is unverified, with a "Resend
 * verification email" action. It can be hidden for the rest of the browser session.
 */
export function EmailVerificationBanner({ email }: { email: string }) {
  const [dismissed, setDismissed] = useState(wasDismissed)
  const resend = useResendVerification()
  if (dismissed) return null

  const dismiss = () => {
    setDismissed(true)
    try {
      sessionStorage.setItem(DISMISSED_KEY, '1')
    } catch {
      // Storage can be unavailable (private mode); hiding for this page view is enough.
    }
  }

  return (
    <section
      aria-label="Email verification"
      className="border-b bg-warning text-warning-foreground"
    >
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm sm:px-6">
        <MailWarningIcon className="size-4 shrink-0" aria-hidden />
        <p className="min-w-0 flex-1 basis-64">
          {resend.isSuccess ? (
            <>
              We sent a new verification link to <strong className="font-medium">{email}</strong>.
            </>
          ) : (
            <>
              Please verify your email address. We sent a link to{' '}
              <strong className="font-medium">{email}</strong>.
            </>
          )}
        </p>
        <Button
          variant="link"
          size="sm"
          className="text-warning-foreground underline"
          disabled={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {resend.isPending ? <Spinner /> : null}
          {resend.isPending ? 'Sending...' : 'Resend verification email'}
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-7 hover:bg-warning-foreground/10"
          aria-label="Dismiss email verification notice"
          onClick={dismiss}
        >
          <XIcon aria-hidden />
        </Button>
      </div>
    </section>
  )
}
