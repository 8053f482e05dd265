import {
  type InvitationPreview,
  MEMBER_MESSAGES,
  PROJECT_ROLE_LABELS,
  type User,
} from '@reelgraph/shared'
import { MailOpenIcon } from 'lucide-react'
import { useLocation } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { errorMessage, isApiError } from '@/lib/api-client'
import { authHref } from '@/lib/next-path'
import { useAcceptInvitation } from '../api/members-api'
import { inviteAudience, roleNoun } from '../lib/sharing'

/** Props of {@link InvitationCard}. */
export interface InvitationCardProps {
  token: string
  preview: InvitationPreview
  user: User | null
  /** This page's path, where /auth brings the visitor back. */
  returnTo: string
  onSignOut: () => void
  isSigningOut: boolean
}

/**
 * What an invitation offers and what the visitor can do about it (issue 6 item 1): "Accept
 * invitation" for the invited account (then the project opens), the wrong-account message
 * with Sign out for another one, "Sign in to accept" and "Create an account" (back here
 * afterwards, the address prefilled) for a signed-out visitor.
 */
export function InvitationCard({
  token,
  preview,
  user,
  returnTo,
  onSignOut,
  isSigningOut,
}: InvitationCardProps) {
  const accept = useAcceptInvitation()
  const [, navigate] = useLocation()
  const audience = inviteAudience(user, preview.email)
  const wrongAccount = audience === 'other-account' || isApiError(accept.error, 403)

  const onAccept = () =>
    accept.mutate(
      { token },
      {
        onSuccess: ({ projectId }) => {
          toast({
            title: 'Invitation accepted',
            description: `You joined ${preview.projectName}.`,
          })
          navigate(`/?id=${String(projectId)}`, { replace: true })
        },
      },
    )

  return (
    <Card>
      <CardHeader>
        <MailOpenIcon className="mb-2 size-8 text-primary" aria-hidden />
        <CardTitle as="h1">
          {preview.inviterName} invited you to {preview.projectName}
        </CardTitle>
        <CardDescription>
          You're invited as {roleNoun(preview.role)}{' '}
          <Badge variant="secondary">{PROJECT_ROLE_LABELS[preview.role]}</Badge> with the address{' '}
          <strong className="font-medium text-foreground">{preview.email}</strong>.
        </CardDescription>
      </CardHeader>
      {wrongAccount && user ? (
        <CardContent className="grid gap-2">
          <p role="alert" className="text-sm">
            {MEMBER_MESSAGES.invitationWrongAccount}
          </p>
          <p className="text-muted-foreground text-sm">You're signed in as {user.email}.</p>
        </CardContent>
      ) : accept.isError ? (
        <CardContent>
          <p role="alert" className="font-medium text-destructive text-sm">
            {isApiError(accept.error, 404)
              ? MEMBER_MESSAGES.invitationInvalid
              : errorMessage(accept.error)}
          </p>
        </CardContent>
      ) : null}
      <CardFooter className="flex flex-wrap gap-2">
        {!user ? (
          <>
            <Button
              type="button"
              onClick={() =>
                navigate(authHref({ view: 'login', next: returnTo, email: preview.email }))
              }
            >
              Sign in to accept
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() =>
                navigate(authHref({ view: 'register', next: returnTo, email: preview.email }))
              }
            >
              Create an account
            </Button>
          </>
        ) : wrongAccount ? (
          <Button type="button" variant="outline" disabled={isSigningOut} onClick={onSignOut}>
            {isSigningOut ? <Spinner /> : null}
            {isSigningOut ? 'Signing out...' : 'Sign out'}
          </Button>
        ) : (
          <Button type="button" disabled={accept.isPending} onClick={onAccept}>
            {accept.isPending ? <Spinner /> : null}
            {accept.isPending ? 'Accepting...' : 'Accept invitation'}
          </Button>
        )}
      </CardFooter>
    </Card>
  )
}
