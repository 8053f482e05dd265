import { LogOutIcon } from 'lucide-react'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog'
import { toast } from '@/hooks/use-toast'
import { useLeaveProject } from '../api/members-api'

/**
 * "Leave project" for a member who is not the owner (issue 6 item 1): asks first, then
 * leaves (the project's copy on this device is cleared) and goes to /projects.
 */
export function LeaveProjectButton({
  projectId,
  projectName,
  userId,
}: {
  projectId: number
  projectName: string | undefined
  userId: number
}) {
  const leave = useLeaveProject()
  const [, navigate] = useLocation()
  const name = projectName ?? 'this project'
  return (
    <ConfirmActionDialog
      trigger={
        <Button type="button" variant="outline" className="text-destructive">
          <LogOutIcon aria-hidden />
          Leave project
        </Button>
      }
      title={`Leave ${name}?`}
      description="You lose access to it at once. Its owner can invite you again."
      actionLabel="Leave project"
      pendingLabel="Leaving..."
      onConfirm={async () => {
        await leave.mutateAsync({ projectId, userId })
        toast({ title: 'You left the project', description: `You are no longer in ${name}.` })
        navigate('/projects', { replace: true })
      }}
    />
  )
}
