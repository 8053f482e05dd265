import { PLAN_ORDER, type Plan, type PlanId, parseSubscriptionStatus } from '@reelgraph/shared'

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
 * The credit-usage bar: current credits as a percentage of the plan's monthly credits,
 * rounded, between 0 and 100 (purchased credits can take the balance past the plan's).
 */
export function creditUsagePercent(credits: number | null, planCredits: number): number {
  if (credits === null || planCredits <= 0) return 0
  const percent = Math.round((credits / planCredits) * 100)
  return Math.min(100, Math.max(0, percent))
}

/** How the current subscription card names a status (spec §4 Subscription status values). */
export function statusLabel(status: string): string {
  const { planId, cancelling } = parseSubscriptionStatus(status)
  if (cancelling) return 'Cancels at period end'
  return planId === 'free' ? 'Free' : 'Active'
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
