import type { CreditTransactionType } from '@reelgraph/db'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestApp,
  sessionCookieFrom,
  TEST_ORIGIN,
  type TestApp,
} from '../../testing/test-app.ts'
import { getBalance, spendCredits } from '../credits/credit-ledger.ts'

let n = 0

describe.each(testDatabaseKinds())('billing sandbox pages on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  /** A signed-in user with a sandbox customer, as the checkout actions would store it. */
  async function signUp() {
    n += 1
    const email = `sandbox-${n}-${Date.now()}@example.com`
    const res = await t.request('POST', '/api/register', {
      body: { name: `Sandbox ${n}`, email, password: 'paper lantern river' },
    })
    const cookie = sessionCookieFrom(res)
    if (!cookie) throw new Error(`register failed: ${res.status}`)
    const user = await t.deps.db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    const customerId = await t.deps.billing.createCustomer(user)
    await t.deps.db
      .updateTable('users')
      .set({ stripe_customer_id: customerId })
      .where('id', '=', user.id)
      .execute()
    return { userId: user.id, cookie, customerId }
  }

  const returnUrls = {
    successUrl: `${TEST_ORIGIN}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${TEST_ORIGIN}/subscription/cancel`,
  }

  async function packageCheckout(u: { userId: number; customerId: string }, packageId: string) {
    const { url } = await t.deps.billing.createPackageCheckout({
      customerId: u.customerId,
      priceId: `sandbox_price_${packageId}`,
      userId: u.userId,
      packageId,
      ...returnUrls,
    })
    return new URL(url)
  }

  async function subscribe(
    u: { userId: number; customerId: string; cookie: string },
    plan: string,
  ) {
    const { url } = await t.deps.billing.createSubscriptionCheckout({
      customerId: u.customerId,
      priceId: `sandbox_price_${plan}`,
      userId: u.userId,
      planId: plan,
      ...returnUrls,
    })
    const res = await t.request('POST', `${new URL(url).pathname}/pay`, { cookie: u.cookie })
    expect(res.status).toBe(303)
    return new URL(url).pathname.split('/').pop() ?? ''
  }

  async function status(cookie: string) {
    return (await t.request('GET', '/api/subscription/status', { cookie })).json()
  }

  async function currentSubscriptionId(userId: number) {
    const row = await t.deps.db
      .selectFrom('users')
      .select('stripe_subscription_id')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    return row.stripe_subscription_id ?? ''
  }

  /** The user's ledger rows of one type. */
  function ledgerRows(userId: number, type: CreditTransactionType) {
    return t.deps.db
      .selectFrom('credit_transactions')
      .select('id')
      .where('user_id', '=', userId)
      .where('transaction_type', '=', type)
      .execute()
  }

  async function portal(u: { customerId: string; cookie: string }) {
    const res = await t.request(
      'GET',
      `/api/billing-sandbox/portal?customer=${encodeURIComponent(u.customerId)}`,
      { cookie: u.cookie },
    )
    return { res, html: await res.text() }
  }

  it('shows a package checkout marked as sandbox, with the item, price, Pay and Cancel', async () => {
    const u = await signUp()
    const url = await packageCheckout(u, 'medium')
    expect(url.origin).toBe(TEST_ORIGIN)
    expect(url.pathname).toMatch(/^\/api\/billing-sandbox\/checkout\/sandbox_cs_[0-9a-f]+$/)
    const res = await t.request('GET', url.pathname, { cookie: u.cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/html/)
    const html = await res.text()
    expect(html).toContain('Sandbox - no real payment')
    expect(html).toContain('Medium credit package')
    expect(html).toContain('$12.00')
    expect(html).toMatch(/<form method="post" action="[^"]+\/pay"><button[^>]*>Pay<\/button>/)
    expect(html).toMatch(/<form method="post" action="[^"]+\/cancel"><button[^>]*>Cancel<\/button>/)
    expect(html).not.toContain('<script')
  })

  it('Pay grants the package credits once and returns to the success page', async () => {
    const u = await signUp()
    const before = await getBalance(t.deps.db, u.userId)
    const url = await packageCheckout(u, 'medium')
    const id = url.pathname.split('/').pop() ?? ''
    const res = await t.request('POST', `${url.pathname}/pay`, { cookie: u.cookie })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${TEST_ORIGIN}/subscription/success?session_id=${id}`)
    const after = await getBalance(t.deps.db, u.userId)
    expect(after.purchased - before.purchased).toBe(150)

    const again = await t.request('POST', `${url.pathname}/pay`, { cookie: u.cookie })
    expect(again.status).toBe(303)
    expect(await getBalance(t.deps.db, u.userId)).toEqual(after)
    expect(await ledgerRows(u.userId, 'credit_purchase')).toHaveLength(1)
    const page = await (await t.request('GET', url.pathname, { cookie: u.cookie })).text()
    expect(page).toContain('already paid')
    expect(page).not.toContain('>Pay<')
  })

  it('answers 404 to a stranger and to an anonymous visitor, who cannot pay', async () => {
    const owner = await signUp()
    const stranger = await signUp()
    const url = await packageCheckout(owner, 'small')
    expect((await t.request('GET', url.pathname, { cookie: stranger.cookie })).status).toBe(404)
    expect((await t.request('GET', url.pathname)).status).toBe(404)
    const before = await getBalance(t.deps.db, owner.userId)
    const pay = await t.request('POST', `${url.pathname}/pay`, { cookie: stranger.cookie })
    expect(pay.status).toBe(404)
    expect(await getBalance(t.deps.db, owner.userId)).toEqual(before)
    expect(await getBalance(t.deps.db, stranger.userId)).toMatchObject({ purchased: 20 })
  })

  it('refuses a Pay from another site', async () => {
    const u = await signUp()
    const url = await packageCheckout(u, 'small')
    const res = await t.request('POST', `${url.pathname}/pay`, {
      cookie: u.cookie,
      headers: { origin: 'https://evil.example' },
    })
    expect(res.status).toBe(403)
  })

  it('Cancel returns to the cancel page and the checkout can no longer be paid', async () => {
    const u = await signUp()
    const before = await getBalance(t.deps.db, u.userId)
    const url = await packageCheckout(u, 'large')
    const res = await t.request('POST', `${url.pathname}/cancel`, { cookie: u.cookie })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${TEST_ORIGIN}/subscription/cancel`)
    const pay = await t.request('POST', `${url.pathname}/pay`, { cookie: u.cookie })
    expect(pay.headers.get('location')).toBe(`${TEST_ORIGIN}/subscription/cancel`)
    expect(await getBalance(t.deps.db, u.userId)).toEqual(before)
  })

  it('a subscription checkout: Pay makes the user basic with the plan credits', async () => {
    const u = await signUp()
    const { url } = await t.deps.billing.createSubscriptionCheckout({
      customerId: u.customerId,
      priceId: 'sandbox_price_basic',
      userId: u.userId,
      planId: 'basic',
      ...returnUrls,
    })
    const path = new URL(url).pathname
    const html = await (await t.request('GET', path, { cookie: u.cookie })).text()
    expect(html).toContain('Sandbox - no real payment')
    expect(html).toContain('Basic plan, monthly subscription')
    expect(html).toContain('$12.00 per month')
    await t.request('POST', `${path}/pay`, { cookie: u.cookie })
    await t.request('POST', `${path}/pay`, { cookie: u.cookie })
    const s = await status(u.cookie)
    expect(s.status).toBe('basic')
    expect(s.subscriptionId).toMatch(/^sandbox_sub_/)
    expect(new Date(s.periodEnd).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000)
    expect(await getBalance(t.deps.db, u.userId)).toMatchObject({ plan: 200, purchased: 20 })
    const subs = await t.deps.db
      .selectFrom('sandbox_subscriptions')
      .select('id')
      .where('user_id', '=', u.userId)
      .execute()
    expect(subs).toHaveLength(1)
  })

  it('the portal renews: plan credits reset to the plan, purchased credits untouched', async () => {
    const u = await signUp()
    const pkg = await packageCheckout(u, 'small')
    await t.request('POST', `${pkg.pathname}/pay`, { cookie: u.cookie })
    await subscribe(u, 'basic')
    await spendCredits(t.deps.db, {
      userId: u.userId,
      amount: 150,
      type: 'script_generation',
      description: 'a script',
      idempotencyKey: `spend:${u.userId}`,
    })
    expect(await getBalance(t.deps.db, u.userId)).toMatchObject({ plan: 50, purchased: 70 })
    const periodEnd = (await status(u.cookie)).periodEnd

    const { res, html } = await portal(u)
    expect(res.status).toBe(200)
    expect(html).toContain('Sandbox - no real payment')
    expect(html).toContain('Advance to next period')
    expect(html).toContain('href="/subscription"')
    const subId = await currentSubscriptionId(u.userId)
    const advance = await t.request(
      'POST',
      `/api/billing-sandbox/portal/subscriptions/${subId}/advance`,
      { cookie: u.cookie },
    )
    expect(advance.status).toBe(303)
    expect(advance.headers.get('location')).toContain('/api/billing-sandbox/portal?customer=')
    expect(await getBalance(t.deps.db, u.userId)).toMatchObject({ plan: 200, purchased: 70 })
    const s = await status(u.cookie)
    expect(s.status).toBe('basic')
    expect(new Date(s.periodEnd).getTime()).toBeGreaterThan(new Date(periodEnd).getTime())
    expect(await ledgerRows(u.userId, 'subscription_renewal')).toHaveLength(1)
  })

  it('the portal switches the plan and cancels at period end; advancing then ends it', async () => {
    const u = await signUp()
    await subscribe(u, 'basic')
    const subId = await currentSubscriptionId(u.userId)
    const base = `/api/billing-sandbox/portal/subscriptions/${subId}`

    const targeted = await t.request(
      'GET',
      `/api/billing-sandbox/portal?customer=${u.customerId}&target=sandbox_price_pro`,
      { cookie: u.cookie },
    )
    expect(await targeted.text()).toMatch(/<li aria-current="true">Pro/)
    await t.request('POST', `${base}/switch/pro`, { cookie: u.cookie })
    expect((await status(u.cookie)).status).toBe('pro')
    await t.request('POST', `${base}/switch/basic`, { cookie: u.cookie })
    expect((await status(u.cookie)).status).toBe('basic')

    const cancel = await t.request('POST', `${base}/cancel`, { cookie: u.cookie })
    expect(cancel.status).toBe(303)
    expect((await status(u.cookie)).status).toBe('basic_cancelling')
    expect((await portal(u)).html).toContain('already set to cancel')

    await t.request('POST', `${base}/advance`, { cookie: u.cookie })
    expect(await status(u.cookie)).toEqual({
      status: 'free',
      subscriptionId: null,
      periodEnd: null,
    })
    expect(await getBalance(t.deps.db, u.userId)).toMatchObject({ plan: 0 })
    // Without a subscription the portal says so and leads back to the plans (issue 14 item 7).
    const ended = (await portal(u)).html
    expect(ended).toContain('No subscription')
    expect(ended).toContain('<a href="/subscription">See plans</a>')
  })

  it('a reactivation checkout replaces a cancelling subscription, which runs out on renewal', async () => {
    const u = await signUp()
    await subscribe(u, 'basic')
    const oldId = await currentSubscriptionId(u.userId)
    await t.request('POST', `/api/billing-sandbox/portal/subscriptions/${oldId}/cancel`, {
      cookie: u.cookie,
    })
    expect((await status(u.cookie)).status).toBe('basic_cancelling')
    const { url } = await t.deps.billing.createSubscriptionCheckout({
      customerId: u.customerId,
      priceId: 'sandbox_price_basic',
      userId: u.userId,
      planId: 'basic',
      replacesSubscriptionId: oldId,
      ...returnUrls,
    })
    await t.request('POST', `${new URL(url).pathname}/pay`, { cookie: u.cookie })
    const newId = await currentSubscriptionId(u.userId)
    expect(newId).not.toBe(oldId)
    expect((await status(u.cookie)).status).toBe('basic')

    const { html } = await portal(u)
    expect(html).toContain(`/portal/subscriptions/${newId}/advance`)
    await t.request('POST', `/api/billing-sandbox/portal/subscriptions/${newId}/advance`, {
      cookie: u.cookie,
    })
    expect((await status(u.cookie)).status).toBe('basic')
    expect(await currentSubscriptionId(u.userId)).toBe(newId)
    const old = await t.deps.billing.getSubscription(oldId)
    expect(old?.status).toBe('canceled')
  })

  it('runs the API’s billing actions end to end: purchase, subscribe, proration, portal', async () => {
    n += 1
    const res = await t.request('POST', '/api/register', {
      body: {
        name: 'Flow',
        email: `flow-${n}-${Date.now()}@example.com`,
        password: 'paper lantern river',
      },
    })
    const cookie = sessionCookieFrom(res) ?? ''

    const purchase = await t.request('POST', '/api/purchase-credits', {
      cookie,
      body: { packageId: 'medium' },
    })
    expect(purchase.status).toBe(200)
    const packageUrl = new URL((await purchase.json()).url)
    expect(packageUrl.pathname).toMatch(/^\/api\/billing-sandbox\/checkout\//)
    const pay = await t.request('POST', `${packageUrl.pathname}/pay`, { cookie })
    expect(pay.headers.get('location')).toMatch(/\/subscription\/success\?session_id=sandbox_cs_/)

    const checkout = await t.request('POST', '/api/subscription/create-checkout-session', {
      cookie,
      body: { priceId: 'sandbox_price_pro' },
    })
    expect(checkout.status).toBe(200)
    const planUrl = new URL((await checkout.json()).url)
    await t.request('POST', `${planUrl.pathname}/pay`, { cookie })
    expect((await status(cookie)).status).toBe('pro')
    const me = await t.deps.db
      .selectFrom('users')
      .select('id')
      .where('stripe_customer_id', 'is not', null)
      .where('email', 'like', `flow-${n}-%`)
      .executeTakeFirstOrThrow()
    expect(await getBalance(t.deps.db, me.id)).toMatchObject({ plan: 600, purchased: 170 })

    const proration = await t.request('POST', '/api/subscription/calculate-proration', {
      cookie,
      body: { currentPlanId: 'pro', newPlanId: 'basic' },
    })
    expect(await proration.json()).toEqual({ amount: 0 })

    const portalRes = await t.request('POST', '/api/subscription/create-portal-session', {
      cookie,
      body: { targetPlanId: 'basic' },
    })
    expect(portalRes.status).toBe(200)
    const portalUrl = new URL((await portalRes.json()).url)
    expect(portalUrl.searchParams.get('target')).toBe('sandbox_price_basic')
    const page = await t.request('GET', `${portalUrl.pathname}${portalUrl.search}`, { cookie })
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<li aria-current="true">Basic/)
  })

  it('keeps the portal and its controls to their own user', async () => {
    const owner = await signUp()
    const stranger = await signUp()
    await subscribe(owner, 'basic')
    const subId = await currentSubscriptionId(owner.userId)
    const url = `/api/billing-sandbox/portal?customer=${owner.customerId}`
    expect((await t.request('GET', url, { cookie: stranger.cookie })).status).toBe(404)
    expect((await t.request('GET', url)).status).toBe(404)
    for (const action of ['cancel', 'advance', 'switch/pro']) {
      const res = await t.request(
        'POST',
        `/api/billing-sandbox/portal/subscriptions/${subId}/${action}`,
        { cookie: stranger.cookie },
      )
      expect(res.status).toBe(404)
    }
    expect((await status(owner.cookie)).status).toBe('basic')
  })
})
