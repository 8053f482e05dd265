import { type ReactNode, useState } from 'react'
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { ConfirmFooter } from '@/components/ui/confirm-footer'
import { errorMessage } from '@/lib/api-client'

/** Props of {@link ConfirmActionDialog}. */
export interface ConfirmActionDialogProps {
  /** The button that opens it (rendered as the trigger). */
  trigger: ReactNode
  title: string
  description: ReactNode
  /** The confirming button's label, and its label while the call runs. */
  actionLabel: string
  pendingLabel: string
  /** Runs the action; a thrown error's message shows in the dialog, which stays open. */
  onConfirm: () => Promise<void>
  /** What the dialog says when the error has no message of its own (errorMessage's default). */
  failureFallback?: string
}

/**
 * Asks before a destructive action (remove a member, leave a project: issue 6 item 1; revoke
 * an API token: issue 41 item 1). The confirming button shows its pending label while the
 * call runs (the dialog is `aria-busy` meanwhile); the dialog closes when it succeeds and
 * shows the API's message when it fails.
 */
export function ConfirmActionDialog({
  trigger,
  title,
  description,
  actionLabel,
  pendingLabel,
  onConfirm,
  failureFallback,
}: ConfirmActionDialogProps) {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  const confirm = async () => {
    setBusy(true)
    setFailure(null)
    try {
      await onConfirm()
      setOpen(false)
    } catch (error) {
      setFailure(errorMessage(error, failureFallback))
    } finally {
      setBusy(false)
    }
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return
        setOpen(next)
        if (next) setFailure(null)
      }}
    >
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent aria-busy={busy || undefined}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {failure ? (
          <p role="alert" className="font-medium text-destructive text-sm">
            {failure}
          </p>
        ) : null}
        <ConfirmFooter
          busy={busy}
          actionLabel={actionLabel}
          pendingLabel={pendingLabel}
          onConfirm={() => void confirm()}
        />
      </AlertDialogContent>
    </AlertDialog>
  )
}
