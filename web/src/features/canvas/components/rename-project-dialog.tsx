import { projectNameSchema } from '@reelgraph/shared'
import { type FormEvent, useState } from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
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
export function RenameProjectDialog({ open, onOpenChange, ...props }: RenameProjectDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <RenameForm {...props} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  )
}

function RenameForm({
  projectId,
  currentName,
  onDone,
}: Omit<RenameProjectDialogProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
  const [name, setName] = useState(currentName)
  const rename = useRenameProject()
  const parsed = projectNameSchema.safeParse(name)
  const empty = name.trim() === ''
  const error = !empty && !parsed.success ? parsed.error.issues[0]?.message : undefined

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!parsed.success || rename.isPending) return
    rename.mutate(
      { id: projectId, name: parsed.data },
      {
        onSuccess: (renamed) => {
          toast({ ...CANVAS_TOASTS.projectRenamed, description: renamed.name })
          onDone()
        },
        onError: (err) => {
          console.error('Failed to rename project', err)
          toast({ ...CANVAS_TOASTS.renameFailed })
        },
      },
    )
  }

  const busy = rename.isPending
  return (
    <DialogContent
      showCloseButton={!busy}
      onEscapeKeyDown={(e) => busy && e.preventDefault()}
      onInteractOutside={(e) => busy && e.preventDefault()}
    >
      <DialogHeader>
        <DialogTitle>Rename project</DialogTitle>
        <DialogDescription>Give this project a name you will recognise.</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={submit} className="grid gap-4" aria-busy={busy || undefined}>
        <FormField label="Name" error={error}>
          <Input
            autoComplete="off"
            autoFocus
            value={name}
            readOnly={busy}
            onFocus={(e) => e.currentTarget.select()}
            onChange={(e) => setName(e.target.value)}
          />
        </FormField>
        <DialogFooter>
          <Button type="button" variant="outline" disabled={busy} onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || !parsed.success}>
            {busy ? <Spinner /> : null}
            {busy ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  )
}
