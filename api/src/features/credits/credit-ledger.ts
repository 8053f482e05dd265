import type { CreditTransactionType, DB } from '@reelgraph/db'
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely'
import { AppError } from '../../lib/app-error.ts'

/**
 * The credit ledger (issue 4 item 1; ARCHITECTURE decisions 4 and 5).
 *
 * A user's balance lives in two buckets on `users`: plan credits (reset each billing cycle)
 * and purchased credits (never expire); the API's `credits` is their sum. Every change is
 * one transaction that updates the buckets and appends a `credit_transactions` row saying
 * how much moved in each bucket, so a user's rows always sum to their balance. Spends take
 * plan credits first and never go below zero; idempotency keys are unique, so a request
 * repeated with the same key is applied once.
 */

/** The buckets a change moved credits in (negative for a spend). */
export interface BucketAmounts {
  plan: number
  purchased: number
}

/** A user's balance by bucket; `total` is what the API calls `credits`. */
export interface Balance extends BucketAmounts {
  total: number
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505'
}

function balanceOf(row: { plan_credits: number; purchased_credits: number }): Balance {
  return {
    plan: row.plan_credits,
    purchased: row.purchased_credits,
    total: row.plan_credits + row.purchased_credits,
  }
}

/**
 * Appends a ledger row unless a row with its idempotency key exists.
 * @returns whether the row was added (false: the key was used before).
 */
async function appendOnce(
  trx: Transaction<DB>,
  row: Insertable<DB['credit_transactions']>,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('credit_transactions')
    .values(row)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

/**
 * The user's balance.
 * @throws AppError 404 when there is no such user.
 */
export async function getBalance(db: Kysely<DB>, userId: number): Promise<Balance> {
  const row = await db
    .selectFrom('users')
    .select(['plan_credits', 'purchased_credits'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new AppError('NOT_FOUND', 'This account does not exist.')
  return balanceOf(row)
}

/** A spend: who, how much (credits, > 0), why, and its idempotency key. */
export interface SpendInput {
  userId: number
  amount: number
  type: CreditTransactionType
  description: string
  idempotencyKey: string
}

/** What a spend did. */
export interface Spend {
  transactionId: number
  taken: BucketAmounts
  balance: Balance
}

/**
 * Takes `amount` credits, plan credits first, in one transaction (the user's row is locked,
 * and the update is conditional on enough credits, so concurrent spends never overdraw).
 * @throws AppError 402 INSUFFICIENT_CREDITS ("This needs N credits; you have M.");
 *   409 DUPLICATE_REQUEST when the idempotency key was used before (nothing is taken).
 */
export async function spendCredits(db: Kysely<DB>, input: SpendInput): Promise<Spend> {
  try {
    return await db.transaction().execute((trx) => spendCreditsIn(trx, input))
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError(
        'DUPLICATE_REQUEST',
        'This request was already received and charged once; it is not charged again.',
      )
    }
    throw err
  }
}

/**
 * {@link spendCredits} inside the caller's transaction (a job is charged in the transaction
 * that enqueues it, issue 12). The user's row stays locked until `trx` ends.
 * @throws AppError 402 INSUFFICIENT_CREDITS; a unique violation when the idempotency key was
 *   used before (the transaction is then aborted).
 */
export async function spendCreditsIn(trx: Transaction<DB>, input: SpendInput): Promise<Spend> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) {
    throw new Error(`A spend must be a positive whole number of credits, got ${input.amount}`)
  }
  const user = await trx
    .selectFrom('users')
    .select(['plan_credits', 'purchased_credits'])
    .where('id', '=', input.userId)
    .forUpdate()
    .executeTakeFirst()
  if (!user) throw new AppError('NOT_FOUND', 'This account does not exist.')
  const have = user.plan_credits + user.purchased_credits
  if (have < input.amount) {
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `This needs ${input.amount} ${input.amount === 1 ? 'credit' : 'credits'}; you have ${have}. Buy a credit package or upgrade your plan on the Subscription page.`,
    )
  }
  const plan = Math.min(user.plan_credits, input.amount)
  const purchased = input.amount - plan
  const updated = await trx
    .updateTable('users')
    .set({
      plan_credits: sql`plan_credits - ${plan}`,
      purchased_credits: sql`purchased_credits - ${purchased}`,
    })
    .where('id', '=', input.userId)
    .where('plan_credits', '>=', plan)
    .where('purchased_credits', '>=', purchased)
    .returning(['plan_credits', 'purchased_credits'])
    .executeTakeFirst()
  if (!updated) throw new Error('The balance changed during a locked spend')
  const row = await trx
    .insertInto('credit_transactions')
    .values({
      user_id: input.userId,
      amount: -input.amount,
      plan_amount: -plan,
      purchased_amount: -purchased,
      transaction_type: input.type,
      description: input.description,
      idempotency_key: input.idempotencyKey,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { transactionId: row.id, taken: { plan, purchased }, balance: balanceOf(updated) }
}

/**
 * Gives back a spend's credits to the buckets they came from, with a `generation_refund`
 * row keyed `refund:<the spend's key>`; refunding the same spend twice does nothing.
 * @returns the balance after the refund.
 */
export async function refundSpend(
  db: Kysely<DB>,
  spendTransactionId: number,
  description: string,
): Promise<Balance> {
  return db.transaction().execute((trx) => refundSpendIn(trx, spendTransactionId, description))
}

/**
 * {@link refundSpend} inside the caller's transaction (a job's refund commits with its
 * failed or cancelled state, issue 12).
 * @param credits how much of the spend to give back (default all of it; a `make-video` chain
 *   that failed half-way gives back the steps it did not deliver, issue 13 item 6): purchased
 *   credits first, since they never expire, then plan credits. Clamped to the spend.
 * @returns the balance after the refund (unchanged when the spend was refunded before).
 */
export async function refundSpendIn(
  trx: Transaction<DB>,
  spendTransactionId: number,
  description: string,
  credits?: number,
): Promise<Balance> {
  const spend = await trx
    .selectFrom('credit_transactions')
    .selectAll()
    .where('id', '=', spendTransactionId)
    .executeTakeFirstOrThrow()
  const key = `refund:${spend.idempotency_key ?? spend.id}`
  const spent = { plan: -spend.plan_amount, purchased: -spend.purchased_amount }
  const total = spent.plan + spent.purchased
  const back = Math.max(0, Math.min(total, credits ?? total))
  const purchasedBack = Math.min(spent.purchased, back)
  const planBack = back - purchasedBack
  const inserted = await appendOnce(trx, {
    user_id: spend.user_id,
    amount: back,
    plan_amount: planBack,
    purchased_amount: purchasedBack,
    transaction_type: 'generation_refund',
    description,
    idempotency_key: key,
  })
  const query = inserted
    ? trx
        .updateTable('users')
        .set({
          plan_credits: sql`plan_credits + ${planBack}`,
          purchased_credits: sql`purchased_credits + ${purchasedBack}`,
        })
        .where('id', '=', spend.user_id)
        .returning(['plan_credits', 'purchased_credits'])
    : trx
        .selectFrom('users')
        .select(['plan_credits', 'purchased_credits'])
        .where('id', '=', spend.user_id)
  return balanceOf(await query.executeTakeFirstOrThrow())
}

/** A grant: credits added to one bucket (plan renewals, packages, admin adjustments). */
export interface GrantInput {
  userId: number
  amount: number
  bucket: 'plan' | 'purchased'
  type: CreditTransactionType
  description: string
  idempotencyKey: string
}

/**
 * Adds credits to a bucket with a ledger row, once per idempotency key.
 * @returns the balance and whether this call applied the grant (false: the key was used).
 */
export async function grantCredits(
  db: Kysely<DB>,
  input: GrantInput,
): Promise<{ applied: boolean; balance: Balance }> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) {
    throw new Error(`A grant must be a positive whole number of credits, got ${input.amount}`)
  }
  return db.transaction().execute(async (trx) => {
    const inserted = await appendOnce(trx, {
      user_id: input.userId,
      amount: input.amount,
      plan_amount: input.bucket === 'plan' ? input.amount : 0,
      purchased_amount: input.bucket === 'purchased' ? input.amount : 0,
      transaction_type: input.type,
      description: input.description,
      idempotency_key: input.idempotencyKey,
    })
    if (!inserted) return { applied: false, balance: await getBalance(trx, input.userId) }
    const column = input.bucket === 'plan' ? 'plan_credits' : 'purchased_credits'
    const row = await trx
      .updateTable('users')
      .set({ [column]: sql`${sql.ref(column)} + ${input.amount}` })
      .where('id', '=', input.userId)
      .returning(['plan_credits', 'purchased_credits'])
      .executeTakeFirstOrThrow()
    return { applied: true, balance: balanceOf(row) }
  })
}

