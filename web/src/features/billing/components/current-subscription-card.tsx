import { formatLongDate, type Plan, parseSubscriptionStatus } from '@reelgraph/shared'
import { CreditCardIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { creditUsagePercent, statusLabel } from '../lib/billing-view'

/** Props of {@link CurrentSubscriptionCard}. */
export interface CurrentSubscriptionCardProps {
  /** The stored status: free, basic, pro or `<plan>_cancelling`. */
  status: string
  /** The plan the status refers to; undefined while plans load. */
  plan: Plan | undefined
  periodEnd: string | null
  credits: number | null
  onManageBilling: () => void
  manageBusy: boolean
}

/**
 * The current subscription: plan, status ("Cancels at period end" when cancelling), period
 * end ("N/A" when none), and the credit-usage bar (the balance as a percentage of the
 * plan's monthly credits, capped at 100 %), with "Manage billing".
 * @see spec §2 /subscription, §3 display helper, §4 Subscription status values
 */
export function CurrentSubscriptionCard({
  status,
  plan,
  periodEnd,
  credits,
  onManageBilling,
  manageBusy,
}: CurrentSubscriptionCardProps) {
  const { cancelling } = parseSubscriptionStatus(status)
  const label = statusLabel(status)
  const planCredits = plan?.credits ?? 0
  const percent = creditUsagePercent(credits, planCredits)
  return (
    <Card role="region" aria-labelledby="current-subscription-title">
      <CardHeader>
        <CardTitle id="current-subscription-title">Current subscription</CardTitle>
        <CardDescription>Your plan, its billing period and your credits.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <span className="text-muted-foreground text-sm">Plan</span>
          <span className="font-semibold text-lg" data-testid="current-plan-name">
            {plan?.name ?? '...'}
          </span>
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-muted-foreground text-sm">Status</span>
          <span>
            <Badge
              variant={cancelling ? 'warning' : label === 'Active' ? 'success' : 'secondary'}
              data-testid="subscription-status"
            >
              {label}
            </Badge>
          </span>
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-muted-foreground text-sm">
            {cancelling ? 'Cancels on' : 'Current period ends'}
          </span>
          <span className="font-medium">{formatLongDate(periodEnd)}</span>
        </div>
        <div className="flex flex-col gap-2 sm:col-span-3">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span id="credit-usage-label" className="text-muted-foreground">
              Credits this period
            </span>
            <span className="font-medium tabular-nums">
              {credits === null ? '...' : credits.toLocaleString('en-US')} /{' '}
              {planCredits.toLocaleString('en-US')} ({percent}%)
            </span>
          </div>
          <div
            role="progressbar"
            aria-labelledby="credit-usage-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
          >
            <div
              className="h-full rounded-full bg-primary transition-[width]"
              style={{ width: `${percent}%` }}
            />
          </div>
        </div>
      </CardContent>
      <CardFooter>
        <Button
          variant="outline"
          onClick={onManageBilling}
          disabled={manageBusy}
          aria-busy={manageBusy || undefined}
        >
          {manageBusy ? <Spinner /> : <CreditCardIcon aria-hidden />}
          {manageBusy ? 'Opening billing portal...' : 'Manage billing'}
        </Button>
      </CardFooter>
    </Card>
  )
}
