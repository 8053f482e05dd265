import { NameDialog } from '@/components/ui/name-dialog'
import { toast } from '@/hooks/use-toast'
import { useRenameProject } from '@/lib/projects-api'
import { CANVAS_TOASTS } from '../lib/canvas-messages'

/** Props of {@link RenameProjectDialog}. */
export interface RenameProjectDialogProps {
  projectId: number
  currentName: string
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * Renames the open project (spec §2 breadcrumb): Save stays disabled while the trimmed
 * name is empty (spec §5); "Project Renamed" or "Failed to rename project. Please try
 * again." (spec §8).
 */
export function RenameProjectDialog({
  projectId,
  currentName,
  ...props
}: RenameProjectDialogProps) {
  const rename = useRenameProject()
  return (
    <NameDialog
      {...props}
      title="Rename project"
      description="Give this project a name you will recognise."
      initialName={currentName}
      submitLabel="Save"
      busyLabel="Saving..."
      onSubmit={async (name) => {
        const renamed = await rename.mutateAsync({ id: projectId, name })
        toast({ ...CANVAS_TOASTS.projectRenamed, description: renamed.name })
      }}
      onFailure={(error) => {
        console.error('Failed to rename project', error)
        toast({ ...CANVAS_TOASTS.renameFailed })
        return undefined
      }}
    />
  )
}
