import { Hono } from 'hono'
import type { Context } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { originCheck } from '../../middleware/origin-check.ts'
import { loadSession } from '../../middleware/session.ts'
import { handleBillingEvent } from './billing-events.ts'
import { PACKAGE_CATALOG, PLAN_CATALOG } from './catalog.ts'
import {
  addOneMonth,
  SANDBOX_BASE_PATH,
  sandboxCheckoutPath,
  sandboxId,
  sandboxPriceItem,
} from './sandbox-gateway.ts'
import { checkoutPage, notFoundPage, portalPage } from './sandbox-pages.ts'

/**
 * The sandbox's pages under `/api/billing-sandbox` (issue 5 item 4): the checkout (Pay,
 * Cancel) and the billing portal (switch plan, cancel at period end, advance to the next
 * period). Every change goes through `handleBillingEvent`, the fulfilment the Stripe webhook
 * runs, with the same provider-neutral events. Mounted outside the JSON API (its forms post
 * form data) with the API's Origin check and session; only when billing runs in the sandbox.
 * Each page is its own user's: anyone else gets 404.
 */

/** Why the portal was reloaded, shown as a status line. */
const PORTAL_MESSAGES: Record<string, string> = {
  switched: 'Your plan was changed.',
  cancelling: 'Your subscription will cancel at the end of the period.',
  renewed: 'The subscription moved to its next period and was renewed.',
  ended: 'The period ended and the subscription was canceled.',
  unchanged: 'Nothing changed.',
}

function notFound(c: Context<AppEnv>) {
  return c.html(notFoundPage(), 404)
}

/** `{CHECKOUT_SESSION_ID}` in a return URL, as Stripe fills it in. */
function fillSessionId(url: string, sessionId: string): string {
  return url.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(sessionId))
}

function portalUrl(customerId: string, done?: string): string {
  const params = new URLSearchParams({ customer: customerId })
  if (done) params.set('done', done)
  return `${SANDBOX_BASE_PATH}/portal?${params.toString()}`
}

