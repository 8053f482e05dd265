import type { PlanId } from '@reelgraph/shared'
import { useState } from 'react'
import { toast } from '@/hooks/use-toast'
import { PORTAL_NO_URL_MESSAGE, redirectTo, useCreatePortalSession } from '../api/billing-api'
import { BILLING_ERRORS } from '../lib/billing-messages'
import { usePageRestored } from './use-page-restored'

/**
 * Opens the billing portal ("Manage billing", "Manage Subscription"): asks for a portal
 * session and sends the browser there. Busy from the click until the page is left; a
 * failure toasts the spec §8 portal message.
 */
export function useBillingPortal() {
  const portal = useCreatePortalSession()
  const [redirecting, setRedirecting] = useState(false)
  usePageRestored(() => setRedirecting(false))

  const open = async (targetPlanId?: PlanId) => {
    try {
      const url = await portal.mutateAsync(targetPlanId ? { targetPlanId } : undefined)
      setRedirecting(true)
      redirectTo(url)
    } catch (error) {
      toast({
        title: 'Error',
        description:
          error instanceof Error && error.message === PORTAL_NO_URL_MESSAGE
            ? BILLING_ERRORS.portalNoUrl
            : BILLING_ERRORS.portalFailed,
        variant: 'destructive',
      })
    }
  }

  return { open, busy: portal.isPending || redirecting }
}
