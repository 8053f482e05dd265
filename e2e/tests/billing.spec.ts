import { expect, type Page, test } from '@playwright/test'
import { describeAtIssue14Viewports, registerFreshUser, spendCredits } from '../support/app.ts'

// Billing in sandbox mode (no STRIPE_SECRET_KEY): spec §2 /subscription and the result
// pages, §4 Plan transitions and Subscription status values, issue 5 "Browser, in sandbox
// mode". Every checkout and portal is the API's local sandbox page ("Sandbox - no real
// payment"), and paying there runs the same fulfilment as Stripe's webhook.

test.describe.configure({ timeout: 120_000 })

/** The header's credits pill ("N Credits"). */
function creditsPill(page: Page) {
  return page.getByTitle('Available credits')
}

/** The subscription status as the API reports it. */
async function apiStatus(page: Page): Promise<string> {
  const res = await page.request.get('/api/subscription/status')
  expect(res.ok(), await res.text()).toBe(true)
  return ((await res.json()) as { status: string }).status
}

/**
 * On a sandbox checkout page: pays, and lands on "Payment Successful", which leads back to
 * the projects and the subscription page, and offers "Manage Subscription" only with a
 * paid subscription to manage (issue 14 item 7).
 */
async function payInSandbox(page: Page, { subscribed }: { subscribed: boolean }) {
  await expect(page).toHaveURL(/\/api\/billing-sandbox\/checkout\//)
  await expect(page.getByText('Sandbox - no real payment')).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page).toHaveURL(/\/subscription\/success/)
  await expect(page.getByRole('heading', { name: 'Payment Successful', level: 1 })).toBeVisible()
  const main = page.getByRole('main')
  await expect(main.getByRole('link', { name: 'Back to Projects' })).toBeVisible()
  await expect(main.getByRole('link', { name: 'Subscription', exact: true })).toBeVisible()
  const manage = main.getByRole('button', { name: 'Manage Subscription' })
  if (subscribed) await expect(manage).toBeVisible()
  else await expect(manage).toHaveCount(0)
}

/** Opens /subscription and waits for the current subscription card. */
async function openSubscriptionPage(page: Page) {
  await page.goto('/subscription')
  await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
  return page.getByRole('region', { name: 'Current subscription' })
}

