import { randomBytes } from 'node:crypto'
import type { DB } from '@reelgraph/db'
import type { Kysely, Selectable } from 'kysely'
import type { BillingGateway, SubscriptionSnapshot } from './billing-gateway.ts'
import { PACKAGE_CATALOG, PLAN_CATALOG } from './catalog.ts'

/**
 * The offline billing sandbox (issue 5 item 4; ARCHITECTURE "Billing"): a BillingGateway
 * kept in two tables instead of Stripe. Its checkout and portal URLs lead to the local pages
 * of `sandbox-routes.ts`, whose Pay and portal controls call `handleBillingEvent`, the same
 * fulfilment the Stripe webhook runs.
 */

/** Where the sandbox pages live, under the app's URL. */
export const SANDBOX_BASE_PATH = '/api/billing-sandbox'

/** The checkout page of a sandbox session. */
export function sandboxCheckoutPath(sessionId: string): string {
  return `${SANDBOX_BASE_PATH}/checkout/${encodeURIComponent(sessionId)}`
}

/** An unguessable id with the provider-style prefix (`sandbox_cs_`, `sandbox_sub_`...). */
export function sandboxId(prefix: 'cus' | 'cs' | 'sub'): string {
  return `sandbox_${prefix}_${randomBytes(12).toString('hex')}`
}

/** A month later, in UTC (the sandbox's billing period). */
export function addOneMonth(date: Date): Date {
  const next = new Date(date.getTime())
  next.setUTCMonth(next.getUTCMonth() + 1)
  return next
}

/** What a sandbox price id stands for: a plan or a package of the catalogue, with its price. */
export function sandboxPriceItem(
  priceId: string,
): { kind: 'plan' | 'package'; id: string; name: string; priceCents: number } | undefined {
  const plan = PLAN_CATALOG.find((p) => p.priceCents > 0 && `sandbox_price_${p.id}` === priceId)
  if (plan) return { kind: 'plan', id: plan.id, name: plan.name, priceCents: plan.priceCents }
  const pkg = PACKAGE_CATALOG.find((p) => `sandbox_price_${p.id}` === priceId)
  if (pkg) return { kind: 'package', id: pkg.id, name: pkg.name, priceCents: pkg.priceCents }
  return undefined
}

/** A sandbox subscription row as the provider-neutral snapshot. */
export function toSnapshot(row: Selectable<DB['sandbox_subscriptions']>): SubscriptionSnapshot {
  return {
    id: row.id,
    customerId: row.customer_id,
    status: row.status,
    priceId: row.price_id,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    currentPeriodStart: row.current_period_start,
    currentPeriodEnd: row.current_period_end,
  }
}

/**
 * What changing a subscription from `fromCents` to `toCents` a month costs now: the price
 * difference times the part of the period left, in cents (negative: a credit).
 */
export function prorationCents(
  fromCents: number,
  toCents: number,
  period: { start: Date; end: Date },
  now: Date,
): number {
  const length = period.end.getTime() - period.start.getTime()
  if (length <= 0) return 0
  const left = Math.min(Math.max(period.end.getTime() - now.getTime(), 0), length)
  return Math.round(((toCents - fromCents) * left) / length)
}

/**
 * The sandbox gateway on `db`; checkout and portal URLs start with `appUrl` (no trailing
 * slash). `now` is the clock of proration previews (tests fix it).
 */
export function createSandboxGateway(
  db: Kysely<DB>,
  appUrl: string,
  now: () => Date = () => new Date(),
): BillingGateway {
  const base = appUrl.replace(/\/$/, '')

  async function findSubscription(id: string) {
    return db
      .selectFrom('sandbox_subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
  }

  async function openSession(values: {
    userId: number
    customerId: string
    mode: 'payment' | 'subscription'
    priceId: string
    itemId: string
    replacesSubscriptionId?: string | undefined
    successUrl: string
    cancelUrl: string
  }): Promise<{ url: string }> {
    const item = sandboxPriceItem(values.priceId)
    const expected = values.mode === 'subscription' ? 'plan' : 'package'
    if (item?.kind !== expected) {
      throw new Error(`The sandbox has no ${expected} price "${values.priceId}"`)
    }
    const id = sandboxId('cs')
    await db
      .insertInto('sandbox_checkout_sessions')
      .values({
        id,
        user_id: values.userId,
        customer_id: values.customerId,
        mode: values.mode,
        price_id: values.priceId,
        plan_or_package_id: values.itemId,
        replaces_subscription_id: values.replacesSubscriptionId ?? null,
        success_url: values.successUrl,
        cancel_url: values.cancelUrl,
      })
      .execute()
    return { url: `${base}${sandboxCheckoutPath(id)}` }
  }

  return {
    mode: 'sandbox',

    createCustomer() {
      return Promise.resolve(sandboxId('cus'))
    },

    createSubscriptionCheckout(args) {
      return openSession({
        userId: args.userId,
        customerId: args.customerId,
        mode: 'subscription',
        priceId: args.priceId,
        itemId: args.planId,
        replacesSubscriptionId: args.replacesSubscriptionId,
        successUrl: args.successUrl,
        cancelUrl: args.cancelUrl,
      })
    },

    createPackageCheckout(args) {
      return openSession({
        userId: args.userId,
        customerId: args.customerId,
        mode: 'payment',
        priceId: args.priceId,
        itemId: args.packageId,
        successUrl: args.successUrl,
        cancelUrl: args.cancelUrl,
      })
    },

    createPortalSession(args) {
      const params = new URLSearchParams({ customer: args.customerId })
      if (args.targetPriceId) params.set('target', args.targetPriceId)
      return Promise.resolve({ url: `${base}${SANDBOX_BASE_PATH}/portal?${params.toString()}` })
    },

    async previewProration(args) {
      const sub = await findSubscription(args.subscriptionId)
      if (!sub) throw new Error(`The sandbox has no subscription "${args.subscriptionId}"`)
      const from = sandboxPriceItem(sub.price_id)
      const to = sandboxPriceItem(args.newPriceId)
      if (to?.kind !== 'plan') throw new Error(`The sandbox has no plan price "${args.newPriceId}"`)
      const cents = prorationCents(
        from?.priceCents ?? 0,
        to.priceCents,
        { start: sub.current_period_start, end: sub.current_period_end },
        now(),
      )
      // The amount due, as Stripe's preview answers: a downgrade's credit is not paid out.
      return Math.max(0, cents)
    },

    async cancelAtPeriodEnd(subscriptionId) {
      const row = await db
        .updateTable('sandbox_subscriptions')
        .set({ cancel_at_period_end: true })
        .where('id', '=', subscriptionId)
        .returningAll()
        .executeTakeFirst()
      if (!row) throw new Error(`The sandbox has no subscription "${subscriptionId}"`)
      return toSnapshot(row)
    },

    async getSubscription(subscriptionId) {
      const row = await findSubscription(subscriptionId)
      return row ? toSnapshot(row) : null
    },
  }
}
