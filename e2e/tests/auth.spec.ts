import { expect, type Page, test } from '@playwright/test'
import { waitForEmail } from '../support/mail.ts'
import { notifications } from '../support/app.ts'

// Accounts, as spec §2 (/auth, header, guards, 404), §5 and §8 (auth toasts) describe them.

interface Person {
  name: string
  email: string
  password: string
}

/** A new person per test: a fresh address, so no earlier test's mail or account answers. */
function newPerson(name: string): Person {
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  const first = name.split(' ')[0]?.toLowerCase() ?? 'user'
  return {
    name,
    email: `${first}+${unique}@example.com`,
    password: `Reel-graph-${unique}`,
  }
}

async function register(page: Page, person: Person): Promise<void> {
  await page.goto('/auth')
  await page.getByRole('tab', { name: 'Register' }).click()
  await expect(page.getByRole('heading', { name: 'Create a new account' })).toBeVisible()
  await page.getByLabel('Name').fill(person.name)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByLabel('Confirm Password').fill(person.password)
  await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check()
  await page.getByRole('button', { name: 'Create account', exact: true }).click()
  await expect(notifications(page).getByText('Registration successful')).toBeVisible()
  await expect(notifications(page).getByText(`Welcome, ${person.name}!`)).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await expect(
    notifications(page).getByText('You have been successfully logged out.'),
  ).toBeVisible()
  await expect(page).toHaveURL(/\/auth$/)
}

test('a new account starts with 20 credits, signs out and signs in again', async ({ page }) => {
  const ada = newPerson('Ada Lovelace')
  await register(page, ada)

  const header = page.getByRole('banner')
  await expect(header.getByText('20 Credits')).toBeVisible()
  await expect(header.getByText('AL', { exact: true })).toBeVisible()
  await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'aria-current',
    'page',
  )

  // The avatar menu, as spec §2 lists it.
  await header.getByRole('button', { name: 'Account menu' }).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByText(ada.name)).toBeVisible()
  await expect(menu.getByText(ada.email)).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: /Available Credits/ })).toBeDisabled()
  await expect(menu.getByRole('menuitem', { name: 'My Projects' })).toBeVisible()
  await expect(menu.getByRole('menuitem', { name: 'Subscription' })).toBeVisible()
  await page.keyboard.press('Escape')

  await signOut(page)
  await expect(notifications(page).getByText('Logged out', { exact: true })).toBeVisible()

  await signIn(page, ada.email, ada.password)
  await expect(notifications(page).getByText('Login successful')).toBeVisible()
  await expect(notifications(page).getByText(`Welcome back, ${ada.name}!`)).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('banner').getByText('20 Credits')).toBeVisible()
})

test('a forgotten password is reset through the emailed link', async ({ page }) => {
  const grace = newPerson('Grace Hopper')
  await register(page, grace)
  await signOut(page)

  await page.getByRole('button', { name: 'Forgot password?' }).click()
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
  await page.getByLabel('Email').fill(grace.email)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(notifications(page).getByText('Password reset email sent')).toBeVisible()
  // After the request the page returns to the login view (spec §4).
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()

  const mail = await waitForEmail(grace.email, 'Reset your Reelgraph password')
  const link = mail.links.find((url) => new URL(url).pathname === '/reset-password')
  expect(link, `a reset link in: ${mail.text}`).toBeDefined()
  await page.goto(link as string)

  const newPassword = `${grace.password}-renewed`
  await page.getByLabel('New password', { exact: true }).fill(newPassword)
  await page.getByLabel('Confirm new password').fill(newPassword)
  await page.getByRole('button', { name: 'Set new password' }).click()
  await expect(notifications(page).getByText('Password updated')).toBeVisible()
  await expect(page).toHaveURL(/\/auth$/)

  // The old password no longer works.
  await signIn(page, grace.email, grace.password)
  await expect(notifications(page).getByText('Login failed')).toBeVisible()
  await expect(page).toHaveURL(/\/auth$/)

  await page.getByLabel('Password').fill(newPassword)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(notifications(page).getByText('Login successful')).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
})

test('an anonymous visit to the editor lands on the sign-in page', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/auth$/)
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible()
})

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no-such-page')
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible()
})
