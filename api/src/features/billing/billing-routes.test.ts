import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'
import { activePriceIds, PLAN_CATALOG, seedCatalog } from './catalog.ts'

describe.each(testDatabaseKinds())('billing catalogue and status on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('lists the plans ordered free, basic, pro, with price ids for paid plans only', async () => {
    const { plans } = await (await t.request('GET', '/api/subscription/plans')).json()
    expect(plans.map((p: { id: string }) => p.id)).toEqual(['free', 'basic', 'pro'])
    expect(plans[0]).not.toHaveProperty('priceId')
    expect(plans[1]).toMatchObject({
      name: 'Basic',
      price: 12,
      credits: 200,
      priceId: 'sandbox_price_basic',
    })
    expect(plans[2].features.length).toBeGreaterThan(0)
  })

  it('lists the credit packages with medium marked Best Value', async () => {
    const { packages } = await (await t.request('GET', '/api/credit-packages')).json()
    expect(packages.map((p: { id: string }) => p.id)).toEqual(['small', 'medium', 'large'])
    expect(
      packages.filter((p: { bestValue: boolean }) => p.bestValue).map((p: { id: string }) => p.id),
    ).toEqual(['medium'])
  })

  it('seeding again updates in place instead of duplicating', async () => {
    await seedCatalog(t.deps.db, activePriceIds(t.deps.env))
    const rows = await t.deps.db.selectFrom('plans').select('id').execute()
    expect(rows).toHaveLength(PLAN_CATALOG.length)
  })

  it('answers a new user’s status as free, and 401 when anonymous', async () => {
    const res = await t.request('POST', '/api/register', {
      body: {
        name: 'A',
        email: `billing-${Date.now()}@example.com`,
        password: 'paper lantern river',
      },
    })
    const cookie = sessionCookieFrom(res)
    const status = await (await t.request('GET', '/api/subscription/status', { cookie })).json()
    expect(status).toEqual({ status: 'free', subscriptionId: null, periodEnd: null })
    expect((await t.request('GET', '/api/subscription/status')).status).toBe(401)
  })
})
