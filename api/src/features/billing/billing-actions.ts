import { type PlanId, parseSubscriptionStatus, planTransition } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { applySubscription } from './fulfilment.ts'
import { BillingProviderError } from './stripe-gateway.ts'

/**
 * The billing calls a signed-in user makes (spec §4 Plan transitions, §7; issue 5 item 2):
 * checkouts, the billing portal, the proration preview, cancel at period end and
 * reactivation. Pages go through the provider (`deps.billing`); accounts change only in
 * fulfilment, after the provider confirms.
 */
export type BillingActionDeps = Pick<AppDeps, 'db' | 'billing' | 'env'>

/** Where the provider sends the browser back (spec §2 /subscription/success, /cancel). */
function returnUrls(env: AppDeps['env']) {
  return {
    successUrl: `${env.APP_URL}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${env.APP_URL}/subscription/cancel`,
  }
}

/** A provider failure as a message a person can act on (502), anything else untouched. */
async function provider<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof AppError) throw error
    if (error instanceof BillingProviderError) {
      throw new AppError('PROVIDER_ERROR', error.message, { cause: error })
    }
    throw new AppError(
      'PROVIDER_ERROR',
      `The payment provider could not ${action}. Please try again later.`,
      { cause: error },
    )
  }
}

async function loadAccount(deps: BillingActionDeps, userId: number) {
  const user = await deps.db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'name',
      'subscription_status',
      'stripe_customer_id',
      'stripe_subscription_id',
    ])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!user) throw new AppError('NOT_FOUND', 'This account does not exist.')
  return user
}

type Account = Awaited<ReturnType<typeof loadAccount>>

/**
 * The user's customer at the provider, created on first need and stored. Two racing
 * requests may both create one; the first stored wins and is used by both.
 */
async function ensureCustomer(deps: BillingActionDeps, user: Account): Promise<string> {
  if (user.stripe_customer_id) return user.stripe_customer_id
  const created = await provider('create your billing account', () =>
    deps.billing.createCustomer({ id: user.id, email: user.email, name: user.name }),
  )
  const stored = await deps.db
    .updateTable('users')
    .set({ stripe_customer_id: created })
    .where('id', '=', user.id)
    .where('stripe_customer_id', 'is', null)
    .returning('stripe_customer_id')
    .executeTakeFirst()
  if (stored?.stripe_customer_id) return stored.stripe_customer_id
  const again = await loadAccount(deps, user.id)
  return again.stripe_customer_id ?? created
}

/** A paid plan by its provider price id. */
async function paidPlanByPrice(deps: BillingActionDeps, priceId: string) {
  return deps.db
    .selectFrom('plans')
    .select(['id', 'name', 'stripe_price_id'])
    .where('stripe_price_id', '=', priceId)
    .where('price_cents', '>', 0)
    .executeTakeFirst()
}

async function planById(deps: BillingActionDeps, planId: PlanId) {
  return deps.db
    .selectFrom('plans')
    .select(['id', 'name', 'price_cents', 'stripe_price_id'])
    .where('id', '=', planId)
    .executeTakeFirst()
}

/** The account's paid subscription id, or null on free. */
function currentSubscription(user: Account): string | null {
  const { planId } = parseSubscriptionStatus(user.subscription_status)
  return planId !== 'free' && user.stripe_subscription_id ? user.stripe_subscription_id : null
}

export const BILLING_ERRORS = {
  alreadyOnPlan: 'You are already on this plan.',
  useReactivate:
    'Your subscription is set to cancel at the end of the billing period. Reactivate it with the plan you want instead.',
  usePortal:
    'Downgrades take effect at the end of the billing period: make them in the billing portal (Manage Subscription).',
  unknownPrice: 'This is not the price of a paid plan. Reload the plans and choose again.',
  noSubscriptionToManage: 'You have no subscription to manage yet.',
  noSubscriptionToChange: 'You have no subscription to change yet. Choose a plan to subscribe.',
  noSubscriptionToCancel: 'You have no paid subscription to cancel.',
  notCancelling:
    'Your subscription is not set to cancel, so there is nothing to reactivate. Choose the plan to change to it.',
  planUnavailable: 'This plan cannot be bought right now: its price is not configured.',
  packageUnavailable:
    'This credit package cannot be bought right now: its price is not configured.',
} as const

