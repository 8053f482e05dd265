import { webhookReceivedOutput } from '@reelgraph/shared'
import { Hono } from 'hono'
import Stripe from 'stripe'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { docs } from '../../lib/openapi.ts'
import { type BillingEvent, handleBillingEvent } from './billing-events.ts'
import { AccountNotFoundError, recordStripeEvent } from './fulfilment.ts'

/** A Stripe object read loosely: fields moved between API versions. */
type Loose = Record<string, unknown>

function asObject(value: unknown): Loose {
  return typeof value === 'object' && value !== null ? (value as Loose) : {}
}

/** An id field that may be a string or an expanded object with an `id`. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value
  const id = asObject(value).id
  return typeof id === 'string' && id ? id : undefined
}

/**
 * An invoice's subscription id: `parent.subscription_details.subscription` since API
 * version 2025-03-31, `subscription` before. Both are read.
 */
function invoiceSubscription(invoice: Loose): string | undefined {
  const details = asObject(asObject(invoice.parent).subscription_details)
  return idOf(details.subscription) ?? idOf(invoice.subscription)
}

/** Checkout `payment_status` values that mean the money is there. */
const PAID = new Set(['paid', 'no_payment_required'])

/**
 * The billing event a Stripe event means, or null for types billing ignores (and for
 * events that are not ours, e.g. a checkout without our metadata).
 */
export function toBillingEvent(event: Stripe.Event): BillingEvent | null {
  const object = asObject(event.data.object)
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const metadata = asObject(object.metadata)
      const sessionId = idOf(object.id)
      const userId = Number(metadata.userId)
      if (!sessionId || !Number.isSafeInteger(userId) || userId <= 0) return null
      if (object.mode === 'payment') {
        // A delayed payment method (bank debit) completes the session unpaid: the credits
        // wait for `checkout.session.async_payment_succeeded`.
        if (!PAID.has(String(object.payment_status))) return null
        const packageId = metadata.packageId
        if (typeof packageId !== 'string' || !packageId) return null
        return { type: 'checkout.completed', mode: 'payment', sessionId, userId, packageId }
      }
      if (object.mode === 'subscription') {
        const subscriptionId = idOf(object.subscription)
        if (!subscriptionId) return null
        const replaces = metadata.replacesSubscriptionId
        return {
          type: 'checkout.completed',
          mode: 'subscription',
          sessionId,
          userId,
          subscriptionId,
          replacesSubscriptionId: typeof replaces === 'string' && replaces ? replaces : undefined,
        }
      }
      return null
    }
    case 'invoice.paid': {
      const subscriptionId = invoiceSubscription(object)
      return subscriptionId ? { type: 'invoice.paid', subscriptionId } : null
    }
    case 'invoice.payment_failed': {
      const customerId = idOf(object.customer)
      if (!customerId) return null
      return {
        type: 'invoice.payment_failed',
        subscriptionId: invoiceSubscription(object),
        customerId,
      }
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscriptionId = idOf(object.id)
      if (!subscriptionId) return null
      return {
        type:
          event.type === 'customer.subscription.updated'
            ? 'subscription.updated'
            : 'subscription.deleted',
        subscriptionId,
      }
    }
    default:
      return null
  }
}

/**
 * `POST /api/stripe/webhook` (issue 5 item 3). Mounted ahead of the origin check, the JSON
 * body check and the session: Stripe is not a browser, and the signature is the
 * authentication. The signature is checked on the raw body with STRIPE_WEBHOOK_SECRET
 * (400 and nothing changes when it fails or is too old); each event id is recorded and
 * applied once; a failure forgets the id and answers 500, so Stripe's retry is applied.
 * An event for an account that no longer exists is acknowledged (200, `ignored`) and
 * logged once as a warning: no retry could apply it (issue 11 item 10).
 */
export const webhookRoutes = new Hono<AppEnv>().post(
  '/webhook',
  docs({
    summary: 'Stripe webhook (signed by Stripe)',
    tag: 'Billing',
    response: webhookReceivedOutput,
  }),
  async (c) => {
    const { deps } = c.var
    const secret = deps.env.STRIPE_WEBHOOK_SECRET
    if (!secret) {
      throw new AppError(
        'NOT_READY',
        'Stripe webhooks are not set up on this server: set STRIPE_WEBHOOK_SECRET.',
      )
    }
    const signature = c.req.header('stripe-signature')
    if (!signature) {
      throw new AppError('BAD_REQUEST', 'The Stripe-Signature header is missing.')
    }
    const raw = await c.req.text()
    let event: Stripe.Event
    try {
      event = Stripe.webhooks.constructEvent(raw, signature, secret)
    } catch (error) {
      const detail = error instanceof Error ? ` (${error.message.split('\n')[0]})` : ''
      throw new AppError(
        'BAD_REQUEST',
        `The webhook's signature does not match or is too old; nothing was changed${detail}.`,
      )
    }

    const logger = c.var.logger.child({ stripeEventId: event.id, stripeEventType: event.type })
    if (!(await recordStripeEvent(deps.db, event.id, event.type))) {
      logger.info('duplicate webhook event')
      return c.json({ received: true as const, duplicate: true })
    }
    const billingEvent = toBillingEvent(event)
    if (!billingEvent) {
      logger.debug('webhook event ignored')
      return c.json({ received: true as const, ignored: true })
    }
    try {
      const changed = await handleBillingEvent({ ...deps, logger }, billingEvent)
      logger.info({ changed }, 'webhook event applied')
    } catch (error) {
      if (error instanceof AccountNotFoundError) {
        // Retrying cannot bring the account back: the event stays recorded (a redelivery is a
        // duplicate, not logged again) and Stripe gets its 2xx instead of 3 days of retries.
        logger.warn({ userId: error.userId }, 'webhook event for an account that no longer exists')
        return c.json({ received: true as const, ignored: true })
      }
      await deps.db.deleteFrom('stripe_events').where('id', '=', event.id).execute()
      logger.error({ err: error }, 'webhook event failed; Stripe will retry it')
      throw new AppError(
        'INTERNAL',
        'The event could not be applied and was not recorded; Stripe will retry it.',
        { cause: error },
      )
    }
    return c.json({ received: true as const })
  },
)
