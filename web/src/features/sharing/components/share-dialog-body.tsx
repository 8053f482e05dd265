import { TriangleAlertIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api-client'
import { useProjectMembers } from '../api/members-api'
import { useCurrentUser } from '../hooks/use-current-user'
import { selfMember } from '../lib/sharing'
import { InviteForm } from './invite-form'
import { LeaveProjectButton } from './leave-project-button'
import { MemberList } from './member-list'
import { MembersSkeleton } from './members-skeleton'
import { PendingInvitations } from './pending-invitations'

/**
 * What the Share dialog shows once open (issue 6 item 1): for the owner the invite form, the
 * members with role selects and Remove, and the pending invitations; for anyone else the
 * members and "Leave project". A skeleton while loading; the error with "Try again".
 */
export function ShareDialogBody({
  projectId,
  projectName,
}: {
  projectId: number
  projectName: string | undefined
}) {
  const members = useProjectMembers(projectId)
  const user = useCurrentUser()

  if (members.isPending) return <MembersSkeleton />
  if (members.isError) {
    return (
      <div role="alert" className="grid justify-items-start gap-3 py-2">
        <p className="flex items-center gap-2 font-medium text-sm">
          <TriangleAlertIcon className="size-4 text-destructive" aria-hidden />
          We couldn't load the members.
        </p>
        <p className="text-muted-foreground text-sm">{errorMessage(members.error)}</p>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={members.isFetching}
          onClick={() => void members.refetch()}
        >
          Try again
        </Button>
      </div>
    )
  }

  const { role, members: list, invitations } = members.data
  const isOwner = role === 'owner'
  const self = selfMember(list, user?.id)
  return (
    <div className="grid gap-5">
      {isOwner ? <InviteForm projectId={projectId} /> : null}
      <MemberList
        projectId={projectId}
        members={list}
        selfId={user?.id ?? null}
        canManage={isOwner}
      />
      {isOwner ? <PendingInvitations projectId={projectId} invitations={invitations} /> : null}
      {!isOwner && self ? (
        <div className="flex justify-end border-t pt-4">
          <LeaveProjectButton
            projectId={projectId}
            projectName={projectName}
            userId={self.userId}
          />
        </div>
      ) : null}
    </div>
  )
}
