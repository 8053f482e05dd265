import {
  type Credits,
  formatStorageSize,
  PLAN_ORDER,
  type Plan,
  type PlanId,
  parseSubscriptionStatus,
  type StorageUsage,
} from '@reelgraph/shared'

/**
 * Pure helpers for the subscription page: prices, the credit-usage bar, status labels.
 * @see spec §2 /subscription, §4 Subscription status values
 */

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** "$12.00", "$0.00"; a negative amount reads "-$3.50". */
export function formatPrice(dollars: number): string {
  return USD.format(dollars)
}

/**
 * The credit-usage bar: plan credits as a percentage of the plan's monthly credits,
 * rounded, between 0 and 100.
 */
export function creditUsagePercent(credits: number | null, planCredits: number): number {
  if (credits === null || planCredits <= 0) return 0
  const percent = Math.round((credits / planCredits) * 100)
  return Math.min(100, Math.max(0, percent))
}

/** The two credit buckets: shared's `Credits` answer without the total. */
export type CreditBuckets = Pick<Credits, 'planCredits' | 'purchasedCredits'>

/** What the current subscription card shows of the credits (issue 14 item 7). */
export interface CreditUsage {
  /**
   * The plan's bar: plan credits left against the plan's monthly allowance, and that as a
   * percentage (0-100). Null on the free plan, which has no monthly credits.
   */
  plan: { left: number; allowance: number; percent: number } | null
  /** Purchased credits, shown apart from the bar (they never expire). */
  purchased: number
}

/**
 * The credit-usage bar and the purchased credits, from the buckets and the current plan:
 * plan credits count against the plan's allowance only, so purchased credits never read
 * as "362 / 200". Null while the buckets or the plan are unknown.
 */
export function creditUsage(
  buckets: CreditBuckets | null,
  plan: Plan | undefined,
): CreditUsage | null {
  if (buckets === null || plan === undefined) return null
  const monthly = plan.id !== 'free' && plan.credits > 0
  return {
    plan: monthly
      ? {
          left: buckets.planCredits,
          allowance: plan.credits,
          percent: creditUsagePercent(buckets.planCredits, plan.credits),
        }
      : null,
    purchased: buckets.purchasedCredits,
  }
}

/** How the current subscription card names a status (spec §4 Subscription status values). */
export function statusLabel(status: string): string {
  const { planId, cancelling } = parseSubscriptionStatus(status)
  if (cancelling) return 'Cancels at period end'
  return planId === 'free' ? 'Free' : 'Active'
}

/**
 * Whether the account has a paid subscription to manage (basic or pro, cancelling or not).
 * Without one the billing portal has nothing to show, so "Manage Subscription" and
 * "Manage billing" are not offered (issue 14 item 7).
 */
export function hasPaidSubscription(status: string): boolean {
  return parseSubscriptionStatus(status).planId !== 'free'
}

/** The plan a status refers to, from the list (undefined while the list loads). */
export function currentPlan(plans: readonly Plan[] | undefined, status: string): Plan | undefined {
  const { planId } = parseSubscriptionStatus(status)
  return plans?.find((plan) => plan.id === planId)
}

/** The plans in the spec §9 order (free, basic, pro), whatever order they arrive in. */
export function orderPlans(plans: readonly Plan[]): Plan[] {
  return [...plans].sort((a, b) => PLAN_ORDER[a.id] - PLAN_ORDER[b.id])
}

/** The featured plan (spec §2: pro). */
export const FEATURED_PLAN_ID: PlanId = 'pro'

/**
 * The storage row of the current subscription card (issue 40 item 5): "120 MB of 1 GB used"
 * and the bar's percentage of the quota used, rounded up (a byte used shows on the bar), 0 to
 * 100.
 */
export function storageView(usage: StorageUsage): { words: string; percent: number } {
  const percent =
    usage.quotaBytes <= 0 ? 100 : Math.ceil((usage.usedBytes / usage.quotaBytes) * 100)
  return {
    words: `${formatStorageSize(usage.usedBytes)} of ${formatStorageSize(usage.quotaBytes)} used`,
    percent: Math.min(100, Math.max(0, percent)),
  }
}