test('a free user buys credits, subscribes, cancels, reactivates and renews', async ({
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Katherine Johnson')
  let card = await openSubscriptionPage(page)

  // The page: plans in order with pro featured, the packages with "Best Value", the FAQ.
  const plans = page.getByRole('region', { name: /^(Free|Basic|Pro)$/ })
  await expect(plans).toHaveCount(3)
  await expect(plans.nth(0)).toHaveAccessibleName('Free')
  await expect(plans.nth(1)).toHaveAccessibleName('Basic')
  await expect(plans.nth(2)).toHaveAccessibleName('Pro')
  await expect(plans.nth(2).getByText('Most Popular')).toBeVisible()
  await expect(plans.nth(0).getByRole('button', { name: 'Current plan' })).toBeDisabled()
  const medium = page.getByRole('region', { name: 'Medium' })
  await expect(medium.getByText('Best Value')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible()
  await expect(card.getByTestId('current-plan-name')).toHaveText('Free')
  await expect(card.getByTestId('subscription-status')).toHaveText('Free')
  await expect(creditsPill(page)).toHaveText('20 Credits')

  // 1. The medium package: 150 purchased credits.
  await medium.getByRole('button', { name: 'Buy 150 credits' }).click()
  await payInSandbox(page, { subscribed: false })
  await expect(creditsPill(page)).toHaveText('170 Credits')

  // 2. Basic: a checkout; after paying the badge reads Active and the plan's 200 credits
  // come on top of the 170 (the 20 starting credits are not plan credits, so they stay).
  await openSubscriptionPage(page)
  await plans.nth(1).getByRole('button', { name: 'Upgrade to Basic' }).click()
  await payInSandbox(page, { subscribed: true })
  await expect(creditsPill(page)).toHaveText('370 Credits')
  await page.getByRole('button', { name: 'Account menu' }).click()
  await expect(page.getByRole('menuitem', { name: /Subscription/ })).toContainText('Active')
  await page.keyboard.press('Escape')
  expect(await apiStatus(page)).toBe('basic')

  // 3. Cancel: Free goes through the portal, where the subscription cancels at period end.
  card = await openSubscriptionPage(page)
  await expect(card.getByTestId('current-plan-name')).toHaveText('Basic')
  await expect(card.getByTestId('subscription-status')).toHaveText('Active')
  await plans.nth(0).getByRole('button', { name: 'Downgrade to Free' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Switch to Free?' })
  await confirm.getByRole('button', { name: 'Switch to Free' }).click()
  await expect(page).toHaveURL(/\/api\/billing-sandbox\/portal/)
  await expect(page.getByText('Sandbox - no real payment')).toBeVisible()
  await page.getByRole('button', { name: 'Cancel at period end' }).click()
  await expect(
    page.getByText('This subscription is already set to cancel at the end of the period.'),
  ).toBeVisible()
  expect(await apiStatus(page)).toBe('basic_cancelling')
  card = await openSubscriptionPage(page)
  await expect(card.getByTestId('subscription-status')).toHaveText('Cancels at period end')
  // Free again is "already set to cancel" (spec §4).
  await plans.nth(0).getByRole('button', { name: 'Downgrade to Free' }).click()
  await expect(
    page
      .getByRole('region', { name: /^Notifications/ })
      .getByText('Your subscription is already set to cancel at the end of the billing period.'),
  ).toBeVisible()

  // 4. Reactivate Basic: a checkout that ends the pending cancellation.
  await plans.nth(1).getByRole('button', { name: 'Keep Basic' }).click()
  await payInSandbox(page, { subscribed: true })
  await expect.poll(() => apiStatus(page)).toBe('basic')
  await expect(creditsPill(page)).toHaveText('370 Credits')

  // 5. A renewal resets plan credits (no roll-over); purchased credits stay. Spend one
  // credit first (plan credits go first) so the reset shows.
  const spent = await page.request.post('/api/ai/generate-script', {
    headers: { origin: baseURL ?? '' },
    data: { style: 'Professional', tone: 'Conversational', format: 'Explainer', topic: 'Orbits' },
  })
  expect(spent.ok(), await spent.text()).toBe(true)
  card = await openSubscriptionPage(page)
  await expect(creditsPill(page)).toHaveText('369 Credits')
  await card.getByRole('button', { name: 'Manage billing' }).click()
  await expect(page).toHaveURL(/\/api\/billing-sandbox\/portal/)
  await page.getByRole('button', { name: 'Advance to next period' }).click()
  card = await openSubscriptionPage(page)
  await expect(creditsPill(page)).toHaveText('370 Credits')
  await expect(card.getByTestId('subscription-status')).toHaveText('Active')
})

/** The computed look of an element: what "the app's look" means for the sandbox pages. */
async function look(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      // This file compiles without the DOM library; the function runs in the page.
      type Style = Record<
        'backgroundColor' | 'color' | 'fontFamily' | 'borderTopLeftRadius',
        string
      >
      const page = globalThis as unknown as { getComputedStyle(element: unknown): Style }
      const style = page.getComputedStyle(el)
      return {
        background: style.backgroundColor,
        color: style.color,
        fontFamily: style.fontFamily,
        radius: style.borderTopLeftRadius,
      }
    })
}

describeAtIssue14Viewports('billing pages at {size} (issue 14 item 7)', () => {
  test('credits bought on the free plan: no dead "Manage Subscription", and the purchased credits shown apart', async ({
    page,
    baseURL,
  }) => {
    await registerFreshUser(page.request, baseURL, 'Dorothy Vaughan')
    let card = await openSubscriptionPage(page)
    await expect(card.getByTestId('purchased-credits')).toHaveText('20')
    await expect(card.getByTestId('plan-credits')).toHaveText('None on the Free plan')
    // Nothing to manage without a subscription.
    await expect(card.getByRole('button', { name: 'Manage billing' })).toHaveCount(0)

    await page
      .getByRole('region', { name: 'Medium' })
      .getByRole('button', { name: 'Buy 150 credits' })
      .click()
    await payInSandbox(page, { subscribed: false })
    await page.getByRole('main').getByRole('link', { name: 'Subscription', exact: true }).click()
    await expect(page).toHaveURL(/\/subscription$/)
    card = page.getByRole('region', { name: 'Current subscription' })
    await expect(card.getByTestId('purchased-credits')).toHaveText('170')
    await expect(creditsPill(page)).toHaveText('170 Credits')
  })

  test('on basic with a package, the usage bar counts plan credits against the plan; the sandbox pages look like the app', async ({
    page,
    baseURL,
  }) => {
    await registerFreshUser(page.request, baseURL, 'Mary Jackson')
    await openSubscriptionPage(page)
    const appBody = await look(page, 'body')
    const appCard = await look(page, '[data-slot="card"]')

    await page
      .getByRole('region', { name: 'Basic' })
      .getByRole('button', { name: 'Upgrade to Basic' })
      .click()
    await expect(page).toHaveURL(/\/api\/billing-sandbox\/checkout\//)
    // The sandbox checkout wears the app's colours, font and card shape, and its Pay
    // button is the app's primary button.
    expect(await look(page, 'body')).toEqual(appBody)
    expect(await look(page, '.card')).toMatchObject({ radius: appCard.radius })
    const sandboxPay = await look(page, 'button.primary')
    await payInSandbox(page, { subscribed: true })
    const appPrimary = await look(page, 'main a[data-slot="button"]')
    expect(sandboxPay.background).toBe(appPrimary.background)
    expect(sandboxPay.color).toBe(appPrimary.color)

    await openSubscriptionPage(page)
    await page
      .getByRole('region', { name: 'Medium' })
      .getByRole('button', { name: 'Buy 150 credits' })
      .click()
    await payInSandbox(page, { subscribed: true })
    let card = await openSubscriptionPage(page)
    await expect(creditsPill(page)).toHaveText('370 Credits')
    // Plan credits against the plan's 200; the 170 purchased (150 + 20 welcome) apart.
    await expect(card.getByTestId('plan-credits')).toHaveText('200 / 200 (100%)')
    await expect(card.getByTestId('purchased-credits')).toHaveText('170')
    await expect(
      card.getByRole('progressbar', { name: 'Plan credits this period' }),
    ).toHaveAttribute('aria-valuenow', '100')

    // Spending takes plan credits first: the bar moves, the purchased credits stay.
    await spendCredits(page.request, baseURL, 10)
    card = await openSubscriptionPage(page)
    await expect(card.getByTestId('plan-credits')).toHaveText('190 / 200 (95%)')
    await expect(card.getByTestId('purchased-credits')).toHaveText('170')

    // The portal wears the app's look too.
    await card.getByRole('button', { name: 'Manage billing' }).click()
    await expect(page).toHaveURL(/\/api\/billing-sandbox\/portal/)
    expect(await look(page, 'body')).toEqual(appBody)
    expect(await look(page, '.card')).toMatchObject({ radius: appCard.radius })
  })
})
