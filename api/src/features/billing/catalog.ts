import type { DB } from '@reelgraph/db'
import type { PlanId } from '@reelgraph/shared'
import type { Kysely } from 'kysely'

/**
 * The one place plans and credit packages are defined (issue 5 item 1). Seeded into the
 * `plans` and `credit_packages` tables at start-up; prices in US cents, credits per
 * billing period for plans. Plan credits reset each period (no roll-over); package credits
 * never expire (ARCHITECTURE decision 5).
 */
export const PLAN_CATALOG: readonly {
  id: PlanId
  name: string
  priceCents: number
  credits: number
  features: readonly string[]
}[] = [
  {
    id: 'free',
    name: 'Free',
    priceCents: 0,
    credits: 20,
    features: ['20 credits to start', 'Unlimited projects', 'Offline drafts and real-time sync'],
  },
  {
    id: 'basic',
    name: 'Basic',
    priceCents: 1200,
    credits: 200,
    features: [
      '200 credits every month',
      'Unlimited projects',
      'All AI providers',
      'Email support',
    ],
  },
  {
    id: 'pro',
    name: 'Pro',
    priceCents: 2900,
    credits: 600,
    features: [
      '600 credits every month',
      'Unlimited projects',
      'All AI providers',
      'Priority generation',
      'Priority support',
    ],
  },
]

export const PACKAGE_CATALOG: readonly {
  id: string
  name: string
  description: string
  priceCents: number
  credits: number
  bestValue: boolean
}[] = [
  {
    id: 'small',
    name: 'Small',
    description: '50 credits for a few videos',
    priceCents: 500,
    credits: 50,
    bestValue: false,
  },
  {
    id: 'medium',
    name: 'Medium',
    description: '150 credits for a busy month',
    priceCents: 1200,
    credits: 150,
    bestValue: true,
  },
  {
    id: 'large',
    name: 'Large',
    description: '400 credits for a whole series',
    priceCents: 2900,
    credits: 400,
    bestValue: false,
  },
]

/** The payment provider's price id of each paid plan and package, by catalogue id. */
export type PriceIds = Partial<Record<string, string>>

/**
 * Writes the catalogue into the database (insert or update by id), with the price ids of
 * the active payment provider and, when given, each plan's storage quota in bytes (the
 * settings' `STORAGE_QUOTA_*_MB`; issue 40 item 5: every process reads the quota from here).
 * Idempotent; run at every start.
 */
export async function seedCatalog(
  db: Kysely<DB>,
  priceIds: PriceIds,
  storageQuotas?: Record<PlanId, number>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [i, plan] of PLAN_CATALOG.entries()) {
      const row = {
        name: plan.name,
        price_cents: plan.priceCents,
        credits: plan.credits,
        features: JSON.stringify(plan.features),
        stripe_price_id: plan.priceCents > 0 ? (priceIds[plan.id] ?? null) : null,
        sort_order: i,
        ...(storageQuotas && { storage_quota_bytes: storageQuotas[plan.id] }),
      }
      await trx
        .insertInto('plans')
        .values({ id: plan.id, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute()
    }
    for (const [i, pkg] of PACKAGE_CATALOG.entries()) {
      const row = {
        name: pkg.name,
        description: pkg.description,
        price_cents: pkg.priceCents,
        credits: pkg.credits,
        best_value: pkg.bestValue,
        stripe_price_id: priceIds[pkg.id] ?? null,
        sort_order: i,
      }
      await trx
        .insertInto('credit_packages')
        .values({ id: pkg.id, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute()
    }
  })
}

/** The sandbox's price ids: stable fake ids, so the whole flow runs offline. */
export function sandboxPriceIds(): PriceIds {
  return Object.fromEntries(
    [...PLAN_CATALOG.filter((p) => p.priceCents > 0), ...PACKAGE_CATALOG].map((item) => [
      item.id,
      `sandbox_price_${item.id}`,
    ]),
  )
}

/** The price ids of the active payment provider: Stripe's from the environment, else the sandbox's. */
export function activePriceIds(env: {
  billingMode: 'stripe' | 'sandbox'
  stripePriceIds: PriceIds
}): PriceIds {
  return env.billingMode === 'stripe' ? env.stripePriceIds : sandboxPriceIds()
}
