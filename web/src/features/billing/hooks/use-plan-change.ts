import { type Plan, type PlanId, parseSubscriptionStatus, planTransition } from '@reelgraph/shared'
import { useState } from 'react'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import {
  PORTAL_NO_URL_MESSAGE,
  redirectTo,
  useCalculateProration,
  useCancelSubscription,
  useCreateCheckoutSession,
  useCreatePortalSession,
  useReactivateWithCheckout,
} from '../api/billing-api'
import { BILLING_ERRORS } from '../lib/billing-messages'
import { usePageRestored } from './use-page-restored'

/** A change that waits for the person to confirm it in a dialog. */
export interface PendingConfirmation {
  kind: 'portal-downgrade' | 'downgrade-to-free'
  /** The plan chosen. */
  plan: Plan
  /** The prorated amount in dollars (portal downgrades only; 0 when it could not be had). */
  amount: number | null
}

/**
 * What choosing a plan does, by the spec §4 transition table (`planTransition`):
 * nothing on the active plan; a checkout from free or upward; the portal for a downgrade,
 * after showing the prorated amount; the portal for free, falling back to cancel at period
 * end; a reactivation checkout from a cancelling plan; a message when already cancelling.
 * Every failure toasts its spec §8 message.
 */
export function usePlanChange(status: string) {
  const checkout = useCreateCheckoutSession()
  const portal = useCreatePortalSession()
  const proration = useCalculateProration()
  const cancel = useCancelSubscription()
  const reactivate = useReactivateWithCheckout()
  /** The plan whose button is busy (from the click until the page is left or it fails). */
  const [busyPlanId, setBusyPlanId] = useState<PlanId | null>(null)
  const [confirmation, setConfirmation] = useState<PendingConfirmation | null>(null)
  const [confirming, setConfirming] = useState(false)
  usePageRestored(() => {
    setBusyPlanId(null)
    setConfirming(false)
    setConfirmation(null)
  })

  const fail = (title: string, description: string) =>
    toast({ title, description, variant: 'destructive' })

  const choose = async (plan: Plan) => {
    if (busyPlanId !== null || confirming) return
    const transition = planTransition(status, plan.id)
    switch (transition.kind) {
      case 'none':
        return
      case 'already-cancelling':
        toast({ title: 'Already cancelling', description: transition.message })
        return
      case 'checkout':
      case 'reactivate': {
        if (!plan.priceId) {
          fail('Error', BILLING_ERRORS.changePlanFailed)
          return
        }
        setBusyPlanId(plan.id)
        try {
          const url =
            transition.kind === 'checkout'
              ? await checkout.mutateAsync({ priceId: plan.priceId })
              : await reactivate.mutateAsync({ newPlanId: plan.id, priceId: plan.priceId })
          redirectTo(url)
        } catch (error) {
          if (transition.kind === 'reactivate') {
            fail(BILLING_ERRORS.reactivateFailed, errorMessage(error))
          } else {
            fail('Error', errorMessage(error, BILLING_ERRORS.changePlanFailed))
          }
          setBusyPlanId(null)
        }
        return
      }
      case 'portal-downgrade': {
        setBusyPlanId(plan.id)
        let amount = 0
        try {
          amount = await proration.mutateAsync({
            currentPlanId: parseSubscriptionStatus(status).planId,
            newPlanId: plan.id,
          })
        } catch {
          fail(BILLING_ERRORS.prorationErrorTitle, BILLING_ERRORS.prorationErrorDescription)
        }
        setBusyPlanId(null)
        setConfirmation({ kind: 'portal-downgrade', plan, amount })
        return
      }
      case 'downgrade-to-free':
        setConfirmation({ kind: 'downgrade-to-free', plan, amount: null })
        return
    }
  }

  /** Goes ahead with the change in {@link confirmation}. */
  const confirm = async () => {
    if (!confirmation || confirming) return
    setConfirming(true)
    if (confirmation.kind === 'portal-downgrade') {
      try {
        redirectTo(await portal.mutateAsync({ targetPlanId: confirmation.plan.id }))
      } catch (error) {
        fail(
          'Error',
          error instanceof Error && error.message === PORTAL_NO_URL_MESSAGE
            ? BILLING_ERRORS.portalNoUrl
            : errorMessage(error, BILLING_ERRORS.changePlanFailed),
        )
        setConfirming(false)
      }
      return
    }
    // To free: the portal, falling back to cancel at period end (spec §4).
    try {
      redirectTo(await portal.mutateAsync(undefined))
      return
    } catch {
      // fall through to the cancel call
    }
    try {
      await cancel.mutateAsync()
      toast({
        title: 'Subscription cancelled',
        description:
          'Your plan stays active until the end of the billing period, then moves to Free.',
      })
      setConfirmation(null)
    } catch {
      fail('Error', BILLING_ERRORS.downgradeToFreeFailed)
    }
    setConfirming(false)
  }

  const dismiss = () => {
    if (!confirming) setConfirmation(null)
  }

  return { choose, busyPlanId, confirmation, confirm, confirming, dismiss }
}
