import Stripe from 'stripe'
import type { BillingGateway, ReturnUrls, SubscriptionSnapshot } from './billing-gateway.ts'

/**
 * The Stripe implementation of BillingGateway (ARCHITECTURE "Billing"; issue 5), through
 * the `stripe` SDK at its own pinned API version.
 */
export interface StripeGatewaySettings {
  /** `STRIPE_SECRET_KEY`. Never appears in an error message. */
  secretKey: string
  /**
   * Where the API lives, e.g. `http://127.0.0.1:12345` for a local test server; default
   * Stripe's own (`https://api.stripe.com`).
   */
  apiBase?: string | undefined
  /** Per-request timeout in ms; default STRIPE_TIMEOUT_MS. */
  timeoutMs?: number | undefined
}

/** A page waits on these calls (checkout, portal): long enough for Stripe, short for a person. */
export const STRIPE_TIMEOUT_MS = 20_000
/** One retry of a connection error, 409 or 5xx; the SDK reuses the idempotency key. */
const STRIPE_MAX_NETWORK_RETRIES = 1

/** Why a Stripe call failed, for the caller to choose a status and a message. */
export type BillingErrorReason =
  /** Stripe refused the key (401/403): the server's configuration. */
  | 'auth'
  /** A card or payment was declined (402). */
  | 'declined'
  /** Stripe rejected the parameters (400/404), e.g. an unknown price. */
  | 'invalid'
  /** Too many requests (429). */
  | 'rate_limited'
  /** Stripe failed or could not be reached (5xx, network, timeout). */
  | 'unavailable'
  /** Stripe answered without something we need (e.g. no checkout url). */
  | 'malformed'

/**
 * A failed Stripe call. `message` is safe to show a person (it never contains the key or
 * Stripe's raw text); the Stripe error is the `cause`.
 */
export class BillingProviderError extends Error {
  readonly reason: BillingErrorReason
  /** Stripe's HTTP status, when it answered. */
  readonly status: number | undefined
  /** Stripe's error code (`resource_missing`, `card_declined`...), when it gave one. */
  readonly stripeCode: string | undefined

  constructor(
    reason: BillingErrorReason,
    message: string,
    options: { status?: number | undefined; stripeCode?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause })
    this.name = 'BillingProviderError'
    this.reason = reason
    this.status = options.status
    this.stripeCode = options.stripeCode
  }
}

/** Maps any failure of an SDK call to a BillingProviderError a person can read. */
export function toBillingError(error: unknown, action: string): BillingProviderError {
  if (error instanceof BillingProviderError) return error
  if (error instanceof Stripe.errors.StripeError) {
    const status = typeof error.statusCode === 'number' ? error.statusCode : undefined
    const stripeCode = typeof error.code === 'string' ? error.code : undefined
    const options = { status, stripeCode, cause: error }
    if (isTimeout(error)) {
      return new BillingProviderError(
        'unavailable',
        `Stripe did not answer in time to ${action}. Please try again.`,
        options,
      )
    }
    if (error instanceof Stripe.errors.StripeConnectionError || status === undefined) {
      return new BillingProviderError(
        'unavailable',
        `Stripe could not be reached to ${action}. Please try again.`,
        options,
      )
    }
    if (status === 401 || status === 403) {
      return new BillingProviderError(
        'auth',
        `Stripe refused the request to ${action}: check the server's Stripe key.`,
        options,
      )
    }
    if (status === 402) {
      return new BillingProviderError(
        'declined',
        `Stripe declined the request to ${action} (HTTP 402).`,
        options,
      )
    }
    if (status === 429) {
      return new BillingProviderError(
        'rate_limited',
        `Stripe is busy (HTTP 429) and could not ${action}. Please try again later.`,
        options,
      )
    }
    if (status >= 500) {
      return new BillingProviderError(
        'unavailable',
        `Stripe failed to ${action} (HTTP ${status}). Please try again.`,
        options,
      )
    }
    return new BillingProviderError(
      'invalid',
      `Stripe rejected the request to ${action} (HTTP ${status}${stripeCode ? `, ${stripeCode}` : ''}).`,
      options,
    )
  }
  return new BillingProviderError(
    'unavailable',
    `Stripe could not be reached to ${action}. Please try again.`,
    { cause: error },
  )
}

