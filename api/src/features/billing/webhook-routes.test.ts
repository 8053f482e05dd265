import { testDatabaseKinds } from '@reelgraph/db/testing'
import pino from 'pino'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'
import { getBalance } from '../credits/credit-ledger.ts'
import { createStripeGateway } from './stripe-gateway.ts'
import {
  STRIPE_TEST_SECRET_KEY,
  type SeedSubscription,
  startStripeServer,
  type StripeTestServer,
} from './testing/stripe-server.ts'

const SECRET = 'whsec_reelgraph_test'
const DAY_MS = 24 * 60 * 60 * 1000
/** Stripe's default signature tolerance is 300 s: this is well outside it. */
const STALE_S = 600

let eventSeq = 0
/** A Stripe event as Stripe sends it (snapshot payload). */
function stripeEvent(type: string, object: Record<string, unknown>, id?: string) {
  eventSeq += 1
  return {
    id: id ?? `evt_test_${Date.now()}_${eventSeq}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  }
}

function packageCheckout(
  sessionId: string,
  userId: number,
  packageId: string,
  type = 'checkout.session.completed',
  paymentStatus = 'paid',
) {
  return stripeEvent(type, {
    id: sessionId,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: paymentStatus,
    status: 'complete',
    subscription: null,
    metadata: { userId: String(userId), packageId },
  })
}

function subscriptionCheckout(
  sessionId: string,
  userId: number,
  subscriptionId: string,
  planId: string,
  replacesSubscriptionId?: string,
) {
  return stripeEvent('checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    payment_status: 'paid',
    status: 'complete',
    subscription: subscriptionId,
    metadata: {
      userId: String(userId),
      planId,
      ...(replacesSubscriptionId ? { replacesSubscriptionId } : {}),
    },
  })
}

/** An invoice event; `legacy` puts the subscription where API versions before 2025-03-31 did. */
function invoiceEvent(type: string, subscriptionId: string, customer: string, legacy = false) {
  return stripeEvent(type, {
    id: `in_${eventSeq}`,
    object: 'invoice',
    customer,
    ...(legacy
      ? { subscription: subscriptionId }
      : {
          parent: {
            type: 'subscription_details',
            subscription_details: { subscription: subscriptionId, metadata: {} },
          },
        }),
  })
}

function subscriptionEvent(type: string, subscriptionId: string) {
  return stripeEvent(type, { id: subscriptionId, object: 'subscription' })
}

type StripeEventBody = ReturnType<typeof stripeEvent>

describe.each(testDatabaseKinds())('Stripe webhook on $name', (kind) => {
  let t: TestApp
  let stripe: StripeTestServer
  let userSeq = 0

  beforeAll(async () => {
    stripe = await startStripeServer()
    t = await createTestApp(kind, undefined, { STRIPE_WEBHOOK_SECRET: SECRET })
    // The real Stripe gateway (real SDK) against the local Stripe server: webhook handling
    // re-reads subscriptions through it, exactly as in production.
    t.deps.billing = createStripeGateway({ secretKey: STRIPE_TEST_SECRET_KEY, apiBase: stripe.url })
  })
  afterAll(async () => {
    await t.close()
    await stripe.close()
  })

  /** A registered user with a Stripe customer id. */
  async function newCustomer() {
    userSeq += 1
    const email = `hook-${userSeq}-${Date.now()}@example.com`
    const res = await t.request('POST', '/api/register', {
      body: { name: 'Hook', email, password: 'paper lantern river' },
    })
    expect(sessionCookieFrom(res)).toBeDefined()
    const customerId = `cus_hook_${userSeq}_${Date.now()}`
    const user = await t.deps.db
      .updateTable('users')
      .set({ stripe_customer_id: customerId })
      .where('email', '=', email)
      .returning('id')
      .executeTakeFirstOrThrow()
    return { userId: user.id, customerId, email }
  }

  /** Sends a signed delivery the way Stripe does (its own Origin, no session). */
  function deliver(
    event: StripeEventBody | string,
    options: { secret?: string; timestamp?: number; tamper?: (raw: string) => string } = {},
  ) {
    const payload = typeof event === 'string' ? event : JSON.stringify(event)
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    })
    return t.request('POST', '/api/stripe/webhook', {
      rawBody: options.tamper ? options.tamper(payload) : payload,
      headers: {
        origin: 'https://stripe.com',
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': header,
      },
    })
  }

  async function account(userId: number) {
    const row = await t.deps.db
      .selectFrom('users')
      .select(['subscription_status', 'stripe_subscription_id', 'subscription_period_end'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const ledger = await t.deps.db
      .selectFrom('credit_transactions')
      .select(['transaction_type', 'amount'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()
    return { ...row, balance: await getBalance(t.deps.db, userId), ledger }
  }

  async function recorded(eventId: string) {
    return t.deps.db
      .selectFrom('stripe_events')
      .select('id')
      .where('id', '=', eventId)
      .executeTakeFirst()
  }

  function seed(customer: string, overrides: Partial<SeedSubscription> & { id: string }) {
    const start = new Date('2026-11-01T00:00:00Z')
    return stripe.seedSubscription({
      customer,
      price: 'sandbox_price_basic',
      currentPeriodStart: start,
      currentPeriodEnd: new Date(start.getTime() + 30 * DAY_MS),
      ...overrides,
    })
  }

  it('applies a validly signed event, even from a foreign Origin and without a session', async () => {
    const { userId } = await newCustomer()
    const event = packageCheckout(`cs_valid_${userId}`, userId, 'medium')
    const res = await deliver(event)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true })
    expect((await account(userId)).balance).toEqual({ plan: 0, purchased: 170, total: 170 })
    expect(await recorded(event.id)).toBeDefined()
  })

  it('refuses a tampered body, a wrong secret and a stale timestamp with 400, changing nothing', async () => {
    const { userId } = await newCustomer()
    const before = await account(userId)
    const tampered = packageCheckout(`cs_tamper_${userId}`, userId, 'small')
    const attempts = [
      await deliver(tampered, { tamper: (raw) => raw.replace('"small"', '"large"') }),
      await deliver(packageCheckout(`cs_secret_${userId}`, userId, 'large'), {
        secret: 'whsec_wrong',
      }),
      await deliver(packageCheckout(`cs_stale_${userId}`, userId, 'large'), {
        timestamp: Math.floor(Date.now() / 1000) - STALE_S,
      }),
    ]
    for (const res of attempts) {
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.error.code).toBe('BAD_REQUEST')
      expect(body.error.message).toMatch(/signature/i)
    }
    const missing = await t.request('POST', '/api/stripe/webhook', {
      rawBody: JSON.stringify(tampered),
      headers: { 'content-type': 'application/json' },
    })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error.message).toMatch(/Stripe-Signature header is missing/)
    expect(await account(userId)).toEqual(before)
    expect(await recorded(tampered.id)).toBeUndefined()
  })

  it('answers 503 when STRIPE_WEBHOOK_SECRET is not set', async () => {
    const { userId } = await newCustomer()
    const env = t.deps.env
    const saved = env.STRIPE_WEBHOOK_SECRET
    env.STRIPE_WEBHOOK_SECRET = undefined
    try {
      const res = await deliver(packageCheckout(`cs_nosecret_${userId}`, userId, 'small'))
      expect(res.status).toBe(503)
      expect((await res.json()).error.message).toMatch(/STRIPE_WEBHOOK_SECRET/)
    } finally {
      env.STRIPE_WEBHOOK_SECRET = saved
    }
    expect((await account(userId)).balance.purchased).toBe(20)
  })

  it('a package paid by a delayed method is credited when its payment succeeds, once', async () => {
    const { userId } = await newCustomer()
    const session = `cs_delayed_${userId}`
    const unpaid = await deliver(
      packageCheckout(session, userId, 'small', 'checkout.session.completed', 'unpaid'),
    )
    expect(await unpaid.json()).toEqual({ received: true, ignored: true })
    expect((await account(userId)).balance.purchased).toBe(20)
    const paid = packageCheckout(
      session,
      userId,
      'small',
      'checkout.session.async_payment_succeeded',
    )
    expect((await deliver(paid)).status).toBe(200)
    expect((await deliver(packageCheckout(session, userId, 'small'))).status).toBe(200)
    expect((await account(userId)).balance.purchased).toBe(70)
  })

  it('a failed payment email that cannot be sent does not fail the event', async () => {
    const c = await newCustomer()
    const mailer = t.deps.mailer
    t.deps.mailer = { send: () => Promise.reject(new Error('SMTP down')) }
    try {
      const res = await deliver(invoiceEvent('invoice.payment_failed', 'sub_x', c.customerId))
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ received: true })
    } finally {
      t.deps.mailer = mailer
    }
  })

  it('ignores event types billing does not handle', async () => {
    const res = await deliver(stripeEvent('customer.created', { id: 'cus_x', object: 'customer' }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true, ignored: true })
  })

  /**
   * A customer's whole life: a package, basic (checkout and first invoice), a renewal, a
   * cancellation, a reactivation to pro replacing basic, basic's end, a failed payment.
   * `ids` names the objects; the provider's final state is seeded by `finalState`.
   */
  function lifeOf(c: { userId: number; customerId: string }) {
    const subA = `sub_a_${c.userId}`
    const subB = `sub_b_${c.userId}`
    const p1 = new Date('2026-11-01T00:00:00Z')
    const p2 = new Date(p1.getTime() + 30 * DAY_MS)
    const p3 = new Date(p2.getTime() + 30 * DAY_MS)
    const q1 = new Date(p2.getTime() + 10 * DAY_MS)
    const q1End = new Date(q1.getTime() + 30 * DAY_MS)
    const steps: { provider: () => void; events: StripeEventBody[] }[] = [
      {
        provider: () => undefined,
        events: [packageCheckout(`cs_pkg_${c.userId}`, c.userId, 'medium')],
      },
      {
        provider: () =>
          seed(c.customerId, { id: subA, currentPeriodStart: p1, currentPeriodEnd: p2 }),
        events: [
          subscriptionCheckout(`cs_a_${c.userId}`, c.userId, subA, 'basic'),
          invoiceEvent('invoice.paid', subA, c.customerId),
        ],
      },
      {
        // Renewal: the period moves on (the period read from the subscription, old style).
        provider: () =>
          seed(c.customerId, {
            id: subA,
            currentPeriodStart: p2,
            currentPeriodEnd: p3,
            periodOn: 'subscription',
          }),
        events: [
          subscriptionEvent('customer.subscription.updated', subA),
          invoiceEvent('invoice.paid', subA, c.customerId, true),
        ],
      },
      {
        provider: () =>
          seed(c.customerId, {
            id: subA,
            currentPeriodStart: p2,
            currentPeriodEnd: p3,
            cancelAtPeriodEnd: true,
          }),
        events: [subscriptionEvent('customer.subscription.updated', subA)],
      },
      {
        provider: () =>
          seed(c.customerId, {
            id: subB,
            price: 'sandbox_price_pro',
            currentPeriodStart: q1,
            currentPeriodEnd: q1End,
          }),
        events: [
          subscriptionCheckout(`cs_b_${c.userId}`, c.userId, subB, 'pro', subA),
          invoiceEvent('invoice.paid', subB, c.customerId),
        ],
      },
      {
        provider: () =>
          seed(c.customerId, {
            id: subA,
            status: 'canceled',
            currentPeriodStart: p2,
            currentPeriodEnd: p3,
            cancelAtPeriodEnd: true,
          }),
        events: [subscriptionEvent('customer.subscription.deleted', subA)],
      },
      {
        provider: () => undefined,
        events: [invoiceEvent('invoice.payment_failed', subB, c.customerId)],
      },
    ]
    return { subB, q1End, steps }
  }

  async function expectFinalState(userId: number, subB: string, periodEnd: Date) {
    const state = await account(userId)
    expect(state).toMatchObject({
      subscription_status: 'pro',
      stripe_subscription_id: subB,
      subscription_period_end: periodEnd,
    })
    // 20 at sign-up + the medium package's 150 once; plan credits are pro's 600, no roll-over.
    expect(state.balance).toEqual({ plan: 600, purchased: 170, total: 770 })
    const types = state.ledger.map((l) => l.transaction_type)
    expect(types.filter((x) => x === 'credit_purchase')).toHaveLength(1)
    return state
  }

  it('delivered twice each, in order: credits granted once, ends on the latest subscription', async () => {
    const c = await newCustomer()
    const { subB, q1End, steps } = lifeOf(c)
    for (const step of steps) {
      step.provider()
      for (const event of step.events) {
        const first = await deliver(event)
        expect(first.status).toBe(200)
        expect(await first.json()).toEqual({ received: true })
        const again = await deliver(event)
        expect(again.status).toBe(200)
        expect(await again.json()).toEqual({ received: true, duplicate: true })
      }
    }
    const state = await expectFinalState(c.userId, subB, q1End)
    expect(state.ledger.map((l) => l.transaction_type)).toEqual([
      'account_creation',
      'credit_purchase',
      'subscription_created',
      'subscription_renewal',
      'subscription_created',
    ])
    const mails = (await t.emailsTo(c.email)).filter((m) =>
      /Subject: Your Reelgraph payment/.test(m),
    )
    expect(mails).toHaveLength(1)
    expect(mails[0]).toContain('/subscription')
  })

  it('the whole sequence delivered in reverse order ends in the same state', async () => {
    const c = await newCustomer()
    const { subB, q1End, steps } = lifeOf(c)
    for (const step of steps) step.provider()
    const events = steps.flatMap((s) => s.events).reverse()
    for (const event of events) {
      expect((await deliver(event)).status).toBe(200)
      expect(await (await deliver(event)).json()).toMatchObject({ duplicate: true })
    }
    const state = await expectFinalState(c.userId, subB, q1End)
    // Basic's events find it ended: only pro's period grants plan credits, once (as a
    // renewal, since its invoice now arrives before its checkout).
    const grants = state.ledger.filter((l) => l.transaction_type.startsWith('subscription_'))
    expect(grants.map((l) => l.amount)).toEqual([600])
  })

  it('a replaced subscription still cancelling does not take the account back', async () => {
    const c = await newCustomer()
    const subA = `sub_old_${c.userId}`
    const subB = `sub_new_${c.userId}`
    seed(c.customerId, { id: subA, cancelAtPeriodEnd: true })
    seed(c.customerId, {
      id: subB,
      price: 'sandbox_price_pro',
      currentPeriodStart: new Date('2026-11-10T00:00:00Z'),
      currentPeriodEnd: new Date('2026-12-10T00:00:00Z'),
    })
    for (const event of [
      subscriptionCheckout(`cs_new_${c.userId}`, c.userId, subB, 'pro', subA),
      subscriptionEvent('customer.subscription.updated', subA),
      invoiceEvent('invoice.paid', subA, c.customerId),
      subscriptionCheckout(`cs_old_${c.userId}`, c.userId, subA, 'basic'),
    ]) {
      expect((await deliver(event)).status).toBe(200)
    }
    expect(await account(c.userId)).toMatchObject({
      subscription_status: 'pro',
      stripe_subscription_id: subB,
    })
  })

  it('an upgrade checkout sets the replaced subscription to cancel at period end', async () => {
    const c = await newCustomer()
    const subA = `sub_up_a_${c.userId}`
    const subB = `sub_up_b_${c.userId}`
    seed(c.customerId, { id: subA })
    expect(
      (await deliver(subscriptionCheckout(`cs_up_a_${c.userId}`, c.userId, subA, 'basic'))).status,
    ).toBe(200)
    seed(c.customerId, {
      id: subB,
      price: 'sandbox_price_pro',
      currentPeriodStart: new Date('2026-11-10T00:00:00Z'),
      currentPeriodEnd: new Date('2026-12-10T00:00:00Z'),
    })
    const res = await deliver(
      subscriptionCheckout(`cs_up_b_${c.userId}`, c.userId, subB, 'pro', subA),
    )
    expect(res.status).toBe(200)
    expect(stripe.subscriptions.get(subA)?.cancel_at_period_end).toBe(true)
    expect(await account(c.userId)).toMatchObject({
      subscription_status: 'pro',
      stripe_subscription_id: subB,
    })
  })

  it('a subscription Stripe no longer knows, deleted, returns the account to free', async () => {
    const c = await newCustomer()
    const sub = `sub_gone_${c.userId}`
    seed(c.customerId, { id: sub })
    await deliver(subscriptionCheckout(`cs_gone_${c.userId}`, c.userId, sub, 'basic'))
    expect((await account(c.userId)).subscription_status).toBe('basic')
    stripe.subscriptions.delete(sub)
    expect((await deliver(subscriptionEvent('customer.subscription.deleted', sub))).status).toBe(
      200,
    )
    const state = await account(c.userId)
    expect(state).toMatchObject({ subscription_status: 'free', stripe_subscription_id: null })
    expect(state.balance.plan).toBe(0)
  })

  it('a failure answers 500 and forgets the event, so Stripe’s retry is applied', async () => {
    const c = await newCustomer()
    const sub = `sub_retry_${c.userId}`
    seed(c.customerId, { id: sub })
    let failing = true
    stripe.intercept((request) =>
      failing && request.path === `/v1/subscriptions/${sub}`
        ? { status: 500, body: { error: { type: 'api_error', message: 'Stripe is down' } } }
        : undefined,
    )
    const event = subscriptionCheckout(`cs_retry_${c.userId}`, c.userId, sub, 'basic')
    const res = await deliver(event)
    expect(res.status).toBe(500)
    expect(await recorded(event.id)).toBeUndefined()
    expect((await account(c.userId)).subscription_status).toBe('free')
    failing = false
    const retry = await deliver(event)
    expect(retry.status).toBe(200)
    expect(await retry.json()).toEqual({ received: true })
    expect((await account(c.userId)).subscription_status).toBe('basic')
  })

  it('an event for an account that no longer exists is acknowledged and logged once, not 500', async () => {
    const gone = await newCustomer()
    const replaced = `sub_gone_old_${gone.userId}`
    const sub = `sub_gone_new_${gone.userId}`
    seed(gone.customerId, { id: replaced })
    seed(gone.customerId, { id: sub })
    await t.deps.db.deleteFrom('users').where('id', '=', gone.userId).execute()
    const lines: { level: number; msg: string; userId?: number }[] = []
    const logger = t.deps.logger
    t.deps.logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line)) },
    )
    stripe.requests.length = 0
    try {
      const purchase = packageCheckout(`cs_gone_pkg_${gone.userId}`, gone.userId, 'medium')
      const subscription = subscriptionCheckout(
        `cs_gone_sub_${gone.userId}`,
        gone.userId,
        sub,
        'basic',
        replaced,
      )
      for (const event of [purchase, subscription]) {
        const res = await deliver(event)
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual({ received: true, ignored: true })
        expect(await recorded(event.id)).toBeDefined()
        // Stripe's redelivery is a duplicate: acknowledged again, not warned about again.
        expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: true })
      }
      const warnings = lines.filter((l) => l.level === 40)
      expect(warnings.map((l) => [l.msg, l.userId])).toEqual([
        ['webhook event for an account that no longer exists', gone.userId],
        ['webhook event for an account that no longer exists', gone.userId],
      ])
      expect(lines.filter((l) => l.level >= 50)).toEqual([])
      // Nothing was asked of Stripe for the gone account (the replaced subscription stays).
      expect(stripe.requests).toEqual([])
      const ledger = await t.deps.db
        .selectFrom('credit_transactions')
        .select('id')
        .where('user_id', '=', gone.userId)
        .execute()
      expect(ledger).toEqual([])
    } finally {
      t.deps.logger = logger
    }
  })
})
