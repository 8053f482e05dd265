import { formatLongDate } from '@reelgraph/shared'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import { Spinner } from '@/components/ui/spinner'
import type { PendingConfirmation } from '../hooks/use-plan-change'
import { formatPrice } from '../lib/billing-view'

/** Props of {@link PlanChangeDialog}. */
export interface PlanChangeDialogProps {
  confirmation: PendingConfirmation | null
  /** The current plan's name. */
  currentPlanName: string
  periodEnd: string | null
  busy: boolean
  onConfirm: () => void
  onDismiss: () => void
}

/**
 * Confirms a downgrade before it goes to the billing portal: to a cheaper paid plan with
 * the prorated amount (spec §2 issue 5: "the proration amount shown before a change is
 * confirmed"), or to Free (cancels at period end).
 */
export function PlanChangeDialog({
  confirmation,
  currentPlanName,
  periodEnd,
  busy,
  onConfirm,
  onDismiss,
}: PlanChangeDialogProps) {
  const open = confirmation !== null
  const toFree = confirmation?.kind === 'downgrade-to-free'
  const amount = confirmation?.amount ?? 0
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onDismiss()
      }}
    >
      {confirmation ? (
        <AlertDialogContent
          aria-busy={busy || undefined}
          onEscapeKeyDown={(event) => {
            if (busy) event.preventDefault()
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Switch to {confirmation.plan.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              {toFree
                ? `Your ${currentPlanName} plan stays active until the end of the billing period (${formatLongDate(periodEnd)}), then moves to Free. You keep the credits you bought.`
                : `Your ${currentPlanName} plan stays active until the end of the billing period (${formatLongDate(periodEnd)}); ${confirmation.plan.name} starts then. You confirm the change in the billing portal.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {toFree ? null : (
            <p className="rounded-md border bg-muted/40 px-4 py-3 text-sm">
              Prorated amount:{' '}
              <span className="font-semibold tabular-nums" data-testid="proration-amount">
                {amount < 0 ? `${formatPrice(-amount)} credit` : formatPrice(amount)}
              </span>
            </p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Keep {currentPlanName}</AlertDialogCancel>
            <AlertDialogAction
              disabled={busy}
              onClick={(event) => {
                event.preventDefault()
                onConfirm()
              }}
            >
              {busy ? <Spinner /> : null}
              {busy ? 'Please wait...' : `Switch to ${confirmation.plan.name}`}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  )
}
