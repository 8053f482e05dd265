import { expect, type Page, test } from '@playwright/test'
import { registerFreshUser } from '../support/app.ts'

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

/** On a sandbox checkout page: pays, and lands on "Payment Successful". */
async function payInSandbox(page: Page) {
  await expect(page).toHaveURL(/\/api\/billing-sandbox\/checkout\//)
  await expect(page.getByText('Sandbox - no real payment')).toBeVisible()
  await page.getByRole('button', { name: 'Pay' }).click()
  await expect(page).toHaveURL(/\/subscription\/success/)
  await expect(page.getByRole('heading', { name: 'Payment Successful', level: 1 })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Manage Subscription' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Back to Projects' })).toBeVisible()
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
  await payInSandbox(page)
  await expect(creditsPill(page)).toHaveText('170 Credits')

  // 2. Basic: a checkout; after paying the badge reads Active and the plan's 200 credits
  // come on top of the 170 (the 20 starting credits are not plan credits, so they stay).
  await openSubscriptionPage(page)
  await plans.nth(1).getByRole('button', { name: 'Upgrade to Basic' }).click()
  await payInSandbox(page)
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
  await payInSandbox(page)
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
