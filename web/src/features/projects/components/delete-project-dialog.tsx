import type { ProjectSummary } from '@reelgraph/shared'
import { useState } from 'react'
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import { ConfirmFooter } from '@/components/ui/confirm-footer'
import { errorMessage } from '@/lib/api-client'
import { FailureNotice } from './failure-notice'

/** What the dialog says when the deletion fails. */
export const DELETE_FAILED_MESSAGE = 'Failed to delete project. Please try again.'

/** Props of {@link DeleteProjectDialog}. */
export interface DeleteProjectDialogProps {
  /** The project to delete; the dialog is open while it is set. */
  project: ProjectSummary | null
  onOpenChange: (open: boolean) => void
  /** Deletes it; throws on failure (logged and shown in the dialog, spec §8). */
  onConfirm: (project: ProjectSummary) => Promise<void>
  /** Where focus goes when the dialog closes. */
  onCloseAutoFocus?: (event: Event) => void
}

/**
 * Asks before deleting a project, naming it and saying it cannot be undone. "Delete"
 * reads "Deleting..." while the call runs, and the dialog stays until it ends.
 */
export function DeleteProjectDialog({
  project,
  onOpenChange,
  onConfirm,
  onCloseAutoFocus,
}: DeleteProjectDialogProps) {
  return (
    <AlertDialog open={project !== null} onOpenChange={onOpenChange}>
      {project ? (
        <DeleteProjectDialogContent
          key={project.id}
          project={project}
          onConfirm={onConfirm}
          onCloseAutoFocus={onCloseAutoFocus}
          onDone={() => onOpenChange(false)}
        />
      ) : null}
    </AlertDialog>
  )
}

function DeleteProjectDialogContent({
  project,
  onConfirm,
  onCloseAutoFocus,
  onDone,
}: {
  project: ProjectSummary
  onConfirm: (project: ProjectSummary) => Promise<void>
  onCloseAutoFocus: ((event: Event) => void) | undefined
  onDone: () => void
}) {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  const confirm = async () => {
    setBusy(true)
    setFailure(null)
    try {
      await onConfirm(project)
      onDone()
    } catch (error) {
      console.error(DELETE_FAILED_MESSAGE, error)
      setFailure(errorMessage(error))
      setBusy(false)
    }
  }

  return (
    <AlertDialogContent
      onEscapeKeyDown={(event) => {
        if (busy) event.preventDefault()
      }}
      onCloseAutoFocus={onCloseAutoFocus}
      aria-busy={busy || undefined}
    >
      <AlertDialogHeader>
        <AlertDialogTitle>Delete “{project.name}”?</AlertDialogTitle>
        <AlertDialogDescription>
          This permanently deletes the project and its canvas, on the server and on this device.
          This can’t be undone.
        </AlertDialogDescription>
      </AlertDialogHeader>
      {failure !== null ? <FailureNotice message={DELETE_FAILED_MESSAGE} detail={failure} /> : null}
      <ConfirmFooter
        busy={busy}
        actionLabel={'Delete'}
        pendingLabel={'Deleting...'}
        onConfirm={() => void confirm()}
      />
    </AlertDialogContent>
  )
}