/** A reset of the plan bucket to `amount` (a new billing period: no roll-over, decision 5). */
export interface PlanResetInput {
  userId: number
  amount: number
  type: CreditTransactionType
  description: string
  idempotencyKey: string
}

/**
 * Sets the plan bucket to `amount` (>= 0) with a ledger row for the difference, once per
 * idempotency key; purchased credits are untouched.
 * @returns the balance and whether this call applied the reset.
 */
export async function resetPlanCredits(
  db: Kysely<DB>,
  input: PlanResetInput,
): Promise<{ applied: boolean; balance: Balance }> {
  if (!Number.isInteger(input.amount) || input.amount < 0) {
    throw new Error(`A plan reset must be a whole number of credits >= 0, got ${input.amount}`)
  }
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['plan_credits', 'purchased_credits'])
      .where('id', '=', input.userId)
      .forUpdate()
      .executeTakeFirstOrThrow()
    const delta = input.amount - user.plan_credits
    const inserted = await appendOnce(trx, {
      user_id: input.userId,
      amount: delta,
      plan_amount: delta,
      purchased_amount: 0,
      transaction_type: input.type,
      description: input.description,
      idempotency_key: input.idempotencyKey,
    })
    if (!inserted) return { applied: false, balance: balanceOf(user) }
    const row = await trx
      .updateTable('users')
      .set({ plan_credits: input.amount })
      .where('id', '=', input.userId)
      .returning(['plan_credits', 'purchased_credits'])
      .executeTakeFirstOrThrow()
    return { applied: true, balance: balanceOf(row) }
  })
}
