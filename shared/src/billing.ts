import { z } from 'zod'

/**
 * Plans, credit packages and subscription states (spec §3 Plan, Credit package,
 * Subscription status; §4 Plan transitions, Subscription status values; §9 Billing;
 * ARCHITECTURE decisions 1 and 5).
 */

/** The plans, in their display order (spec §9: free 0, basic 1, pro 2). */
export const PLAN_IDS = ['free', 'basic', 'pro'] as const
export type PlanId = (typeof PLAN_IDS)[number]
/** The rank of each plan (spec §9 Billing). */
export const PLAN_ORDER: Record<PlanId, number> = { free: 0, basic: 1, pro: 2 }

/** Suffix of a status that cancels at period end (spec §4: "(planId)_cancelling"). */
export const CANCELLING_SUFFIX = '_cancelling'

/** A subscription plan (spec §3 Plan). `price` is US dollars per month. */
export const planSchema = z
  .object({
    id: z.enum(PLAN_IDS),
    name: z.string(),
    price: z.number(),
    /** The payment provider's price id; absent for free. */
    priceId: z.string().optional(),
    /** Credits granted each billing period (no roll-over, decision 5). */
    credits: z.number().int(),
    features: z.array(z.string()),
  })
  .meta({ id: 'Plan' })
export type Plan = z.infer<typeof planSchema>

/** `GET /api/subscription/plans` (spec §7): ordered free, basic, pro. */
export const plansOutput = z.object({ plans: z.array(planSchema) }).meta({ id: 'Plans' })

/** A one-time credit package (spec §3 Credit package). `price` is US dollars. */
export const creditPackageSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    price: z.number(),
    credits: z.number().int(),
    /** Marked "Best Value" on the page (spec §2: the package "medium"). */
    bestValue: z.boolean(),
  })
  .meta({ id: 'CreditPackage' })
export type CreditPackage = z.infer<typeof creditPackageSchema>

/** `GET /api/credit-packages` (spec §7). */
export const creditPackagesOutput = z
  .object({ packages: z.array(creditPackageSchema) })
  .meta({ id: 'CreditPackages' })

/** `GET /api/subscription/status` (spec §3 Subscription status). Dates are ISO 8601. */
export const subscriptionStatusSchema = z
  .object({
    status: z.string(),
    subscriptionId: z.string().nullable(),
    periodEnd: z.string().nullable(),
  })
  .meta({ id: 'SubscriptionStatus' })
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>

/** The plan a stored status refers to, and whether it cancels at period end (spec §4). */
export function parseSubscriptionStatus(status: string): { planId: PlanId; cancelling: boolean } {
  const cancelling = status.endsWith(CANCELLING_SUFFIX)
  const base = cancelling ? status.slice(0, -CANCELLING_SUFFIX.length) : status
  const planId = (PLAN_IDS as readonly string[]).includes(base) ? (base as PlanId) : 'free'
  return { planId, cancelling: cancelling && planId !== 'free' }
}

/** What choosing a plan does from the current status (spec §4 Plan transitions). */
export type PlanTransition =
  /** Selecting the plan that is already active does nothing. */
  | { kind: 'none' }
  /** Free to paid, or any other change: a checkout; takes effect on payment. */
  | { kind: 'checkout' }
  /** Pro to basic (not cancelling): the billing portal, effective at period end. */
  | { kind: 'portal-downgrade' }
  /** Any paid plan to free: the portal, falling back to cancel at period end. */
  | { kind: 'downgrade-to-free' }
  /** Cancelling to a paid plan: a checkout that ends the pending cancellation. */
  | { kind: 'reactivate' }
  /** Cancelling to free: nothing to do; say so. */
  | { kind: 'already-cancelling'; message: string }

/**
 * The transition table of spec §4 "Plan transitions".
 * @param status the stored status: free, basic, pro, or `<plan>_cancelling`.
 * @param target the plan the user chose.
 */
