import { TriangleAlertIcon } from 'lucide-react'
import { useEffect } from 'react'
import { Link, useLocation, useSearchParams } from 'wouter'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useDocumentTitle } from '@/hooks/use-document-title'
import {
  CHECKOUT_REDIRECT_WITH_PLAN_MS as REDIRECT_WITH_PLAN_MS,
  CHECKOUT_REDIRECT_WITHOUT_PLAN_MS as REDIRECT_WITHOUT_PLAN_MS,
} from '@reelgraph/shared'
import { ResultCard } from './result-card'

/**
 * /checkout?plan=...: the legacy payment page. It always shows an error and sends the
 * person to /subscription, after 3 s without a plan and 2 s with one.
 * @see spec §2 /checkout
 */
export function CheckoutPage() {
  useDocumentTitle('Checkout')
  const [params] = useSearchParams()
  const plan = params.get('plan')?.trim() || null
  const [, navigate] = useLocation()

  useEffect(() => {
    const delay = plan ? REDIRECT_WITH_PLAN_MS : REDIRECT_WITHOUT_PLAN_MS
    const timer = setTimeout(() => navigate('/subscription', { replace: true }), delay)
    return () => clearTimeout(timer)
  }, [plan, navigate])

  return (
    <ResultCard
      icon={TriangleAlertIcon}
      iconClassName="text-destructive"
      title={plan ? 'Checkout unavailable' : 'No plan selected'}
      description={
        <span role="alert" className="flex flex-col gap-3">
          <span>
            {plan
              ? 'Plans can no longer be bought from this page.'
              : 'This page needs a plan to check out.'}
          </span>
          <span className="text-foreground">
            <Spinner className="mr-2 inline-block align-[-0.125em]" />
            The upgrade process has changed. Redirecting to subscription page...
          </span>
        </span>
      }
    >
      <Button asChild variant="outline">
        <Link href="/subscription" replace>
          Go to Subscription now
        </Link>
      </Button>
    </ResultCard>
  )
}