/** `POST /api/subscription/create-checkout-session`: a checkout for a paid plan (spec §4). */
export async function createCheckoutSession(
  deps: BillingActionDeps,
  userId: number,
  priceId: string,
): Promise<{ url: string }> {
  const plan = await paidPlanByPrice(deps, priceId)
  if (!plan) throw new AppError('BAD_REQUEST', BILLING_ERRORS.unknownPrice)
  const user = await loadAccount(deps, userId)
  const transition = planTransition(user.subscription_status, plan.id as PlanId)
  switch (transition.kind) {
    case 'none':
      throw new AppError('DUPLICATE_REQUEST', BILLING_ERRORS.alreadyOnPlan)
    case 'reactivate':
      throw new AppError('BAD_REQUEST', BILLING_ERRORS.useReactivate)
    case 'already-cancelling':
      throw new AppError('BAD_REQUEST', transition.message)
    case 'portal-downgrade':
    case 'downgrade-to-free':
      throw new AppError('BAD_REQUEST', BILLING_ERRORS.usePortal)
    case 'checkout':
      break
  }
  const customerId = await ensureCustomer(deps, user)
  // An upgrade replaces the current subscription: fulfilment lets the old one end at its
  // period end so it never renews next to the new one.
  const replaces = currentSubscription(user) ?? undefined
  return provider('start the checkout', () =>
    deps.billing.createSubscriptionCheckout({
      customerId,
      priceId,
      userId,
      planId: plan.id,
      replacesSubscriptionId: replaces,
      ...returnUrls(deps.env),
    }),
  )
}

/**
 * `POST /api/subscription/create-portal-session`: the billing portal; with a paid target
 * plan, its subscription-update flow for that plan (downgrades at period end).
 */
export async function createPortalSession(
  deps: BillingActionDeps,
  userId: number,
  targetPlanId: PlanId | undefined,
): Promise<{ url: string }> {
  const user = await loadAccount(deps, userId)
  const subscriptionId = currentSubscription(user)
  if (!subscriptionId && !user.stripe_customer_id) {
    throw new AppError('BAD_REQUEST', BILLING_ERRORS.noSubscriptionToManage)
  }
  let targetPriceId: string | undefined
  if (targetPlanId && targetPlanId !== 'free') {
    const transition = planTransition(user.subscription_status, targetPlanId)
    if (transition.kind === 'none') {
      throw new AppError('DUPLICATE_REQUEST', BILLING_ERRORS.alreadyOnPlan)
    }
    if (!subscriptionId) throw new AppError('BAD_REQUEST', BILLING_ERRORS.noSubscriptionToChange)
    const plan = await planById(deps, targetPlanId)
    if (!plan?.stripe_price_id) throw new AppError('NOT_READY', BILLING_ERRORS.planUnavailable)
    targetPriceId = plan.stripe_price_id
  }
  const customerId = await ensureCustomer(deps, user)
  return provider('open the billing portal', () =>
    deps.billing.createPortalSession({
      customerId,
      returnUrl: `${deps.env.APP_URL}/subscription`,
      subscriptionId: targetPriceId ? (subscriptionId ?? undefined) : undefined,
      targetPriceId,
    }),
  )
}

/**
 * `POST /api/subscription/calculate-proration`: what changing to `newPlanId` would cost
 * now, in US dollars (the provider's invoice preview). Without a paid subscription it is
 * the new plan's full price (what its checkout charges); to free, or to the same plan, 0.
 */
