import { useQueryClient } from '@tanstack/react-query'
import { CircleCheckIcon } from 'lucide-react'
import { useEffect } from 'react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { QUERY_KEYS } from '@/lib/query-keys'
import { ResultCard } from './result-card'

/**
 * /subscription/success: "Payment Successful". Refreshes the user, the credits and the
 * subscription status, since the payment changed them.
 * @see spec §2 /subscription/success, §7 "The credits are re-queried on the success page"
 */
export function SubscriptionSuccessPage() {
  useDocumentTitle('Payment Successful')
  const queryClient = useQueryClient()
  useEffect(() => {
    for (const queryKey of [QUERY_KEYS.credits, QUERY_KEYS.user, QUERY_KEYS.subscriptionStatus]) {
      void queryClient.invalidateQueries({ queryKey })
    }
  }, [queryClient])

  return (
    <ResultCard
      icon={CircleCheckIcon}
      iconClassName="text-success"
      title="Payment Successful"
      description="Thank you! Your payment went through. Your plan and credits are updated and may take a few seconds to show."
    >
      <Button asChild>
        <Link href="/subscription">Manage Subscription</Link>
      </Button>
      <Button asChild variant="outline">
        <Link href="/projects">Back to Projects</Link>
      </Button>
    </ResultCard>
  )
}
