import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BillingGateway } from './billing-gateway.ts'
import { BillingProviderError, createStripeGateway, stripeNetworkConfig } from './stripe-gateway.ts'
import {
  HANG,
  parseForm,
  STRIPE_TEST_SECRET_KEY,
  startStripeServer,
  stripeError,
  type StripeTestServer,
} from './testing/stripe-server.ts'

let server: StripeTestServer
let gateway: BillingGateway

beforeAll(async () => {
  server = await startStripeServer()
  gateway = createStripeGateway({ secretKey: STRIPE_TEST_SECRET_KEY, apiBase: server.url })
})
afterAll(() => server.close())
beforeEach(() => server.reset())

const PERIOD_START = new Date('2026-11-01T00:00:00Z')
const PERIOD_END = new Date('2026-12-01T00:00:00Z')
const urls = {
  successUrl: 'http://localhost:5173/subscription/success',
  cancelUrl: 'http://localhost:5173/subscription/cancel',
}

/** A customer this Stripe knows, created through the gateway. */
async function customer(): Promise<string> {
  return gateway.createCustomer({ id: 7, email: 'ada@example.com', name: 'Ada' })
}

/** The one request to `method path`, failing when there is not exactly one. */
function onlyRequest(method: string, path: string | RegExp) {
  const sent = server.requestsTo(method, path)
  expect(sent).toHaveLength(1)
  return sent[0]!
}

