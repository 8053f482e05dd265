import { AlertDialogAction, AlertDialogCancel, AlertDialogFooter } from './alert-dialog'
import { Spinner } from './spinner'

/** Props of {@link ConfirmFooter}. */
export interface ConfirmFooterProps {
  /** True while the confirmed call runs: both buttons are disabled, the action spins. */
  busy: boolean
  /** The destructive button's label, and its label while `busy`. */
  actionLabel: string
  pendingLabel: string
  /** Starts the call; the dialog stays open (closing is up to the caller when it ends). */
  onConfirm: () => void
}

/**
 * The footer of a confirmation (alert) dialog: Cancel, and a destructive action that keeps
 * the dialog open while its call runs, reading `pendingLabel` with a spinner meanwhile.
 */
export function ConfirmFooter({ busy, actionLabel, pendingLabel, onConfirm }: ConfirmFooterProps) {
  return (
    <AlertDialogFooter>
      <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
      <AlertDialogAction
        variant="destructive"
        disabled={busy}
        onClick={(event) => {
          // Stay open until the call ends: closing is up to the caller.
          event.preventDefault()
          onConfirm()
        }}
      >
        {busy ? <Spinner /> : null}
        {busy ? pendingLabel : actionLabel}
      </AlertDialogAction>
    </AlertDialogFooter>
  )
}