/** The SDK's connection error for a request that outlived its timeout. */
function isTimeout(error: InstanceType<typeof Stripe.errors.StripeError>): boolean {
  const detail: unknown = error.detail
  return (
    error instanceof Stripe.errors.StripeConnectionError &&
    typeof detail === 'object' &&
    detail !== null &&
    (detail as { code?: unknown }).code === 'ETIMEDOUT'
  )
}

/** `http://127.0.0.1:12345` -> the SDK's host, port and protocol. */
export function stripeNetworkConfig(
  apiBase: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {}
  const url = new URL(apiBase)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  }
}

/** Builds the Stripe gateway. Throws when the key is empty. */
export function createStripeGateway(settings: StripeGatewaySettings): BillingGateway {
  if (!settings.secretKey) throw new Error('createStripeGateway needs a secret key')
  const stripe = new Stripe(settings.secretKey, {
    ...stripeNetworkConfig(settings.apiBase),
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: settings.timeoutMs ?? STRIPE_TIMEOUT_MS,
    // No usage telemetry from a self-hosted app.
    telemetry: false,
  })

  async function call<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      throw toBillingError(error, action)
    }
  }

  /** The subscription, or null when Stripe has none by that id (404 resource_missing). */
  async function retrieveSubscription(id: string): Promise<Stripe.Subscription | null> {
    try {
      return await stripe.subscriptions.retrieve(id)
    } catch (error) {
      if (
        error instanceof Stripe.errors.StripeError &&
        error.statusCode === 404 &&
        error.code === 'resource_missing'
      ) {
        return null
      }
      throw toBillingError(error, 'read the subscription')
    }
  }

  /** The id of a subscription's (single) item, which plan changes must name. */
  async function itemIdOf(subscriptionId: string, action: string): Promise<string> {
    const subscription = await retrieveSubscription(subscriptionId)
    if (!subscription) {
      throw new BillingProviderError('invalid', `Stripe has no such subscription to ${action}.`, {
        status: 404,
        stripeCode: 'resource_missing',
      })
    }
    const item = subscription.items.data[0]
    if (!item) {
      throw new BillingProviderError('malformed', `The subscription has no item to ${action}.`)
    }
    return item.id
  }

  /**
   * A hosted checkout for one unit of `args.priceId`; `metadata` goes on the session and on
   * what it creates (the subscription, or the payment intent of a one-time payment).
   */
  async function startCheckout(
    mode: 'subscription' | 'payment',
    args: { customerId: string; priceId: string; userId: number } & ReturnUrls,
    metadata: Record<string, string>,
  ): Promise<{ url: string }> {
    const session = await call('start the checkout', () =>
      stripe.checkout.sessions.create({
        mode,
        customer: args.customerId,
        client_reference_id: String(args.userId),
        line_items: [{ price: args.priceId, quantity: 1 }],
        success_url: args.successUrl,
        cancel_url: args.cancelUrl,
        metadata,
        ...(mode === 'subscription'
          ? { subscription_data: { metadata } }
          : { payment_intent_data: { metadata } }),
      }),
    )
    return { url: requireUrl(session.url, 'checkout') }
  }

  return {
    mode: 'stripe',

    createCustomer(user) {
      return call('create the customer', async () => {
        const customer = await stripe.customers.create({
          email: user.email,
          name: user.name,
          metadata: { userId: String(user.id) },
        })
        return customer.id
      })
    },

    createSubscriptionCheckout(args) {
      const metadata: Record<string, string> = {
        userId: String(args.userId),
        planId: args.planId,
      }
      if (args.replacesSubscriptionId) {
        metadata.replacesSubscriptionId = args.replacesSubscriptionId
      }
      return startCheckout('subscription', args, metadata)
    },

    createPackageCheckout(args) {
      const metadata = { userId: String(args.userId), packageId: args.packageId }
      return startCheckout('payment', args, metadata)
    },

    async createPortalSession(args) {
      const action = 'open the billing portal'
      let flowData: Stripe.BillingPortal.SessionCreateParams.FlowData | undefined
      if (args.subscriptionId && args.targetPriceId) {
        const itemId = await itemIdOf(args.subscriptionId, action)
        flowData = {
          type: 'subscription_update_confirm',
          subscription_update_confirm: {
            subscription: args.subscriptionId,
            items: [{ id: itemId, price: args.targetPriceId, quantity: 1 }],
          },
        }
      }
      const session = await call(action, () =>
        stripe.billingPortal.sessions.create({
          customer: args.customerId,
          return_url: args.returnUrl,
          ...(flowData ? { flow_data: flowData } : {}),
        }),
      )
      return { url: requireUrl(session.url, 'billing portal') }
    },

    async previewProration(args) {
      const action = 'calculate the prorated amount'
      const itemId = await itemIdOf(args.subscriptionId, action)
      const invoice = await call(action, () =>
        stripe.invoices.createPreview({
          customer: args.customerId,
          subscription: args.subscriptionId,
          subscription_details: {
            items: [{ id: itemId, price: args.newPriceId, quantity: 1 }],
            // What the change would invoice right now, as the portal's update does.
            proration_behavior: 'always_invoice',
          },
        }),
      )
      if (typeof invoice.amount_due !== 'number') {
        throw new BillingProviderError(
          'malformed',
          'Stripe answered the preview without an amount.',
        )
      }
      return invoice.amount_due
    },

    async cancelAtPeriodEnd(subscriptionId) {
      const subscription = await call('cancel the subscription', () =>
        stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
      )
      return toSnapshot(subscription)
    },

    async getSubscription(subscriptionId) {
      const subscription = await retrieveSubscription(subscriptionId)
      return subscription ? toSnapshot(subscription) : null
    },
  }
}