/** The signed-in user's checkout session, or undefined. */
async function ownSession(c: Context<AppEnv>, id: string) {
  const userId = c.var.auth?.user.id
  if (userId === undefined) return undefined
  return c.var.db
    .selectFrom('sandbox_checkout_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** The signed-in user's sandbox subscription, or undefined. */
async function ownSubscription(c: Context<AppEnv>, id: string) {
  const userId = c.var.auth?.user.id
  if (userId === undefined) return undefined
  return c.var.db
    .selectFrom('sandbox_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

export const sandboxRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    // The pages exist only while billing runs in the sandbox.
    if (c.var.deps.billing.mode !== 'sandbox') return notFound(c)
    await next()
    c.header('Cache-Control', 'no-store')
  })
  .use(originCheck)
  .use(loadSession)

  .get('/checkout/:id', async (c) => {
    const session = await ownSession(c, c.req.param('id'))
    if (!session) return notFound(c)
    const item = sandboxPriceItem(session.price_id)
    const credits =
      session.mode === 'subscription'
        ? PLAN_CATALOG.find((p) => p.id === item?.id)?.credits
        : PACKAGE_CATALOG.find((p) => p.id === item?.id)?.credits
    const path = sandboxCheckoutPath(session.id)
    return c.html(
      checkoutPage({
        mode: session.mode,
        itemName: item?.name ?? session.plan_or_package_id,
        priceCents: item?.priceCents ?? 0,
        credits,
        status: session.status,
        payAction: `${path}/pay`,
        cancelAction: `${path}/cancel`,
      }),
    )
  })

  .post('/checkout/:id/pay', async (c) => {
    const db = c.var.db
    const session = await ownSession(c, c.req.param('id'))
    if (!session) return notFound(c)
    // Claimed atomically: a second Pay (double click, back button) finds it paid and only
    // redirects; fulfilment is idempotent per session anyway.
    const claimed = await db
      .updateTable('sandbox_checkout_sessions')
      .set({ status: 'paid' })
      .where('id', '=', session.id)
      .where('status', '=', 'open')
      .returning('id')
      .executeTakeFirst()
    if (!claimed) {
      if (session.status === 'canceled') return c.redirect(session.cancel_url, 303)
      return c.redirect(fillSessionId(session.success_url, session.id), 303)
    }
    let subscriptionId: string | undefined
    try {
      if (session.mode === 'payment') {
        await handleBillingEvent(c.var.deps, {
          type: 'checkout.completed',
          mode: 'payment',
          sessionId: session.id,
          userId: session.user_id,
          packageId: session.plan_or_package_id,
        })
      } else {
        subscriptionId = sandboxId('sub')
        const start = new Date()
        await db
          .insertInto('sandbox_subscriptions')
          .values({
            id: subscriptionId,
            customer_id: session.customer_id,
            user_id: session.user_id,
            price_id: session.price_id,
            status: 'active',
            current_period_start: start,
            current_period_end: addOneMonth(start),
          })
          .execute()
        await db
          .updateTable('sandbox_checkout_sessions')
          .set({ subscription_id: subscriptionId })
          .where('id', '=', session.id)
          .execute()
        await handleBillingEvent(c.var.deps, {
          type: 'checkout.completed',
          mode: 'subscription',
          sessionId: session.id,
          userId: session.user_id,
          subscriptionId,
          ...(session.replaces_subscription_id
            ? { replacesSubscriptionId: session.replaces_subscription_id }
            : {}),
        })
      }
    } catch (error) {
      // Let the user try Pay again rather than leave a paid session with nothing granted.
      await db
        .updateTable('sandbox_checkout_sessions')
        .set({ status: 'open', subscription_id: null })
        .where('id', '=', session.id)
        .execute()
      if (subscriptionId) {
        await db.deleteFrom('sandbox_subscriptions').where('id', '=', subscriptionId).execute()
      }
      throw error
    }
    return c.redirect(fillSessionId(session.success_url, session.id), 303)
  })

  .post('/checkout/:id/cancel', async (c) => {
    const session = await ownSession(c, c.req.param('id'))
    if (!session) return notFound(c)
    await c.var.db
      .updateTable('sandbox_checkout_sessions')
      .set({ status: 'canceled' })
      .where('id', '=', session.id)
      .where('status', '=', 'open')
      .execute()
    if (session.status === 'paid') {
      return c.redirect(fillSessionId(session.success_url, session.id), 303)
    }
    return c.redirect(session.cancel_url, 303)
  })

  .get('/portal', async (c) => {
    const customerId = c.req.query('customer') ?? ''
    const user = c.var.auth?.user
    if (!user || !customerId || user.stripe_customer_id !== customerId) return notFound(c)
    // The account's current subscription first (a reactivated one may leave the replaced
    // one running out), else the newest live one.
    const current = user.stripe_subscription_id ?? ''
    const sub = await c.var.db
      .selectFrom('sandbox_subscriptions')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('user_id', '=', user.id)
      .where('status', '!=', 'canceled')
      .orderBy((eb) => eb.case().when('id', '=', current).then(0).else(1).end())
      .orderBy('created_at', 'desc')
      .executeTakeFirst()
    const done = c.req.query('done')
    const message = done ? PORTAL_MESSAGES[done] : undefined
    if (!sub) return c.html(portalPage({ subscription: undefined, message }))
    const item = sandboxPriceItem(sub.price_id)
    const target = c.req.query('target')
    const base = `${SANDBOX_BASE_PATH}/portal/subscriptions/${encodeURIComponent(sub.id)}`
    return c.html(
      portalPage({
        message,
        subscription: {
          planName: item?.name ?? sub.price_id,
          priceCents: item?.priceCents ?? 0,
          status: sub.status,
          cancelAtPeriodEnd: sub.cancel_at_period_end,
          periodStart: sub.current_period_start,
          periodEnd: sub.current_period_end,
          cancelAction: `${base}/cancel`,
          advanceAction: `${base}/advance`,
          choices: PLAN_CATALOG.filter(
            (p) => p.priceCents > 0 && `sandbox_price_${p.id}` !== sub.price_id,
          ).map((p) => ({
            id: p.id,
            name: p.name,
            priceCents: p.priceCents,
            action: `${base}/switch/${encodeURIComponent(p.id)}`,
            target: target === `sandbox_price_${p.id}`,
          })),
        },
      }),
    )
  })

  .post('/portal/subscriptions/:id/switch/:planId', async (c) => {
    const sub = await ownSubscription(c, c.req.param('id'))
    const priceId = `sandbox_price_${c.req.param('planId')}`
    if (!sub || sub.status === 'canceled' || sandboxPriceItem(priceId)?.kind !== 'plan') {
      return notFound(c)
    }
    if (sub.price_id === priceId) return c.redirect(portalUrl(sub.customer_id, 'unchanged'), 303)
    // Upgrades and downgrades alike take effect now (a simplification of Stripe's
    // downgrade at period end); plan credits follow at the next period.
    await c.var.db
      .updateTable('sandbox_subscriptions')
      .set({ price_id: priceId })
      .where('id', '=', sub.id)
      .execute()
    await handleBillingEvent(c.var.deps, { type: 'subscription.updated', subscriptionId: sub.id })
    return c.redirect(portalUrl(sub.customer_id, 'switched'), 303)
  })

  .post('/portal/subscriptions/:id/cancel', async (c) => {
    const sub = await ownSubscription(c, c.req.param('id'))
    if (!sub || sub.status === 'canceled') return notFound(c)
    await c.var.deps.billing.cancelAtPeriodEnd(sub.id)
    await handleBillingEvent(c.var.deps, { type: 'subscription.updated', subscriptionId: sub.id })
    return c.redirect(portalUrl(sub.customer_id, 'cancelling'), 303)
  })

  .post('/portal/subscriptions/:id/advance', async (c) => {
    const db = c.var.db
    const sub = await ownSubscription(c, c.req.param('id'))
    if (!sub || sub.status === 'canceled') return notFound(c)
    if (sub.cancel_at_period_end) {
      const ended = await db
        .updateTable('sandbox_subscriptions')
        .set({ status: 'canceled' })
        .where('id', '=', sub.id)
        .where('status', '!=', 'canceled')
        .returning('id')
        .executeTakeFirst()
      if (ended) {
        await handleBillingEvent(c.var.deps, {
          type: 'subscription.deleted',
          subscriptionId: sub.id,
        })
      }
      return c.redirect(portalUrl(sub.customer_id, ended ? 'ended' : 'unchanged'), 303)
    }
    // Only from the period shown: two quick clicks advance one period, not two.
    const renewed = await db
      .updateTable('sandbox_subscriptions')
      .set({
        current_period_start: sub.current_period_end,
        current_period_end: addOneMonth(sub.current_period_end),
      })
      .where('id', '=', sub.id)
      .where('current_period_end', '=', sub.current_period_end)
      .returning('id')
      .executeTakeFirst()
    if (renewed) {
      await handleBillingEvent(c.var.deps, { type: 'invoice.paid', subscriptionId: sub.id })
      // A subscription this one replaced (reactivation) runs out with the same month.
      const outrun = await db
        .updateTable('sandbox_subscriptions')
        .set({ status: 'canceled' })
        .where('user_id', '=', sub.user_id)
        .where('id', '!=', sub.id)
        .where('status', '!=', 'canceled')
        .where('cancel_at_period_end', '=', true)
        .where('current_period_end', '<=', sub.current_period_end)
        .returning('id')
        .execute()
      for (const old of outrun) {
        await handleBillingEvent(c.var.deps, {
          type: 'subscription.deleted',
          subscriptionId: old.id,
        })
      }
    }
    return c.redirect(portalUrl(sub.customer_id, renewed ? 'renewed' : 'unchanged'), 303)
  })
