import type { DB } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import fc from 'fast-check'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../lib/app-error.ts'
import { getBalance, grantCredits, refundSpend, spendCredits } from './credit-ledger.ts'

let userCounter = 0
async function newUser(db: Kysely<DB>, plan = 0, purchased = 20): Promise<number> {
  const user = await db
    .insertInto('users')
    .values({
      name: 'Ledger',
      email: `ledger${++userCounter}-${Date.now()}@example.com`,
      password_hash: 'x',
      plan_credits: plan,
      purchased_credits: purchased,
      stripe_customer_id: null,
      stripe_subscription_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const [bucket, amount] of [
    ['plan', plan],
    ['purchased', purchased],
  ] as const) {
    if (amount > 0) {
      await db
        .insertInto('credit_transactions')
        .values({
          user_id: user.id,
          amount,
          plan_amount: bucket === 'plan' ? amount : 0,
          purchased_amount: bucket === 'purchased' ? amount : 0,
          transaction_type: 'account_creation',
          description: 'start',
          idempotency_key: `start:${bucket}:${user.id}`,
        })
        .execute()
    }
  }
  return user.id
}

async function ledgerSums(db: Kysely<DB>, userId: number) {
  const row = await db
    .selectFrom('credit_transactions')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'),
      eb.fn.coalesce(eb.fn.sum<number>('plan_amount'), eb.lit(0)).as('plan'),
      eb.fn.coalesce(eb.fn.sum<number>('purchased_amount'), eb.lit(0)).as('purchased'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return { total: Number(row.total), plan: Number(row.plan), purchased: Number(row.purchased) }
}

type Op =
  | { kind: 'spend'; amount: number }
  | { kind: 'refund'; index: number }
  | { kind: 'grant'; amount: number; bucket: 'plan' | 'purchased' }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('spend' as const), amount: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('refund' as const), index: fc.nat() }),
  fc.record({
    kind: fc.constant('grant' as const),
    amount: fc.integer({ min: 1, max: 10 }),
    bucket: fc.constantFrom('plan' as const, 'purchased' as const),
  }),
)

describe.each(testDatabaseKinds())('credit ledger on $name', (kind) => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await kind.create()
  })
  afterAll(() => t.dispose())

  it('spends plan credits first, then purchased, and records the split', async () => {
    const userId = await newUser(t.db, 3, 20)
    const spend = await spendCredits(t.db, {
      userId,
      amount: 5,
      type: 'script_generation',
      description: 'test',
      idempotencyKey: `k:${userId}:1`,
    })
    expect(spend.taken).toEqual({ plan: 3, purchased: 2 })
    expect(spend.balance).toEqual({ plan: 0, purchased: 18, total: 18 })
    expect(await ledgerSums(t.db, userId)).toEqual({ total: 18, plan: 0, purchased: 18 })
  })

  it('refuses a spend beyond the balance with 402 and the amounts, taking nothing', async () => {
    const userId = await newUser(t.db, 0, 2)
    const attempt = spendCredits(t.db, {
      userId,
      amount: 3,
      type: 'image_generation',
      description: 'test',
      idempotencyKey: `k:${userId}:1`,
    })
    await expect(attempt).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS', status: 402 })
    await expect(attempt).rejects.toThrow('This needs 3 credits; you have 2.')
    expect((await getBalance(t.db, userId)).total).toBe(2)
  })

  it('charges a repeated idempotency key once', async () => {
    const userId = await newUser(t.db)
    const input = {
      userId,
      amount: 1,
      type: 'script_generation' as const,
      description: 'x',
      idempotencyKey: `dup:${userId}`,
    }
    await spendCredits(t.db, input)
    await expect(spendCredits(t.db, input)).rejects.toMatchObject({ code: 'DUPLICATE_REQUEST' })
    expect((await getBalance(t.db, userId)).total).toBe(19)
  })

  it('refunds into the buckets the spend came from, once', async () => {
    const userId = await newUser(t.db, 2, 5)
    const spend = await spendCredits(t.db, {
      userId,
      amount: 4,
      type: 'scene_generation',
      description: 'x',
      idempotencyKey: `r:${userId}`,
    })
    expect(await refundSpend(t.db, spend.transactionId, 'failed')).toEqual({
      plan: 2,
      purchased: 5,
      total: 7,
    })
    expect(await refundSpend(t.db, spend.transactionId, 'failed')).toEqual({
      plan: 2,
      purchased: 5,
      total: 7,
    })
    expect(await ledgerSums(t.db, userId)).toEqual({ total: 7, plan: 2, purchased: 5 })
  })

  it('with 20 credits, 50 concurrent spends of 1 give exactly 20 successes', async () => {
    const userId = await newUser(t.db)
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        spendCredits(t.db, {
          userId,
          amount: 1,
          type: 'script_generation',
          description: 'x',
          idempotencyKey: `c:${userId}:${i}`,
        }),
      ),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20)
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect(
      failures.every(
        (f) => f.reason instanceof AppError && f.reason.code === 'INSUFFICIENT_CREDITS',
      ),
    ).toBe(true)
    expect(await getBalance(t.db, userId)).toEqual({ plan: 0, purchased: 0, total: 0 })
    expect((await ledgerSums(t.db, userId)).total).toBe(0)
  })

  it('any interleaving of spend, refund and grant keeps balance = ledger sum, never negative', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const userId = await newUser(t.db, 0, 10)
        const spends: number[] = []
        let n = 0
        for (const op of ops) {
          n += 1
          if (op.kind === 'spend') {
            try {
              const s = await spendCredits(t.db, {
                userId,
                amount: op.amount,
                type: 'script_generation',
                description: 'p',
                idempotencyKey: `p:${userId}:${n}`,
              })
              spends.push(s.transactionId)
            } catch (err) {
              expect(err).toMatchObject({ code: 'INSUFFICIENT_CREDITS' })
            }
          } else if (op.kind === 'refund') {
            const id = spends[op.index % Math.max(spends.length, 1)]
            if (id !== undefined) await refundSpend(t.db, id, 'p')
          } else {
            await grantCredits(t.db, {
              userId,
              amount: op.amount,
              bucket: op.bucket,
              type: op.bucket === 'plan' ? 'subscription_renewal' : 'credit_purchase',
              description: 'p',
              idempotencyKey: `g:${userId}:${n}`,
            })
          }
          const balance = await getBalance(t.db, userId)
          expect(balance.plan).toBeGreaterThanOrEqual(0)
          expect(balance.purchased).toBeGreaterThanOrEqual(0)
          expect(await ledgerSums(t.db, userId)).toEqual(balance)
        }
      }),
      { numRuns: 15 },
    )
  })

  it('applies a grant once per idempotency key', async () => {
    const userId = await newUser(t.db, 0, 0)
    const input = {
      userId,
      amount: 100,
      bucket: 'plan' as const,
      type: 'subscription_renewal' as const,
      description: 'Pro renewal',
      idempotencyKey: `renewal:${userId}:2026-11`,
    }
    expect((await grantCredits(t.db, input)).applied).toBe(true)
    expect(await grantCredits(t.db, input)).toEqual({
      applied: false,
      balance: { plan: 100, purchased: 0, total: 100 },
    })
  })
})
