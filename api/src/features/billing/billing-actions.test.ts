import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createTestApp,
  sessionCookieFrom,
  TEST_ORIGIN,
  type TestApp,
} from '../../testing/test-app.ts'
import { BILLING_ERRORS } from './billing-actions.ts'
import { applySubscription } from './fulfilment.ts'
import { createStripeGateway } from './stripe-gateway.ts'
import {
  STRIPE_TEST_SECRET_KEY,
  startStripeServer,
  type StripeTestServer,
} from './testing/stripe-server.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const BASIC = 'sandbox_price_basic'
const PRO = 'sandbox_price_pro'

describe.each(testDatabaseKinds())('billing actions on $name', (kind) => {
  let t: TestApp
  let stripe: StripeTestServer
  let seq = 0

  beforeAll(async () => {
    stripe = await startStripeServer()
    t = await createTestApp(kind)
    // The real Stripe gateway (real SDK) against the local Stripe server, so the requests
    // billing sends are asserted as Stripe receives them.
    t.deps.billing = createStripeGateway({ secretKey: STRIPE_TEST_SECRET_KEY, apiBase: stripe.url })
  })
  beforeEach(() => {
    stripe.prices.set(BASIC, 1200)
    stripe.prices.set(PRO, 2900)
  })
  afterAll(async () => {
    await t.close()
    await stripe.close()
  })

  async function signUp() {
    seq += 1
    const email = `buyer-${seq}-${Date.now()}@example.com`
    const res = await t.request('POST', '/api/register', {
      body: { name: 'Buyer', email, password: 'paper lantern river' },
    })
    const cookie = sessionCookieFrom(res)
    const { id } = await t.deps.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    return { cookie, userId: id, email }
  }

  async function userRow(userId: number) {
    return t.deps.db
      .selectFrom('users')
      .select(['subscription_status', 'stripe_customer_id', 'stripe_subscription_id'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
  }

  /** A user subscribed to `price` (seeded at Stripe, applied as fulfilment would). */
  async function subscriber(price: string, cancelAtPeriodEnd = false) {
    const u = await signUp()
    const customerId = await t.deps.billing.createCustomer({
      id: u.userId,
      email: u.email,
      name: 'Buyer',
    })
    await t.deps.db
      .updateTable('users')
      .set({ stripe_customer_id: customerId })
      .where('id', '=', u.userId)
      .execute()
    const start = new Date('2026-11-01T00:00:00Z')
    const sub = stripe.seedSubscription({
      id: `sub_${u.userId}`,
      customer: customerId,
      price,
      cancelAtPeriodEnd,
      currentPeriodStart: start,
      currentPeriodEnd: new Date(start.getTime() + 30 * DAY_MS),
    })
    const snapshot = await t.deps.billing.getSubscription(sub.id as string)
    if (!snapshot) throw new Error('seeded subscription not found')
    await applySubscription(t.deps.db, {
      snapshot,
      userId: u.userId,
      reason: 'subscription_created',
    })
    return { ...u, customerId, subscriptionId: snapshot.id }
  }

  function post(path: string, cookie: string | undefined, body: unknown) {
    return t.request('POST', path, { cookie, body })
  }

  async function expectError(
    res: Awaited<ReturnType<typeof post>>,
    status: number,
    message: string | RegExp,
  ) {
    expect(res.status).toBe(status)
    const body = await res.json()
    if (typeof message === 'string') expect(body.error.message).toBe(message)
    else expect(body.error.message).toMatch(message)
  }

  const lastCheckout = () => stripe.requestsTo('POST', '/v1/checkout/sessions').at(-1)?.body

  it('every action needs a signed-in user', async () => {
    const calls: [string, unknown][] = [
      ['/api/subscription/create-checkout-session', { priceId: BASIC }],
      ['/api/subscription/create-portal-session', {}],
      ['/api/subscription/calculate-proration', { currentPlanId: 'free', newPlanId: 'basic' }],
      ['/api/subscription/cancel', { cancelAtPeriodEnd: true }],
      ['/api/subscription/reactivate-with-checkout', { newPlanId: 'basic', priceId: BASIC }],
      ['/api/purchase-credits', { packageId: 'small' }],
    ]
    for (const [path, body] of calls) expect((await post(path, undefined, body)).status).toBe(401)
  })

  it('a free user’s checkout creates the Stripe customer once, stores it, and sends the return URLs', async () => {
    const { cookie, userId, email } = await signUp()
    const before = stripe.requestsTo('POST', '/v1/customers').length
    const res = await post('/api/subscription/create-checkout-session', cookie, { priceId: BASIC })
    expect(res.status).toBe(200)
    expect((await res.json()).url).toMatch(/^https:\/\/checkout\.stripe\.test\//)
    const stored = (await userRow(userId)).stripe_customer_id
    expect(stored).toMatch(/^cus_/)
    expect(stripe.customers.get(stored as string)).toMatchObject({ email })
    expect(lastCheckout()).toMatchObject({
      mode: 'subscription',
      customer: stored,
      line_items: [{ price: BASIC, quantity: '1' }],
      success_url: `${TEST_ORIGIN}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${TEST_ORIGIN}/subscription/cancel`,
      metadata: { userId: String(userId), planId: 'basic' },
    })
    // Nothing changes before payment.
    expect((await userRow(userId)).subscription_status).toBe('free')

    await post('/api/purchase-credits', cookie, { packageId: 'medium' })
    await post('/api/subscription/create-checkout-session', cookie, { priceId: PRO })
    expect(stripe.requestsTo('POST', '/v1/customers').length).toBe(before + 1)
    expect(lastCheckout()).toMatchObject({ customer: stored })
  })

  it('refuses a price that is no paid plan’s', async () => {
    const { cookie } = await signUp()
    await expectError(
      await post('/api/subscription/create-checkout-session', cookie, { priceId: 'price_nope' }),
      400,
      BILLING_ERRORS.unknownPrice,
    )
    await expectError(
      await post('/api/subscription/create-checkout-session', cookie, { priceId: '' }),
      400,
      /priceId is required/,
    )
  })

  it('follows the spec §4 transitions: same plan, downgrade, upgrade, cancelling', async () => {
    const basic = await subscriber(BASIC)
    await expectError(
      await post('/api/subscription/create-checkout-session', basic.cookie, { priceId: BASIC }),
      409,
      BILLING_ERRORS.alreadyOnPlan,
    )
    // Basic to pro is an upgrade through a checkout that replaces basic.
    const up = await post('/api/subscription/create-checkout-session', basic.cookie, {
      priceId: PRO,
    })
    expect(up.status).toBe(200)
    expect(lastCheckout()).toMatchObject({
      customer: basic.customerId,
      metadata: { planId: 'pro', replacesSubscriptionId: basic.subscriptionId },
    })

    const pro = await subscriber(PRO)
    await expectError(
      await post('/api/subscription/create-checkout-session', pro.cookie, { priceId: BASIC }),
      400,
      BILLING_ERRORS.usePortal,
    )

    const cancelling = await subscriber(BASIC, true)
    expect((await userRow(cancelling.userId)).subscription_status).toBe('basic_cancelling')
    await expectError(
      await post('/api/subscription/create-checkout-session', cancelling.cookie, {
        priceId: PRO,
      }),
      400,
      BILLING_ERRORS.useReactivate,
    )
  })

  it('cancel sets cancel at period end at Stripe and reads <plan>_cancelling', async () => {
    const u = await subscriber(PRO)
    const res = await post('/api/subscription/cancel', u.cookie, { cancelAtPeriodEnd: true })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ success: true })
    expect(stripe.requestsTo('POST', `/v1/subscriptions/${u.subscriptionId}`).at(-1)?.body).toEqual(
      {
        cancel_at_period_end: 'true',
      },
    )
    const row = await userRow(u.userId)
    expect(row).toMatchObject({
      subscription_status: 'pro_cancelling',
      stripe_subscription_id: u.subscriptionId,
    })
    const status = await (
      await t.request('GET', '/api/subscription/status', { cookie: u.cookie })
    ).json()
    expect(status.status).toBe('pro_cancelling')

    await expectError(
      await post('/api/subscription/cancel', u.cookie, { cancelAtPeriodEnd: true }),
      400,
      'Your subscription is already set to cancel at the end of the billing period.',
    )
    const free = await signUp()
    await expectError(
      await post('/api/subscription/cancel', free.cookie, { cancelAtPeriodEnd: true }),
      400,
      BILLING_ERRORS.noSubscriptionToCancel,
    )
    await expectError(
      await post('/api/subscription/cancel', u.cookie, { cancelAtPeriodEnd: false }),
      400,
      /cancelAtPeriodEnd must be true/,
    )
  })

  it('reactivates a cancelling subscription through a checkout that replaces it', async () => {
    const u = await subscriber(BASIC, true)
    const res = await post('/api/subscription/reactivate-with-checkout', u.cookie, {
      newPlanId: 'pro',
      priceId: PRO,
    })
    expect(res.status).toBe(200)
    expect((await res.json()).url).toMatch(/^https:\/\/checkout\.stripe\.test\//)
    expect(lastCheckout()).toMatchObject({
      mode: 'subscription',
      customer: u.customerId,
      line_items: [{ price: PRO }],
      metadata: { planId: 'pro', replacesSubscriptionId: u.subscriptionId },
    })
    await expectError(
      await post('/api/subscription/reactivate-with-checkout', u.cookie, {
        newPlanId: 'basic',
        priceId: PRO,
      }),
      400,
      BILLING_ERRORS.unknownPrice,
    )
    const active = await subscriber(BASIC)
    await expectError(
      await post('/api/subscription/reactivate-with-checkout', active.cookie, {
        newPlanId: 'pro',
        priceId: PRO,
      }),
      400,
      BILLING_ERRORS.notCancelling,
    )
  })

  it('opens the portal, with the update flow for a target plan', async () => {
    const free = await signUp()
    await expectError(
      await post('/api/subscription/create-portal-session', free.cookie, {}),
      400,
      BILLING_ERRORS.noSubscriptionToManage,
    )
    const u = await subscriber(PRO)
    const plain = await post('/api/subscription/create-portal-session', u.cookie, {})
    expect(plain.status).toBe(200)
    expect((await plain.json()).url).toMatch(/^https:\/\/billing\.stripe\.test\//)
    const portalRequests = () => stripe.requestsTo('POST', '/v1/billing_portal/sessions')
    expect(portalRequests().at(-1)?.body).toEqual({
      customer: u.customerId,
      return_url: `${TEST_ORIGIN}/subscription`,
    })
    const down = await post('/api/subscription/create-portal-session', u.cookie, {
      targetPlanId: 'basic',
    })
    expect(down.status).toBe(200)
    expect(portalRequests().at(-1)?.body).toMatchObject({
      customer: u.customerId,
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: {
          subscription: u.subscriptionId,
          items: [{ price: BASIC }],
        },
      },
    })
    await expectError(
      await post('/api/subscription/create-portal-session', u.cookie, { targetPlanId: 'pro' }),
      409,
      BILLING_ERRORS.alreadyOnPlan,
    )
  })

  it('calculates the proration in dollars from Stripe’s invoice preview', async () => {
    const u = await subscriber(BASIC)
    const res = await post('/api/subscription/calculate-proration', u.cookie, {
      currentPlanId: 'basic',
      newPlanId: 'pro',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ amount: 17 })
    expect(stripe.requestsTo('POST', '/v1/invoices/create_preview').at(-1)?.body).toMatchObject({
      customer: u.customerId,
      subscription: u.subscriptionId,
      subscription_details: { items: [{ price: PRO }] },
    })
    stripe.previewAmountDue = 1234
    const odd = await post('/api/subscription/calculate-proration', u.cookie, {
      currentPlanId: 'basic',
      newPlanId: 'pro',
    })
    expect(await odd.json()).toEqual({ amount: 12.34 })
    stripe.previewAmountDue = undefined

    await expectError(
      await post('/api/subscription/calculate-proration', u.cookie, {
        currentPlanId: 'pro',
        newPlanId: 'basic',
      }),
      400,
      /Your current plan is basic, not pro/,
    )
    const free = await signUp()
    const full = await post('/api/subscription/calculate-proration', free.cookie, {
      currentPlanId: 'free',
      newPlanId: 'pro',
    })
    expect(await full.json()).toEqual({ amount: 29 })
  })

  it('buys a credit package through a one-time checkout', async () => {
    const { cookie, userId } = await signUp()
    const res = await post('/api/purchase-credits', cookie, { packageId: 'medium' })
    expect(res.status).toBe(200)
    expect((await res.json()).url).toMatch(/^https:\/\/checkout\.stripe\.test\//)
    expect(lastCheckout()).toMatchObject({
      mode: 'payment',
      line_items: [{ price: 'sandbox_price_medium' }],
      metadata: { userId: String(userId), packageId: 'medium' },
      success_url: `${TEST_ORIGIN}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
    })
    await expectError(
      await post('/api/purchase-credits', cookie, { packageId: 'huge' }),
      400,
      /There is no credit package "huge"/,
    )
  })

  it('a Stripe failure is a 502 with a message a person can read', async () => {
    const { cookie } = await signUp()
    stripe.failNext(
      { method: 'POST', path: '/v1/customers' },
      { status: 400, body: { error: { type: 'invalid_request_error', message: 'nope' } } },
    )
    const res = await post('/api/purchase-credits', cookie, { packageId: 'small' })
    expect(res.status).toBe(502)
    expect((await res.json()).error.message).toMatch(
      /Stripe rejected the request to create the customer/,
    )
  })
})
