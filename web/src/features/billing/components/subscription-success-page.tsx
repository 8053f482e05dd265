import { useQueryClient } from '@tanstack/react-query'
import { CircleCheckIcon } from 'lucide-react'
import { useEffect } from 'react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useAccountSnapshot } from '@/hooks/use-account-snapshot'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { refreshBillingState, useSubscriptionStatus } from '../api/billing-api'
import { useBillingPortal } from '../hooks/use-billing-portal'
import { hasPaidSubscription } from '../lib/billing-view'
import { ResultCard } from './result-card'

/**
 * /subscription/success: "Payment Successful". Refreshes the user (the header's "Active"
 * badge), the credits and the subscription status on mount, since the payment changed
 * them. Back to Projects and Subscription lead on; Manage Subscription (the billing portal)
 * only when there is a paid subscription to manage: after buying credits on the free plan
 * the portal would have nothing to show (issue 14 item 7).
 * @see spec §2 /subscription/success, §7 "The credits are re-queried on the success page"
 */
export function SubscriptionSuccessPage() {
  useDocumentTitle('Payment Successful')
  const queryClient = useQueryClient()
  const portal = useBillingPortal()
  const { user } = useAccountSnapshot()
  const status = useSubscriptionStatus(user !== null).data?.status ?? user?.subscriptionStatus
  useEffect(() => {
    void refreshBillingState(queryClient)
  }, [queryClient])

  return (
    <ResultCard
      icon={CircleCheckIcon}
      iconClassName="text-success"
      title="Payment Successful"
      description="Thank you! Your payment went through. Your plan and credits are updated and may take a few seconds to show."
    >
      <Button asChild>
        <Link href="/projects">Back to Projects</Link>
      </Button>
      <Button asChild variant="outline">
        <Link href="/subscription">Subscription</Link>
      </Button>
      {status !== undefined && hasPaidSubscription(status) ? (
        <Button
          variant="outline"
          onClick={() => void portal.open()}
          disabled={portal.busy}
          aria-busy={portal.busy || undefined}
        >
          {portal.busy ? <Spinner /> : null}
          {portal.busy ? 'Opening billing portal...' : 'Manage Subscription'}
        </Button>
      ) : null}
    </ResultCard>
  )
}
