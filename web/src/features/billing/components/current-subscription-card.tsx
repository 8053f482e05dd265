import {
  formatLongDate,
  type Plan,
  parseSubscriptionStatus,
  type StorageUsage,
} from '@reelgraph/shared'
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
import {
  type CreditBuckets,
  type CreditUsage,
  creditUsage,
  hasPaidSubscription,
  statusLabel,
} from '../lib/billing-view'
import { StorageUsageRow } from './storage-usage-row'
import { UsageBar } from './usage-bar'

const count = (n: number) => n.toLocaleString('en-US')

/**
 * The credit rows: the plan's bar (plan credits left against its monthly allowance) and,
 * apart, the purchased credits (issue 14 item 7).
 */
function CreditUsageRows({ usage }: { usage: CreditUsage | null }) {
  const plan = usage?.plan
  return (
    <>
      <div className="flex flex-col gap-2 sm:col-span-2">
        <div className="flex items-baseline justify-between gap-2 text-sm">
          <span id="credit-usage-label" className="text-muted-foreground">
            Plan credits this period
          </span>
          <span className="font-medium tabular-nums" data-testid="plan-credits">
            {usage === null
              ? '...'
              : plan
                ? `${count(plan.left)} / ${count(plan.allowance)} (${plan.percent}%)`
                : 'None on the Free plan'}
          </span>
        </div>
        <UsageBar labelledBy="credit-usage-label" percent={plan?.percent ?? 0} />
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-muted-foreground text-sm">Purchased credits</span>
        <span className="font-medium tabular-nums" data-testid="purchased-credits">
          {usage === null ? '...' : count(usage.purchased)}
        </span>
        <span className="text-muted-foreground text-xs">Never expire</span>
      </div>
    </>
  )
}

/** Props of {@link CurrentSubscriptionCard}. */
export interface CurrentSubscriptionCardProps {
  /** The stored status: free, basic, pro or `<plan>_cancelling`. */
  status: string
  /** The plan the status refers to; undefined while plans load. */
  plan: Plan | undefined
  periodEnd: string | null
  /** The plan and purchased credits; null while they load. */
  buckets: CreditBuckets | null
  onManageBilling: () => void
  manageBusy: boolean
  /** The account's storage and its quota (issue 40 item 5): undefined while it loads. */
  storage: StorageUsage | undefined
  /** True when the storage could not be loaded. */
  storageFailed: boolean
}

/**
 * The current subscription: plan, status ("Cancels at period end" when cancelling), period
 * end ("N/A" when none), the credit-usage bar (plan credits as a percentage of the plan's
 * monthly credits) with the purchased credits apart, and "Manage billing" when there is a
 * paid subscription to manage, and the storage the user's projects use of the plan's quota.
 * @see spec §2 /subscription, §3 display helper, §4 Subscription status values; issue 14 item 7;
 *   issue 40 item 5
 */
export function CurrentSubscriptionCard({
  status,
  plan,
  periodEnd,
  buckets,
  onManageBilling,
  manageBusy,
  storage,
  storageFailed,
}: CurrentSubscriptionCardProps) {
  const { cancelling } = parseSubscriptionStatus(status)
  const label = statusLabel(status)
  const usage = creditUsage(buckets, plan)
  return (
    <Card role="region" aria-labelledby="current-subscription-title">
      <CardHeader>
        <CardTitle id="current-subscription-title">Current subscription</CardTitle>
        <CardDescription>
          Your plan, its billing period, your credits and your storage.
        </CardDescription>
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
        <CreditUsageRows usage={usage} />
        <StorageUsageRow usage={storage} failed={storageFailed} />
      </CardContent>
      {hasPaidSubscription(status) ? (
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
      ) : null}
    </Card>
  )
}