export async function calculateProration(
  deps: BillingActionDeps,
  userId: number,
  input: { currentPlanId: PlanId; newPlanId: PlanId },
): Promise<{ amount: number }> {
  const user = await loadAccount(deps, userId)
  const { planId: current } = parseSubscriptionStatus(user.subscription_status)
  if (input.currentPlanId !== current) {
    throw new AppError(
      'BAD_REQUEST',
      `Your current plan is ${current}, not ${input.currentPlanId}. Reload the page and try again.`,
    )
  }
  if (input.newPlanId === 'free' || input.newPlanId === current) return { amount: 0 }
  const plan = await planById(deps, input.newPlanId)
  if (!plan?.stripe_price_id) throw new AppError('NOT_READY', BILLING_ERRORS.planUnavailable)
  const subscriptionId = currentSubscription(user)
  if (!subscriptionId || !user.stripe_customer_id) return { amount: plan.price_cents / 100 }
  const { stripe_customer_id: customerId } = user
  const priceId = plan.stripe_price_id
  const cents = await provider('calculate the prorated amount', () =>
    deps.billing.previewProration({ customerId, subscriptionId, newPriceId: priceId }),
  )
  return { amount: cents / 100 }
}

/**
 * `POST /api/subscription/cancel`: cancel at period end; the account reads
 * `<plan>_cancelling` at once (from the provider's answer).
 */
export async function cancelSubscription(
  deps: BillingActionDeps,
  userId: number,
): Promise<{ success: true }> {
  const user = await loadAccount(deps, userId)
  const subscriptionId = currentSubscription(user)
  if (!subscriptionId) throw new AppError('BAD_REQUEST', BILLING_ERRORS.noSubscriptionToCancel)
  const transition = planTransition(user.subscription_status, 'free')
  if (transition.kind === 'already-cancelling') {
    throw new AppError('BAD_REQUEST', transition.message)
  }
  const snapshot = await provider('cancel the subscription', () =>
    deps.billing.cancelAtPeriodEnd(subscriptionId),
  )
  await applySubscription(deps.db, { snapshot, userId, reason: 'subscription_renewal' })
  return { success: true }
}

/**
 * `POST /api/subscription/reactivate-with-checkout`: a cancelling subscription to a paid
 * plan: a checkout whose payment makes the new subscription current at once (spec §4).
 */
export async function reactivateWithCheckout(
  deps: BillingActionDeps,
  userId: number,
  input: { newPlanId: PlanId; priceId: string },
): Promise<{ url: string }> {
  const plan = await paidPlanByPrice(deps, input.priceId)
  if (!plan || plan.id !== input.newPlanId) {
    throw new AppError('BAD_REQUEST', BILLING_ERRORS.unknownPrice)
  }
  const user = await loadAccount(deps, userId)
  const transition = planTransition(user.subscription_status, input.newPlanId)
  if (transition.kind !== 'reactivate') {
    throw new AppError('BAD_REQUEST', BILLING_ERRORS.notCancelling)
  }
  const customerId = await ensureCustomer(deps, user)
  return provider('start the checkout', () =>
    deps.billing.createSubscriptionCheckout({
      customerId,
      priceId: input.priceId,
      userId,
      planId: plan.id,
      replacesSubscriptionId: currentSubscription(user) ?? undefined,
      ...returnUrls(deps.env),
    }),
  )
}

/** `POST /api/purchase-credits`: a one-time checkout for a credit package. */
export async function purchaseCredits(
  deps: BillingActionDeps,
  userId: number,
  packageId: string,
): Promise<{ url: string }> {
  const pkg = await deps.db
    .selectFrom('credit_packages')
    .select(['id', 'stripe_price_id'])
    .where('id', '=', packageId)
    .executeTakeFirst()
  if (!pkg) {
    throw new AppError(
      'BAD_REQUEST',
      `There is no credit package "${packageId}". Reload the page and choose again.`,
    )
  }
  if (!pkg.stripe_price_id) throw new AppError('NOT_READY', BILLING_ERRORS.packageUnavailable)
  const priceId = pkg.stripe_price_id
  const user = await loadAccount(deps, userId)
  const customerId = await ensureCustomer(deps, user)
  return provider('start the checkout', () =>
    deps.billing.createPackageCheckout({
      customerId,
      priceId,
      userId,
      packageId: pkg.id,
      ...returnUrls(deps.env),
    }),
  )
}
