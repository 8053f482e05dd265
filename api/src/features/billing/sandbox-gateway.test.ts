import type { DB } from '@reelgraph/db'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { loadEnv } from '../../env.ts'
import { createBillingGateway } from './index.ts'
import { addOneMonth, createSandboxGateway, prorationCents } from './sandbox-gateway.ts'
import { escapeHtml, formatCents } from './sandbox-pages.ts'

const noDb = {} as Kysely<DB>

describe('createBillingGateway', () => {
  it('runs the sandbox when no Stripe key is set', () => {
    expect(createBillingGateway(loadEnv({ NODE_ENV: 'development' }), noDb).mode).toBe('sandbox')
  })

  it('refuses the sandbox under NODE_ENV=production unless BILLING_SANDBOX=true', () => {
    expect(() => createBillingGateway(loadEnv({ NODE_ENV: 'production' }), noDb)).toThrow(
      /sandbox is refused under NODE_ENV=production/,
    )
    const demo = loadEnv({ NODE_ENV: 'production', BILLING_SANDBOX: 'true' })
    expect(createBillingGateway(demo, noDb).mode).toBe('sandbox')
  })

  it('chooses Stripe when STRIPE_SECRET_KEY is set, in production too', () => {
    const env = loadEnv({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_123' })
    expect(createBillingGateway(env, noDb).mode).toBe('stripe')
  })
})

describe('sandbox arithmetic and escaping', () => {
  it('prorates the price difference by the part of the period left', () => {
    const period = {
      start: new Date('2026-11-01T00:00:00Z'),
      end: new Date('2026-12-01T00:00:00Z'),
    }
    expect(prorationCents(1200, 2900, period, new Date('2026-11-16T00:00:00Z'))).toBe(850)
    expect(prorationCents(2900, 1200, period, new Date('2026-11-16T00:00:00Z'))).toBe(-850)
    expect(prorationCents(1200, 2900, period, new Date('2026-10-01T00:00:00Z'))).toBe(1700)
    expect(prorationCents(1200, 2900, period, new Date('2027-01-01T00:00:00Z'))).toBe(0)
  })

  it('moves a period a month on in UTC', () => {
    expect(addOneMonth(new Date('2026-12-15T10:00:00Z')).toISOString()).toBe(
      '2027-01-15T10:00:00.000Z',
    )
  })

  it('escapes text and formats cents', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    )
    expect(formatCents(1200)).toBe('$12.00')
    expect(formatCents(-850)).toBe('-$8.50')
  })
})

describe.each(testDatabaseKinds())('sandbox gateway on $name', (kind) => {
  it('stores checkouts and subscriptions and answers snapshots and previews', async () => {
    const { db, dispose } = await kind.create()
    try {
      const now = new Date('2026-11-16T00:00:00Z')
      const gateway = createSandboxGateway(db, 'http://app.test/', () => now)
      const user = await db
        .insertInto('users')
        .values({ name: 'G', email: 'g@example.com', password_hash: 'x' })
        .returning('id')
        .executeTakeFirstOrThrow()
      const customerId = await gateway.createCustomer({
        id: user.id,
        email: 'g@example.com',
        name: 'G',
      })
      expect(customerId).toMatch(/^sandbox_cus_[0-9a-f]{24}$/)

      const { url } = await gateway.createSubscriptionCheckout({
        customerId,
        priceId: 'sandbox_price_basic',
        userId: user.id,
        planId: 'basic',
        replacesSubscriptionId: 'sandbox_sub_old',
        successUrl: 's',
        cancelUrl: 'c',
      })
      expect(url).toMatch(/^http:\/\/app\.test\/api\/billing-sandbox\/checkout\/sandbox_cs_/)
      const session = await db
        .selectFrom('sandbox_checkout_sessions')
        .selectAll()
        .executeTakeFirstOrThrow()
      expect(session).toMatchObject({
        user_id: user.id,
        mode: 'subscription',
        price_id: 'sandbox_price_basic',
        plan_or_package_id: 'basic',
        replaces_subscription_id: 'sandbox_sub_old',
        status: 'open',
      })
      await expect(
        gateway.createPackageCheckout({
          customerId,
          priceId: 'sandbox_price_basic',
          userId: user.id,
          packageId: 'basic',
          successUrl: 's',
          cancelUrl: 'c',
        }),
      ).rejects.toThrow(/no package price/)

      const portal = await gateway.createPortalSession({
        customerId,
        returnUrl: 'r',
        subscriptionId: 'x',
        targetPriceId: 'sandbox_price_pro',
      })
      expect(portal.url).toBe(
        `http://app.test/api/billing-sandbox/portal?customer=${customerId}&target=sandbox_price_pro`,
      )

      await db
        .insertInto('sandbox_subscriptions')
        .values({
          id: 'sandbox_sub_1',
          customer_id: customerId,
          user_id: user.id,
          price_id: 'sandbox_price_basic',
          status: 'active',
          current_period_start: new Date('2026-11-01T00:00:00Z'),
          current_period_end: new Date('2026-12-01T00:00:00Z'),
        })
        .execute()
      const preview = (newPriceId: string) =>
        gateway.previewProration({ customerId, subscriptionId: 'sandbox_sub_1', newPriceId })
      const setPrice = (priceId: string) =>
        db
          .updateTable('sandbox_subscriptions')
          .set({ price_id: priceId })
          .where('id', '=', 'sandbox_sub_1')
          .execute()
      expect(await preview('sandbox_price_pro')).toBe(850)
      await setPrice('sandbox_price_pro')
      expect(await preview('sandbox_price_basic')).toBe(0)
      await setPrice('sandbox_price_basic')
      expect(await gateway.getSubscription('sandbox_sub_nope')).toBeNull()
      const cancelled = await gateway.cancelAtPeriodEnd('sandbox_sub_1')
      expect(cancelled).toEqual({
        id: 'sandbox_sub_1',
        customerId,
        status: 'active',
        priceId: 'sandbox_price_basic',
        cancelAtPeriodEnd: true,
        currentPeriodStart: new Date('2026-11-01T00:00:00Z'),
        currentPeriodEnd: new Date('2026-12-01T00:00:00Z'),
      })
      expect(await gateway.getSubscription('sandbox_sub_1')).toEqual(cancelled)
    } finally {
      await dispose()
    }
  })
})