/** Spec §5: checkout and portal answers without a url are an error. */
function requireUrl(url: string | null | undefined, what: string): string {
  if (typeof url !== 'string' || url === '') {
    throw new BillingProviderError('malformed', `Stripe answered without a ${what} URL.`)
  }
  return url
}

/** The billing period as API versions before 2025-03-31 put it: on the subscription. */
interface LegacyPeriod {
  current_period_start?: number | null
  current_period_end?: number | null
}

/**
 * Stripe's subscription as billing sees it. Since API version 2025-03-31 the billing period
 * lives on each subscription item (`items.data[0].current_period_end`); older versions put
 * it on the subscription. Both are read, the item first.
 */
export function toSnapshot(subscription: Stripe.Subscription): SubscriptionSnapshot {
  const item = subscription.items.data[0] as (Stripe.SubscriptionItem & LegacyPeriod) | undefined
  const legacy = subscription as Stripe.Subscription & LegacyPeriod
  const start = item?.current_period_start ?? legacy.current_period_start
  const end = item?.current_period_end ?? legacy.current_period_end
  const price = item?.price as Stripe.Price | string | undefined
  const priceId = typeof price === 'string' ? price : price?.id
  if (!priceId || typeof start !== 'number' || typeof end !== 'number') {
    throw new BillingProviderError(
      'malformed',
      'Stripe answered a subscription without its price or billing period.',
    )
  }
  const customer = subscription.customer
  return {
    id: subscription.id,
    customerId: typeof customer === 'string' ? customer : customer.id,
    status: subscription.status,
    priceId,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: new Date(start * 1000),
    currentPeriodEnd: new Date(end * 1000),
  }
}
