import type { DB } from '@reelgraph/db'
import { CANCELLING_SUFFIX } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { grantCredits, resetPlanCredits } from '../credits/credit-ledger.ts'
import type { SubscriptionSnapshot } from './billing-gateway.ts'

/**
 * What a payment does to an account (issue 5 items 3 and 4). The Stripe webhook and the
 * sandbox both call these, so both run the very same code. Every function is idempotent:
 * credits move once per checkout session or billing period, and subscription state is set
 * from a snapshot read from the provider, so events may arrive twice or out of order.
 */

/** Subscription statuses that keep a plan (Stripe's names). */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due'])

/**
 * A payment event names an account that does not exist (any more): deleted since the
 * checkout, or from another database (a reset development one behind `stripe listen`).
 * Retrying cannot help, so the webhook acknowledges it instead of failing (issue 11 item 10).
 */
export class AccountNotFoundError extends Error {
  readonly userId: number

  constructor(userId: number) {
    super(`There is no account ${userId}: the payment event changes nothing.`)
    this.name = 'AccountNotFoundError'
    this.userId = userId
  }
}

/**
 * Checks that the account `userId` exists.
 * @throws AccountNotFoundError when it does not.
 * @see issue 11 item 10
 */
export async function requireAccount(db: Kysely<DB>, userId: number): Promise<void> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  if (!user) throw new AccountNotFoundError(userId)
}

/**
 * Records a webhook event id; false when it was seen before (then it is not applied again).
 */
export async function recordStripeEvent(
  db: Kysely<DB>,
  eventId: string,
  type: string,
): Promise<boolean> {
  const row = await db
    .insertInto('stripe_events')
    .values({ id: eventId, type })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/**
 * A paid credit package: its credits into the purchased bucket (never expire) with a
 * `credit_purchase` row, once per checkout session.
 * @returns whether this call granted them.
 * @throws Error for an unknown package.
 */
export async function fulfilPackagePurchase(
  db: Kysely<DB>,
  input: { userId: number; packageId: string; checkoutSessionId: string },
): Promise<boolean> {
  const pkg = await db
    .selectFrom('credit_packages')
    .select(['name', 'credits'])
    .where('id', '=', input.packageId)
    .executeTakeFirst()
  if (!pkg) throw new Error(`Unknown credit package "${input.packageId}"`)
  const { applied } = await grantCredits(db, {
    userId: input.userId,
    amount: pkg.credits,
    bucket: 'purchased',
    type: 'credit_purchase',
    description: `${pkg.name} credit package`,
    idempotencyKey: `package:${input.checkoutSessionId}`,
  })
  return applied
}

/**
 * Brings the account in line with a subscription as the provider reports it now:
 * - live (active, trialing, past_due): stores its id, the status `<plan>` or
 *   `<plan>_cancelling`, the period end, and resets plan credits to the plan's monthly
 *   amount once per billing period (`reason` names the first grant's ledger type);
 * - ended: back to free with plan credits at 0 (`subscription_canceled`), but only if it
 *   is still the account's current subscription (a replaced one ending changes nothing).
 * @returns false when no account or plan matches (nothing changed).
 */
export async function applySubscription(
  db: Kysely<DB>,
  input: {
    snapshot: SubscriptionSnapshot
    /** From checkout metadata when known; else found by the provider's customer id. */
    userId?: number | undefined
    reason: 'subscription_created' | 'subscription_renewal'
  },
): Promise<boolean> {
  const { snapshot } = input
  const user = await db
    .selectFrom('users')
    .select(['id', 'stripe_subscription_id'])
    .$call((q) =>
      input.userId !== undefined
        ? q.where('id', '=', input.userId)
        : q.where('stripe_customer_id', '=', snapshot.customerId),
    )
    .executeTakeFirst()
  if (!user) return false

  if (!LIVE_STATUSES.has(snapshot.status)) {
    if (user.stripe_subscription_id !== snapshot.id) return false
    await db
      .updateTable('users')
      .set({
        subscription_status: 'free',
        stripe_subscription_id: null,
        subscription_period_end: null,
      })
      .where('id', '=', user.id)
      .execute()
    await resetPlanCredits(db, {
      userId: user.id,
      amount: 0,
      type: 'subscription_canceled',
      description: 'Subscription ended',
      idempotencyKey: `canceled:${snapshot.id}`,
    })
    return true
  }

  const plan = await db
    .selectFrom('plans')
    .select(['id', 'name', 'credits'])
    .where('stripe_price_id', '=', snapshot.priceId)
    .executeTakeFirst()
  if (!plan) return false
  await db
    .updateTable('users')
    .set({
      stripe_subscription_id: snapshot.id,
      stripe_customer_id: snapshot.customerId,
      subscription_status: snapshot.cancelAtPeriodEnd ? `${plan.id}${CANCELLING_SUFFIX}` : plan.id,
      subscription_period_end: snapshot.currentPeriodEnd,
    })
    .where('id', '=', user.id)
    .execute()
  // A period whose invoice is unpaid (past_due) keeps the plan but grants nothing yet;
  // invoice.paid for it grants the credits.
  if (snapshot.status === 'past_due') return true
  await resetPlanCredits(db, {
    userId: user.id,
    amount: plan.credits,
    type: input.reason,
    description: `${plan.name} plan credits`,
    idempotencyKey: `plan-period:${snapshot.id}:${snapshot.currentPeriodStart.toISOString()}`,
  })
  return true
}
