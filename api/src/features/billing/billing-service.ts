import type { DB } from '@reelgraph/db'
import type { CreditPackage, Plan, SubscriptionStatus } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { AppError } from '../../lib/app-error.ts'

/** The plans in their order (spec §9: free 0, basic 1, pro 2). Prices in dollars. */
export async function listPlans(db: Kysely<DB>): Promise<Plan[]> {
  const rows = await db.selectFrom('plans').selectAll().orderBy('sort_order').execute()
  return rows.map((r) => ({
    id: r.id as Plan['id'],
    name: r.name,
    price: r.price_cents / 100,
    ...(r.stripe_price_id ? { priceId: r.stripe_price_id } : {}),
    credits: r.credits,
    features: r.features,
  }))
}

/** The credit packages in their order. Prices in dollars. */
export async function listCreditPackages(db: Kysely<DB>): Promise<CreditPackage[]> {
  const rows = await db.selectFrom('credit_packages').selectAll().orderBy('sort_order').execute()
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    price: r.price_cents / 100,
    credits: r.credits,
    bestValue: r.best_value,
  }))
}

/**
 * The user's subscription status (spec §3 Subscription status).
 * @throws AppError 404 when the user does not exist.
 */
export async function getSubscriptionStatus(
  db: Kysely<DB>,
  userId: number,
): Promise<SubscriptionStatus> {
  const row = await db
    .selectFrom('users')
    .select(['subscription_status', 'stripe_subscription_id', 'subscription_period_end'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new AppError('NOT_FOUND', 'This account does not exist.')
  return {
    status: row.subscription_status,
    subscriptionId: row.stripe_subscription_id,
    periodEnd: row.subscription_period_end?.toISOString() ?? null,
  }
}
