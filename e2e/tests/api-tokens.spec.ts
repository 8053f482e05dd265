import { expect, test } from '@playwright/test'
import { createProject, registerFreshUser } from '../support/app.ts'

// Issue 41 item 1: the API tokens page at 1280x720. A person makes a token, copies it from
// the once-only view, a program uses it with no cookie and no Origin, the person revokes it,
// and the program is refused.

test.use({ viewport: { width: 1280, height: 720 } })

test('a person makes an API token, a program uses it, the person revokes it', async ({
  page,
  baseURL,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await registerFreshUser(page.request, baseURL, 'Ada Lovelace')
  await createProject(page.request, baseURL, 'Blog videos')

  // From the user menu.
  await page.goto('/projects')
  await page.getByRole('button', { name: /^Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'API tokens' }).click()
  await expect(page).toHaveURL(/\/settings\/api-tokens$/)
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible()
  await expect(page.getByText('No API tokens yet')).toBeVisible()

  // The form fits the screen: its button is on it without scrolling.
  const make = page.getByRole('button', { name: 'Make token' })
  const box = await make.boundingBox()
  expect(box && box.y + box.height).toBeLessThanOrEqual(720)

  await page.getByLabel('Name', { exact: true }).fill('Blog robot')
  await expect(page.getByRole('checkbox', { name: 'Read projects' })).toBeChecked()
  await page.getByLabel('Expires', { exact: true }).selectOption({ label: '30 days' })
  await make.click()

  // Shown once, with Copy.
  await expect(
    page.getByRole('heading', { name: /Copy your new token “Blog robot” now/ }),
  ).toBeVisible()
  await expect(page.getByText('It will not be shown again.')).toBeVisible()
  const field = page.getByRole('textbox', { name: 'Your new API token' })
  const token = await field.inputValue()
  expect(token).toMatch(/^rg_[A-Za-z0-9_-]{43}$/)
  await page.getByRole('button', { name: 'Copy', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible()
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token)

  // Listed without its secret.
  const row = page.getByRole('row', { name: /Blog robot/ })
  await expect(row).toContainText('Read projects')
  await expect(row).toContainText('All projects')
  await expect(row).toContainText(token.slice(0, 8))
  // Never used yet (it expires in 30 days, so "Never" is its Last used).
  await expect(row).toContainText('Never')
  await page.getByRole('button', { name: 'Done, I have copied it' }).click()
  await expect(field).toBeHidden()
  expect(await page.content()).not.toContain(token)

  // A program: Node's fetch, no cookie, no Origin.
  const asProgram = () =>
    fetch(`${baseURL}/api/projects`, { headers: { authorization: `Bearer ${token}` } })
  const listed = await asProgram()
  expect(listed.status).toBe(200)
  expect(((await listed.json()) as { name: string }[]).map((p) => p.name)).toEqual(['Blog videos'])
  await page.reload()
  await expect(page.getByRole('row', { name: /Blog robot/ })).not.toContainText('Never')

  // Revoke, confirmed, from the keyboard.
  await page.getByRole('button', { name: 'Revoke Blog robot' }).focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Revoke “Blog robot”?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Revoke' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('No API tokens yet')).toBeVisible()

  const refused = await asProgram()
  expect(refused.status).toBe(401)
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
    /revoked/,
  )
})
