import type { DB } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getBalance, spendCredits } from '../credits/credit-ledger.ts'
import type { SubscriptionSnapshot } from './billing-gateway.ts'
import { sandboxPriceIds, seedCatalog } from './catalog.ts'
import { applySubscription, fulfilPackagePurchase, recordStripeEvent } from './fulfilment.ts'

let n = 0
async function newCustomer(db: Kysely<DB>) {
  n += 1
  const user = await db
    .insertInto('users')
    .values({
      name: 'Payer',
      email: `payer${n}-${Date.now()}@example.com`,
      password_hash: 'x',
      purchased_credits: 20,
      stripe_customer_id: `cus_${n}_${Date.now()}`,
      stripe_subscription_id: null,
    })
    .returning(['id', 'stripe_customer_id'])
    .executeTakeFirstOrThrow()
  await db
    .insertInto('credit_transactions')
    .values({
      user_id: user.id,
      amount: 20,
      purchased_amount: 20,
      transaction_type: 'account_creation',
      description: 'start',
      idempotency_key: `start:${user.id}`,
    })
    .execute()
  return { userId: user.id, customerId: user.stripe_customer_id ?? '' }
}

const day = 24 * 60 * 60 * 1000
function snapshot(
  customerId: string,
  overrides: Partial<SubscriptionSnapshot> = {},
): SubscriptionSnapshot {
  const start = new Date('2026-11-01T00:00:00Z')
  return {
    id: `sub_${customerId}`,
    customerId,
    status: 'active',
    priceId: 'sandbox_price_basic',
    cancelAtPeriodEnd: false,
    currentPeriodStart: start,
    currentPeriodEnd: new Date(start.getTime() + 30 * day),
    ...overrides,
  }
}

async function account(db: Kysely<DB>, userId: number) {
  const user = await db
    .selectFrom('users')
    .select(['subscription_status', 'stripe_subscription_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return { ...user, balance: await getBalance(db, userId) }
}

async function ledgerTotal(db: Kysely<DB>, userId: number) {
  const row = await db
    .selectFrom('credit_transactions')
    .select((eb) => eb.fn.sum<number>('amount').as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

describe.each(testDatabaseKinds())('billing fulfilment on $name', (kind) => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await kind.create()
    await seedCatalog(t.db, sandboxPriceIds())
  })
  afterAll(() => t.dispose())

  it('records each event id once', async () => {
    expect(await recordStripeEvent(t.db, 'evt_1', 'invoice.paid')).toBe(true)
    expect(await recordStripeEvent(t.db, 'evt_1', 'invoice.paid')).toBe(false)
  })

  it('grants a package’s credits once per checkout session, into the purchased bucket', async () => {
    const { userId } = await newCustomer(t.db)
    const input = { userId, packageId: 'medium', checkoutSessionId: `cs_${userId}` }
    expect(await fulfilPackagePurchase(t.db, input)).toBe(true)
    expect(await fulfilPackagePurchase(t.db, input)).toBe(false)
    expect((await account(t.db, userId)).balance).toEqual({ plan: 0, purchased: 170, total: 170 })
    expect(await ledgerTotal(t.db, userId)).toBe(170)
  })

  it('a subscription sets the plan and its credits once per period; renewals reset, no roll-over', async () => {
    const { userId, customerId } = await newCustomer(t.db)
    const first = snapshot(customerId)
    expect(
      await applySubscription(t.db, { snapshot: first, userId, reason: 'subscription_created' }),
    ).toBe(true)
    // The same period delivered again (checkout completed + first invoice, or a retry).
    await applySubscription(t.db, { snapshot: first, reason: 'subscription_renewal' })
    let state = await account(t.db, userId)
    expect(state.subscription_status).toBe('basic')
    expect(state.balance).toEqual({ plan: 200, purchased: 20, total: 220 })

    await spendCredits(t.db, {
      userId,
      amount: 150,
      type: 'image_generation',
      description: 'x',
      idempotencyKey: `s:${userId}`,
    })
    const next = snapshot(customerId, {
      currentPeriodStart: first.currentPeriodEnd,
      currentPeriodEnd: new Date(first.currentPeriodEnd.getTime() + 30 * day),
    })
    await applySubscription(t.db, { snapshot: next, reason: 'subscription_renewal' })
    state = await account(t.db, userId)
    expect(state.balance).toEqual({ plan: 200, purchased: 20, total: 220 })
    expect(await ledgerTotal(t.db, userId)).toBe(220)
  })

  it('cancel at period end reads <plan>_cancelling; the end returns the account to free', async () => {
    const { userId, customerId } = await newCustomer(t.db)
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { priceId: 'sandbox_price_pro' }),
      userId,
      reason: 'subscription_created',
    })
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { priceId: 'sandbox_price_pro', cancelAtPeriodEnd: true }),
      reason: 'subscription_renewal',
    })
    expect((await account(t.db, userId)).subscription_status).toBe('pro_cancelling')
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { status: 'canceled' }),
      reason: 'subscription_renewal',
    })
    const state = await account(t.db, userId)
    expect(state).toMatchObject({ subscription_status: 'free', stripe_subscription_id: null })
    expect(state.balance).toEqual({ plan: 0, purchased: 20, total: 20 })
    expect(await ledgerTotal(t.db, userId)).toBe(20)
  })

  it('a replaced subscription ending later changes nothing', async () => {
    const { userId, customerId } = await newCustomer(t.db)
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { id: 'sub_old' + userId }),
      userId,
      reason: 'subscription_created',
    })
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { id: 'sub_new' + userId, priceId: 'sandbox_price_pro' }),
      userId,
      reason: 'subscription_created',
    })
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { id: 'sub_old' + userId, status: 'canceled' }),
      reason: 'subscription_renewal',
    })
    const state = await account(t.db, userId)
    expect(state).toMatchObject({
      subscription_status: 'pro',
      stripe_subscription_id: 'sub_new' + userId,
    })
    expect(state.balance.plan).toBe(600)
  })

  it('a past_due period keeps the plan but grants no credits until its invoice is paid', async () => {
    const { userId, customerId } = await newCustomer(t.db)
    const first = snapshot(customerId)
    await applySubscription(t.db, { snapshot: first, userId, reason: 'subscription_created' })
    await spendCredits(t.db, {
      userId,
      amount: 100,
      type: 'image_generation',
      description: 'x',
      idempotencyKey: `pd:${userId}`,
    })
    const next = {
      currentPeriodStart: first.currentPeriodEnd,
      currentPeriodEnd: new Date(first.currentPeriodEnd.getTime() + 30 * day),
    }
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, { ...next, status: 'past_due' }),
      reason: 'subscription_renewal',
    })
    let state = await account(t.db, userId)
    expect(state.subscription_status).toBe('basic')
    expect(state.balance.plan).toBe(100)
    await applySubscription(t.db, {
      snapshot: snapshot(customerId, next),
      reason: 'subscription_renewal',
    })
    state = await account(t.db, userId)
    expect(state.balance.plan).toBe(200)
  })
})