export function planTransition(status: string, target: PlanId): PlanTransition {
  const { planId: current, cancelling } = parseSubscriptionStatus(status)
  if (cancelling) {
    if (target === 'free') {
      return {
        kind: 'already-cancelling',
        message: 'Your subscription is already set to cancel at the end of the billing period.',
      }
    }
    return { kind: 'reactivate' }
  }
  if (target === current) return { kind: 'none' }
  if (current === 'free') return { kind: 'checkout' }
  if (target === 'free') return { kind: 'downgrade-to-free' }
  if (PLAN_ORDER[target] < PLAN_ORDER[current]) return { kind: 'portal-downgrade' }
  return { kind: 'checkout' }
}

/** Messages of the billing calls' request bodies (spec §7). */
export const BILLING_MESSAGES = {
  priceRequired: 'Choose a plan (priceId is required)',
  planRequired: 'Choose one of the plans: free, basic or pro',
  packageRequired: 'Choose a credit package (packageId is required)',
  cancelAtPeriodEnd:
    'cancelAtPeriodEnd must be true: subscriptions cancel at the end of the period',
} as const

const planIdField = z.enum(PLAN_IDS, { error: BILLING_MESSAGES.planRequired })

/** `POST /api/subscription/create-checkout-session` body (spec §7). */
export const createCheckoutSessionInput = z
  .object({
    priceId: z
      .string({ error: BILLING_MESSAGES.priceRequired })
      .trim()
      .min(1, BILLING_MESSAGES.priceRequired),
  })
  .meta({ id: 'CreateCheckoutSessionInput' })

/** `POST /api/subscription/create-portal-session` body (spec §7): an optional target plan. */
export const createPortalSessionInput = z
  .object({ targetPlanId: planIdField.optional() })
  .meta({ id: 'CreatePortalSessionInput' })

/** `POST /api/subscription/calculate-proration` body (spec §7). */
export const calculateProrationInput = z
  .object({ currentPlanId: planIdField, newPlanId: planIdField })
  .meta({ id: 'CalculateProrationInput' })

/** `POST /api/subscription/cancel` body (spec §7): always at period end. */
export const cancelSubscriptionInput = z
  .object({
    cancelAtPeriodEnd: z.literal(true, { error: BILLING_MESSAGES.cancelAtPeriodEnd }),
  })
  .meta({ id: 'CancelSubscriptionInput' })

/** `POST /api/subscription/reactivate-with-checkout` body (spec §7). */
export const reactivateWithCheckoutInput = z
  .object({
    newPlanId: planIdField,
    priceId: z
      .string({ error: BILLING_MESSAGES.priceRequired })
      .trim()
      .min(1, BILLING_MESSAGES.priceRequired),
  })
  .meta({ id: 'ReactivateWithCheckoutInput' })

/** `POST /api/purchase-credits` body (spec §7). */
export const purchaseCreditsInput = z
  .object({
    packageId: z
      .string({ error: BILLING_MESSAGES.packageRequired })
      .trim()
      .min(1, BILLING_MESSAGES.packageRequired),
  })
  .meta({ id: 'PurchaseCreditsInput' })

/** A page to send the browser to: checkout or portal (spec §5: an answer without url is an error). */
export const billingUrlOutput = z.object({ url: z.string().min(1) }).meta({ id: 'BillingUrl' })

/** `POST /api/subscription/calculate-proration` answer: US dollars due now. */
export const prorationOutput = z.object({ amount: z.number() }).meta({ id: 'Proration' })

/** `POST /api/subscription/cancel` answer. */
export const billingSuccessOutput = z
  .object({ success: z.literal(true) })
  .meta({ id: 'BillingSuccess' })

/** `POST /api/stripe/webhook` answer: received, and whether it was a duplicate or ignored. */
export const webhookReceivedOutput = z
  .object({
    received: z.literal(true),
    duplicate: z.boolean().optional(),
    ignored: z.boolean().optional(),
  })
  .meta({ id: 'WebhookReceived' })
