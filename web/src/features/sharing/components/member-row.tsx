import { type MemberRole, PROJECT_ROLE_LABELS, type ProjectMember } from '@reelgraph/shared'
import { UserMinusIcon } from 'lucide-react'
import { useId } from 'react'
import { Avatar, AvatarFallback } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { initialsOf } from '@/lib/utils'
import { useChangeMemberRole, useRemoveMember } from '../api/members-api'
import { RoleSelect } from './role-select'

/** Props of {@link MemberRow}. */
export interface MemberRowProps {
  projectId: number
  member: ProjectMember
  /** This member is the signed-in user: marked "(you)". */
  isSelf: boolean
  /** The signed-in user owns the project: they may change this member's role or remove them. */
  canManage: boolean
}

/**
 * One member in the Share dialog (issue 6 item 1): initials, name ("(you)" for the signed-in
 * user), email and role. For the owner, every other member has a "Role for <name>" select
 * (saved at once) and "Remove <name>" with a confirmation. A list item named by the member.
 */
export function MemberRow({ projectId, member, isSelf, canManage }: MemberRowProps) {
  const nameId = useId()
  const changeRole = useChangeMemberRole()
  const remove = useRemoveMember()
  const manageable = canManage && member.role !== 'owner'

  const onRoleChange = (role: MemberRole) => {
    if (role === member.role) return
    changeRole.mutate(
      { projectId, userId: member.userId, role },
      {
        onSuccess: () =>
          toast({
            title: 'Role changed',
            description: `${member.name} now has “${PROJECT_ROLE_LABELS[role]}” access.`,
          }),
        onError: (error) =>
          toast({
            title: 'Could not change the role',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    )
  }

  return (
    <li aria-labelledby={nameId} className="flex items-center gap-3 py-2">
      <Avatar>
        <AvatarFallback aria-hidden>{initialsOf(member.name)}</AvatarFallback>
      </Avatar>
      <div className="grid min-w-0 flex-1">
        <span className="truncate font-medium text-sm">
          <span id={nameId}>{member.name}</span>
          {isSelf ? <span className="text-muted-foreground"> (you)</span> : null}
        </span>
        <span className="truncate text-muted-foreground text-xs">{member.email}</span>
      </div>
      {manageable ? (
        <>
          <RoleSelect
            aria-label={`Role for ${member.name}`}
            value={member.role === 'viewer' ? 'viewer' : 'editor'}
            disabled={changeRole.isPending}
            onValueChange={onRoleChange}
            className="h-8"
          />
          <ConfirmActionDialog
            trigger={
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                aria-label={`Remove ${member.name}`}
                title={`Remove ${member.name}`}
              >
                <UserMinusIcon aria-hidden />
              </Button>
            }
            title={`Remove ${member.name}?`}
            description={`${member.name} (${member.email}) loses access to this project at once, and their open editors close it.`}
            actionLabel="Remove"
            pendingLabel="Removing..."
            onConfirm={async () => {
              await remove.mutateAsync({ projectId, userId: member.userId })
              toast({ title: 'Member removed', description: `${member.name} was removed.` })
            }}
          />
        </>
      ) : (
        <Badge variant={member.role === 'owner' ? 'default' : 'secondary'}>
          {PROJECT_ROLE_LABELS[member.role]}
        </Badge>
      )}
    </li>
  )
}
