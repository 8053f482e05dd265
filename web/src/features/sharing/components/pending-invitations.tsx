import { formatLongDate, PROJECT_ROLE_LABELS, type ProjectInvitation } from '@reelgraph/shared'
import { MailIcon, XIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { useRevokeInvitation } from '../api/members-api'

/**
 * The owner's open invitations in the Share dialog (issue 6 item 1): address, role, expiry,
 * and "Revoke" (named "Revoke invitation to <email>"). Nothing when there are none.
 */
export function PendingInvitations({
  projectId,
  invitations,
}: {
  projectId: number
  invitations: readonly ProjectInvitation[]
}) {
  const revoke = useRevokeInvitation()
  if (invitations.length === 0) return null
  return (
    <section aria-labelledby="pending-invitations-title" className="grid gap-1">
      <h3 id="pending-invitations-title" className="font-medium text-sm">
        Pending invitations
      </h3>
      <ul aria-labelledby="pending-invitations-title" className="divide-y">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex items-center gap-3 py-2">
            <MailIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="grid min-w-0 flex-1">
              <span className="truncate text-sm">{invitation.email}</span>
              <span className="text-muted-foreground text-xs">
                Expires {formatLongDate(invitation.expiresAt)}
              </span>
            </div>
            <Badge variant="outline">{PROJECT_ROLE_LABELS[invitation.role]}</Badge>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-label={`Revoke invitation to ${invitation.email}`}
              disabled={revoke.isPending && revoke.variables.invitationId === invitation.id}
              onClick={() =>
                revoke.mutate(
                  { projectId, invitationId: invitation.id },
                  {
                    onSuccess: () =>
                      toast({
                        title: 'Invitation revoked',
                        description: `The link sent to ${invitation.email} no longer works.`,
                      }),
                    onError: (error) =>
                      toast({
                        title: 'Could not revoke the invitation',
                        description: errorMessage(error),
                        variant: 'destructive',
                      }),
                  },
                )
              }
            >
              <XIcon aria-hidden />
              Revoke
            </Button>
          </li>
        ))}
      </ul>
    </section>
  )
}
