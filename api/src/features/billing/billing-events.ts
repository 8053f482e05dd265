import type { AppDeps } from '../../app-env.ts'
import type { SubscriptionSnapshot } from './billing-gateway.ts'
import { applySubscription, fulfilPackagePurchase, requireAccount } from './fulfilment.ts'

/**
 * What the payment provider tells billing, in its own words rather than Stripe's (issue 5
 * item 3). The Stripe webhook maps Stripe events to these; the sandbox's Pay button and
 * portal raise them directly. Both then run {@link handleBillingEvent}, so both change
 * accounts through the very same fulfilment code.
 */
export type BillingEvent =
  /** A one-time credit package was paid. */
  | {
      type: 'checkout.completed'
      mode: 'payment'
      sessionId: string
      userId: number
      packageId: string
    }
  /** A subscription checkout was paid; `replacesSubscriptionId` for reactivations and upgrades. */
  | {
      type: 'checkout.completed'
      mode: 'subscription'
      sessionId: string
      userId: number
      subscriptionId: string
      replacesSubscriptionId?: string | undefined
    }
  /** A subscription's invoice was paid (first period or a renewal). */
  | { type: 'invoice.paid'; subscriptionId: string }
  /** A subscription changed (plan, cancel at period end, period) or ended. */
  | { type: 'subscription.updated' | 'subscription.deleted'; subscriptionId: string }
  /** Collecting a subscription's payment failed. */
  | { type: 'invoice.payment_failed'; subscriptionId?: string | undefined; customerId: string }

export type BillingEventDeps = Pick<AppDeps, 'db' | 'billing' | 'mailer' | 'env' | 'logger'>

/** Subscription statuses that keep a plan (Stripe's names; as fulfilment's). */
const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due'])

/** How strongly a subscription claims to be the account's current one. */
function claim(snapshot: SubscriptionSnapshot | null): number {
  if (!snapshot || !LIVE_STATUSES.has(snapshot.status)) return 0
  return snapshot.cancelAtPeriodEnd ? 1 : 2
}

/**
 * Whether `stored` (the account's current subscription, as the provider reports it now)
 * should stay current rather than `incoming`: live beats ended, renewing beats cancelling,
 * and between equals the one whose period started later (the newer) wins. This is what
 * lets a replaced subscription's late events (a reactivation leaves the old one cancelling
 * until its period end) arrive in any order without taking the account back.
 */
function staysCurrent(stored: SubscriptionSnapshot | null, incoming: SubscriptionSnapshot) {
  const a = claim(stored)
  const b = claim(incoming)
  if (a !== b) return a > b
  return stored !== null && stored.currentPeriodStart > incoming.currentPeriodStart
}

/**
 * Applies a subscription as the provider reports it now. `snapshot` null (the provider has
 * no such subscription any more) counts as ended. Returns whether the account changed.
 */
async function applyCurrent(
  deps: BillingEventDeps,
  subscriptionId: string,
  snapshot: SubscriptionSnapshot | null,
  input: { userId?: number | undefined; reason: 'subscription_created' | 'subscription_renewal' },
): Promise<boolean> {
  const { db, billing } = deps
  if (!snapshot) {
    // Only the account that holds it can be affected: build an ended snapshot from its row.
    const user = await db
      .selectFrom('users')
      .select(['id', 'stripe_customer_id'])
      .where('stripe_subscription_id', '=', subscriptionId)
      .executeTakeFirst()
    if (!user) return false
    const now = new Date()
    return applySubscription(db, {
      snapshot: {
        id: subscriptionId,
        customerId: user.stripe_customer_id ?? '',
        status: 'canceled',
        priceId: '',
        cancelAtPeriodEnd: false,
        currentPeriodStart: now,
        currentPeriodEnd: now,
      },
      userId: user.id,
      reason: input.reason,
    })
  }
  if (claim(snapshot) > 0) {
    const user = await db
      .selectFrom('users')
      .select(['stripe_subscription_id'])
      .$call((q) =>
        input.userId !== undefined
          ? q.where('id', '=', input.userId)
          : q.where('stripe_customer_id', '=', snapshot.customerId),
      )
      .executeTakeFirst()
    const storedId = user?.stripe_subscription_id
    if (storedId && storedId !== snapshot.id) {
      const stored = await billing.getSubscription(storedId)
      if (staysCurrent(stored, snapshot)) return false
    }
  }
  return applySubscription(db, { snapshot, userId: input.userId, reason: input.reason })
}

/**
 * Applies one billing event. Idempotent and order-independent: package credits move once
 * per checkout session, and every subscription event re-reads the subscription from the
 * provider (never trusting the event's copy), so duplicates and late arrivals converge on
 * the provider's current state.
 * @returns whether the account changed (false for duplicates and stale events).
 * @throws AccountNotFoundError when a checkout's account does not exist (nothing changed,
 *   retrying cannot help); anything else when the provider cannot be read or the database
 *   fails: the caller lets the provider retry.
 */
export async function handleBillingEvent(
  deps: BillingEventDeps,
  event: BillingEvent,
): Promise<boolean> {
  const { db, billing, logger } = deps
  switch (event.type) {
    case 'checkout.completed': {
      // Before anything, Stripe included, is touched on behalf of an account that is gone.
      await requireAccount(db, event.userId)
      if (event.mode === 'payment') {
        return fulfilPackagePurchase(db, {
          userId: event.userId,
          packageId: event.packageId,
          checkoutSessionId: event.sessionId,
        })
      }
      const snapshot = await billing.getSubscription(event.subscriptionId)
      const replaced = event.replacesSubscriptionId
      if (snapshot && replaced && replaced !== snapshot.id) {
        // The old subscription (cancelling for a reactivation, still renewing for an
        // upgrade) runs to its period end, already paid for, and then ends; the new one
        // becomes current now. It must never renew next to the new one.
        const old = await billing.getSubscription(replaced)
        if (
          old &&
          old.customerId === snapshot.customerId &&
          LIVE_STATUSES.has(old.status) &&
          !old.cancelAtPeriodEnd
        ) {
          await billing.cancelAtPeriodEnd(replaced)
        }
      }
      return applyCurrent(deps, event.subscriptionId, snapshot, {
        userId: event.userId,
        reason: 'subscription_created',
      })
    }
    case 'invoice.paid':
    case 'subscription.updated':
    case 'subscription.deleted': {
      const snapshot = await billing.getSubscription(event.subscriptionId)
      return applyCurrent(deps, event.subscriptionId, snapshot, {
        reason: 'subscription_renewal',
      })
    }
    case 'invoice.payment_failed': {
      const user = await db
        .selectFrom('users')
        .select(['id', 'email', 'name'])
        .where('stripe_customer_id', '=', event.customerId)
        .executeTakeFirst()
      logger.warn(
        { userId: user?.id, subscriptionId: event.subscriptionId },
        'subscription payment failed',
      )
      if (!user) return false
      const link = `${deps.env.APP_URL}/subscription`
      try {
        await deps.mailer.send({
          to: user.email,
          subject: 'Your Reelgraph payment did not go through',
          text: [
            `Hello ${user.name},`,
            '',
            'We could not collect the payment for your Reelgraph subscription. Your plan stays',
            'active while the payment is retried; please check your card or choose another',
            'payment method so it is not cancelled.',
            '',
            `Manage your subscription: ${link}`,
          ].join('\n'),
          link,
        })
      } catch (err) {
        // The event is still handled: a retried delivery must not send the email twice.
        logger.error({ err, userId: user.id }, 'payment failed email not sent')
      }
      return false
    }
  }
}