/** Catches what `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<BillingProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(BillingProviderError)
  return error as BillingProviderError
}

describe('the local Stripe server', () => {
  it('parses bracket keys into nested objects and arrays', () => {
    expect(
      parseForm(
        'mode=subscription&line_items[0][price]=price_1&line_items[0][quantity]=1&metadata[userId]=7' +
          '&expand[0]=items&expand[1]=customer',
      ),
    ).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'price_1', quantity: '1' }],
      metadata: { userId: '7' },
      expand: ['items', 'customer'],
    })
  })
})

describe('createStripeGateway', () => {
  it('is the stripe mode and turns apiBase into the SDK host, port and protocol', () => {
    expect(gateway.mode).toBe('stripe')
    expect(stripeNetworkConfig('http://127.0.0.1:12345')).toEqual({
      host: '127.0.0.1',
      port: '12345',
      protocol: 'http',
    })
    expect(stripeNetworkConfig('https://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    })
    expect(stripeNetworkConfig(undefined)).toEqual({})
  })

  it('creates a customer with the email, name and user id, authenticated by the key', async () => {
    const id = await gateway.createCustomer({ id: 42, email: 'ada@example.com', name: 'Ada L' })

    expect(id).toMatch(/^cus_/)
    const sent = onlyRequest('POST', '/v1/customers')
    expect(sent.body).toEqual({
      email: 'ada@example.com',
      name: 'Ada L',
      metadata: { userId: '42' },
    })
    expect(sent.authorization).toBe(`Bearer ${STRIPE_TEST_SECRET_KEY}`)
    expect(sent.idempotencyKey).toBeTruthy()
    expect(sent.stripeVersion).toBeTruthy()
    expect(sent.headers['content-type']).toContain('application/x-www-form-urlencoded')
    expect(server.customers.get(id)).toMatchObject({ object: 'customer', email: 'ada@example.com' })
  })

  describe('createSubscriptionCheckout', () => {
    it('sends a subscription checkout for the price with the return urls and metadata', async () => {
      const customerId = await customer()

      const { url } = await gateway.createSubscriptionCheckout({
        customerId,
        priceId: 'price_basic',
        userId: 7,
        planId: 'basic',
        ...urls,
      })

      const sent = onlyRequest('POST', '/v1/checkout/sessions')
      expect(sent.body).toEqual({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: '7',
        line_items: [{ price: 'price_basic', quantity: '1' }],
        success_url: urls.successUrl,
        cancel_url: urls.cancelUrl,
        metadata: { userId: '7', planId: 'basic' },
        subscription_data: { metadata: { userId: '7', planId: 'basic' } },
      })
      const [session] = [...server.checkoutSessions.values()]
      expect(url).toBe(`https://checkout.stripe.test/c/${String(session?.id)}`)
      expect(session).toMatchObject({ object: 'checkout.session', mode: 'subscription' })
    })

    it('names the subscription a reactivation replaces', async () => {
      const customerId = await customer()

      await gateway.createSubscriptionCheckout({
        customerId,
        priceId: 'price_pro',
        userId: 7,
        planId: 'pro',
        replacesSubscriptionId: 'sub_old',
        ...urls,
      })

      const { body } = onlyRequest('POST', '/v1/checkout/sessions')
      const metadata = { userId: '7', planId: 'pro', replacesSubscriptionId: 'sub_old' }
      expect(body.metadata).toEqual(metadata)
      expect(body.subscription_data).toEqual({ metadata })
    })

    it('is an error when Stripe answers without a url', async () => {
      const customerId = await customer()
      server.intercept((request) =>
        request.path === '/v1/checkout/sessions'
          ? {
              status: 200,
              body: { id: 'cs_test_nourl', object: 'checkout.session', url: null },
            }
          : undefined,
      )

      const error = await failure(
        gateway.createSubscriptionCheckout({
          customerId,
          priceId: 'price_basic',
          userId: 7,
          planId: 'basic',
          ...urls,
        }),
      )
      expect(error.reason).toBe('malformed')
      expect(error.message).toBe('Stripe answered without a checkout URL.')
    })

    it('is a clear error when Stripe does not know the customer', async () => {
      const error = await failure(
        gateway.createSubscriptionCheckout({
          customerId: 'cus_unknown',
          priceId: 'price_basic',
          userId: 7,
          planId: 'basic',
          ...urls,
        }),
      )
      expect(error).toMatchObject({
        reason: 'invalid',
        status: 400,
        stripeCode: 'resource_missing',
      })
      expect(error.message).toBe(
        'Stripe rejected the request to start the checkout (HTTP 400, resource_missing).',
      )
    })
  })

  it('sends a one-time payment checkout for a credit package', async () => {
    const customerId = await customer()

    const { url } = await gateway.createPackageCheckout({
      customerId,
      priceId: 'price_medium',
      userId: 7,
      packageId: 'medium',
      ...urls,
    })

    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/cs_test_/)
    const { body } = onlyRequest('POST', '/v1/checkout/sessions')
    expect(body).toMatchObject({
      mode: 'payment',
      customer: customerId,
      client_reference_id: '7',
      line_items: [{ price: 'price_medium', quantity: '1' }],
      success_url: urls.successUrl,
      cancel_url: urls.cancelUrl,
      metadata: { userId: '7', packageId: 'medium' },
    })
    expect(body.subscription_data).toBeUndefined()
  })

  describe('createPortalSession', () => {
    it('opens the portal home with the return url', async () => {
      const customerId = await customer()

      const { url } = await gateway.createPortalSession({
        customerId,
        returnUrl: 'http://localhost:5173/subscription',
      })

      expect(url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/)
      const { body } = onlyRequest('POST', '/v1/billing_portal/sessions')
      expect(body).toEqual({
        customer: customerId,
        return_url: 'http://localhost:5173/subscription',
      })
      expect(server.requestsTo('GET', /^\/v1\/subscriptions\//)).toHaveLength(0)
    })

    it("opens the subscription-update flow for the target price on the subscription's item", async () => {
      const customerId = await customer()
      const subscription = server.seedSubscription({
        customer: customerId,
        price: 'price_pro',
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
      const itemId = (subscription.items as { data: Array<{ id: string }> }).data[0]!.id

      await gateway.createPortalSession({
        customerId,
        returnUrl: 'http://localhost:5173/subscription',
        subscriptionId: subscription.id as string,
        targetPriceId: 'price_basic',
      })

      onlyRequest('GET', `/v1/subscriptions/${String(subscription.id)}`)
      const { body } = onlyRequest('POST', '/v1/billing_portal/sessions')
      expect(body).toEqual({
        customer: customerId,
        return_url: 'http://localhost:5173/subscription',
        flow_data: {
          type: 'subscription_update_confirm',
          subscription_update_confirm: {
            subscription: subscription.id,
            items: [{ id: itemId, price: 'price_basic', quantity: '1' }],
          },
        },
      })
      const [session] = [...server.portalSessions.values()]
      expect(session?.flow).toMatchObject({ type: 'subscription_update_confirm' })
    })

    it('is an error when Stripe answers without a url', async () => {
      const customerId = await customer()
      server.failNext(
        { method: 'POST', path: '/v1/billing_portal/sessions' },
        { status: 200, body: { id: 'bps_nourl', object: 'billing_portal.session' } },
      )

      const error = await failure(
        gateway.createPortalSession({ customerId, returnUrl: 'http://localhost/x' }),
      )
      expect(error.message).toBe('Stripe answered without a billing portal URL.')
    })

    it('is an error when the subscription to change is gone', async () => {
      const customerId = await customer()

      const error = await failure(
        gateway.createPortalSession({
          customerId,
          returnUrl: 'http://localhost/x',
          subscriptionId: 'sub_gone',
          targetPriceId: 'price_basic',
        }),
      )
      expect(error).toMatchObject({ reason: 'invalid', stripeCode: 'resource_missing' })
      expect(server.requestsTo('POST', '/v1/billing_portal/sessions')).toHaveLength(0)
    })
  })

  describe('previewProration', () => {
    it("previews the change of the subscription's item to the new price, invoiced now", async () => {
      const customerId = await customer()
      const subscription = server.seedSubscription({
        customer: customerId,
        price: 'price_basic',
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
      const itemId = (subscription.items as { data: Array<{ id: string }> }).data[0]!.id
      server.previewAmountDue = 1_234

      const amount = await gateway.previewProration({
        customerId,
        subscriptionId: subscription.id as string,
        newPriceId: 'price_pro',
      })

      expect(amount).toBe(1_234)
      const { body } = onlyRequest('POST', '/v1/invoices/create_preview')
      expect(body).toEqual({
        customer: customerId,
        subscription: subscription.id,
        subscription_details: {
          items: [{ id: itemId, price: 'price_pro', quantity: '1' }],
          proration_behavior: 'always_invoice',
        },
      })
    })

    it('answers the amount due in cents as Stripe computes it', async () => {
      const subscription = server.seedSubscription({
        customer: 'cus_seeded',
        price: 'price_basic',
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
      server.prices.set('price_basic', 999)
      server.prices.set('price_pro', 2_999)

      const amount = await gateway.previewProration({
        customerId: 'cus_seeded',
        subscriptionId: subscription.id as string,
        newPriceId: 'price_pro',
      })

      expect(amount).toBe(2_000)
    })
  })

  describe('cancelAtPeriodEnd', () => {
    it('sets cancel_at_period_end and answers the updated subscription', async () => {
      const subscription = server.seedSubscription({
        id: 'sub_cancel',
        customer: 'cus_seeded',
        price: 'price_basic',
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })

      const snapshot = await gateway.cancelAtPeriodEnd('sub_cancel')

      const { body } = onlyRequest('POST', '/v1/subscriptions/sub_cancel')
      expect(body).toEqual({ cancel_at_period_end: 'true' })
      expect(snapshot).toEqual({
        id: 'sub_cancel',
        customerId: 'cus_seeded',
        status: 'active',
        priceId: 'price_basic',
        cancelAtPeriodEnd: true,
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
      expect(subscription.cancel_at_period_end).toBe(true)
    })

    it('is a clear error for an unknown subscription', async () => {
      const error = await failure(gateway.cancelAtPeriodEnd('sub_gone'))
      expect(error).toMatchObject({
        reason: 'invalid',
        status: 404,
        stripeCode: 'resource_missing',
      })
      expect(error.message).toBe(
        'Stripe rejected the request to cancel the subscription (HTTP 404, resource_missing).',
      )
    })
  })

  describe('getSubscription', () => {
    it('maps the subscription, the period read from its item (current API versions)', async () => {
      server.seedSubscription({
        id: 'sub_items',
        customer: 'cus_seeded',
        price: 'price_pro',
        status: 'past_due',
        cancelAtPeriodEnd: true,
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
        periodOn: 'items',
      })

      expect(await gateway.getSubscription('sub_items')).toEqual({
        id: 'sub_items',
        customerId: 'cus_seeded',
        status: 'past_due',
        priceId: 'price_pro',
        cancelAtPeriodEnd: true,
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
      onlyRequest('GET', '/v1/subscriptions/sub_items')
    })

    it('reads the period from the subscription itself (API versions before 2025-03-31)', async () => {
      server.seedSubscription({
        id: 'sub_legacy',
        customer: 'cus_seeded',
        price: 'price_basic',
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
        periodOn: 'subscription',
      })

      expect(await gateway.getSubscription('sub_legacy')).toMatchObject({
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
    })

    it('is an error when the subscription has no item to read the price from', async () => {
      const subscription = server.seedSubscription({
        id: 'sub_empty',
        customer: 'cus_seeded',
        price: 'price_basic',
        currentPeriodStart: PERIOD_START,
        currentPeriodEnd: PERIOD_END,
      })
      ;(subscription.items as { data: unknown[] }).data = []

      const error = await failure(gateway.getSubscription('sub_empty'))
      expect(error.reason).toBe('malformed')
    })

    it('answers null when Stripe has no such subscription', async () => {
      expect(await gateway.getSubscription('sub_missing')).toBeNull()
      onlyRequest('GET', '/v1/subscriptions/sub_missing')
    })

    it('is an error, not null, for any other failure', async () => {
      server.failNext(
        { method: 'GET', path: '/v1/subscriptions/sub_x' },
        stripeError(403, { type: 'invalid_request_error', message: 'restricted key' }),
      )

      const error = await failure(gateway.getSubscription('sub_x'))
      expect(error).toMatchObject({ reason: 'auth', status: 403 })
      expect(error.message).toBe(
        "Stripe refused the request to read the subscription: check the server's Stripe key.",
      )
    })
  })

  describe('Stripe failures', () => {
    it('retries a 500 once with the same idempotency key, then answers a clear error', async () => {
      server.failNext(
        { method: 'POST', path: '/v1/customers' },
        stripeError(500, { type: 'api_error', message: 'Something went wrong on our end.' }),
        2,
      )

      const error = await failure(
        gateway.createCustomer({ id: 1, email: 'a@example.com', name: 'A' }),
      )

      expect(error).toMatchObject({ reason: 'unavailable', status: 500 })
      expect(error.message).toBe(
        'Stripe failed to create the customer (HTTP 500). Please try again.',
      )
      const sent = server.requestsTo('POST', '/v1/customers')
      expect(sent).toHaveLength(2)
      expect(sent[0]!.idempotencyKey).toBeTruthy()
      expect(sent[1]!.idempotencyKey).toBe(sent[0]!.idempotencyKey)
    })

    it('succeeds when the retry of a 500 succeeds', async () => {
      server.failNext(
        { method: 'POST', path: '/v1/customers' },
        stripeError(500, { type: 'api_error', message: 'Something went wrong on our end.' }),
      )

      expect(await customer()).toMatch(/^cus_/)
      expect(server.requestsTo('POST', '/v1/customers')).toHaveLength(2)
    })

    it('answers a 402 as declined, without retrying', async () => {
      const customerId = await customer()
      server.failNext(
        { method: 'POST', path: '/v1/checkout/sessions' },
        stripeError(402, {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined.',
        }),
      )

      const error = await failure(
        gateway.createPackageCheckout({
          customerId,
          priceId: 'price_small',
          userId: 7,
          packageId: 'small',
          ...urls,
        }),
      )

      expect(error).toMatchObject({ reason: 'declined', status: 402, stripeCode: 'card_declined' })
      expect(error.message).toBe('Stripe declined the request to start the checkout (HTTP 402).')
      expect(server.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(1)
    })

    it('never puts the secret key in a message', async () => {
      const secretKey = 'sk_test_wrong_key_1234567890'
      const wrong = createStripeGateway({ secretKey, apiBase: server.url })
      server.intercept((request) =>
        request.authorization === `Bearer ${secretKey}`
          ? stripeError(401, {
              type: 'invalid_request_error',
              message: `Invalid API Key provided: ${secretKey}`,
            })
          : undefined,
      )

      const error = await failure(
        wrong.createCustomer({ id: 1, email: 'a@example.com', name: 'A' }),
      )

      expect(error.reason).toBe('auth')
      expect(error.message).not.toContain(secretKey)
      expect(error.message).toBe(
        "Stripe refused the request to create the customer: check the server's Stripe key.",
      )
    })

    it('gives up after the timeout (and its one retry) with a clear error', async () => {
      const impatient = createStripeGateway({
        secretKey: STRIPE_TEST_SECRET_KEY,
        apiBase: server.url,
        timeoutMs: 100,
      })
      server.failNext({ method: 'GET', path: '/v1/subscriptions/sub_slow' }, HANG, 2)

      const error = await failure(impatient.getSubscription('sub_slow'))

      expect(error.reason).toBe('unavailable')
      expect(error.message).toBe(
        'Stripe did not answer in time to read the subscription. Please try again.',
      )
      expect(server.requestsTo('GET', '/v1/subscriptions/sub_slow')).toHaveLength(2)
    })

    it('answers a clear error when Stripe cannot be reached', async () => {
      const closed = await startStripeServer()
      const url = closed.url
      await closed.close()
      const offline = createStripeGateway({ secretKey: STRIPE_TEST_SECRET_KEY, apiBase: url })

      const error = await failure(offline.getSubscription('sub_x'))

      expect(error.reason).toBe('unavailable')
      expect(error.message).toBe(
        'Stripe could not be reached to read the subscription. Please try again.',
      )
    })
  })
})
