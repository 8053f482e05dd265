import { expect, type Page, test } from '@playwright/test'
import { notifications, registerFreshUser } from '../support/app.ts'

// The /projects page, as spec §2 (/projects), §5 Projects and §8 Projects describe it, and
// issue 3: owners only, everyone else gets 404.

/** One project card, found by its name. */
function card(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true })
}

/** The id in a card's Open link (`/?id=<id>`). */
async function projectIdOf(page: Page, name: string): Promise<number> {
  const href = await card(page, name)
    .getByRole('link', { name: `Open ${name}` })
    .getAttribute('href')
  const id = Number(new URL(href ?? '', 'http://x').searchParams.get('id'))
  expect(Number.isInteger(id) && id > 0, `id in ${String(href)}`).toBe(true)
  return id
}

test('a person creates, renames, opens and deletes a project', async ({ page, baseURL }) => {
  await registerFreshUser(page.request, baseURL, 'Grace Hopper')
  await page.goto('/projects')
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible()

  // New project: the name starts as "My Project"; the button waits for a non-blank name.
  await page.getByRole('button', { name: 'Create your first project' }).click()
  const createDialog = page.getByRole('dialog', { name: 'New project' })
  const nameField = createDialog.getByLabel('Name')
  await expect(nameField).toHaveValue('My Project')
  await expect(nameField).toBeFocused()
  const create = createDialog.getByRole('button', { name: 'Create project' })
  await nameField.fill('')
  await expect(create).toBeDisabled()
  await nameField.fill('   ')
  await expect(create).toBeDisabled()
  await nameField.fill('  Storyboard  ')
  await expect(create).toBeEnabled()
  await create.click()
  await expect(notifications(page).getByText('Project Created')).toBeVisible()
  await expect(createDialog).toBeHidden()

  const storyboard = card(page, 'Storyboard')
  await expect(storyboard).toBeVisible()
  await expect(storyboard.getByText(/^Created on \w+ \d{1,2}, \d{4}$/)).toBeVisible()
  await expect(storyboard.getByText(/^Last updated \w+ \d{1,2}, \d{4}$/)).toBeVisible()
  await expect(storyboard.getByText('0 nodes', { exact: true })).toBeVisible()
  const id = await projectIdOf(page, 'Storyboard')

  // Rename, from the keyboard.
  await storyboard.getByRole('button', { name: 'Rename Storyboard' }).focus()
  await page.keyboard.press('Enter')
  const renameDialog = page.getByRole('dialog', { name: 'Rename project' })
  await expect(renameDialog.getByLabel('Name')).toHaveValue('Storyboard')
  await renameDialog.getByLabel('Name').fill(' ')
  await expect(renameDialog.getByRole('button', { name: 'Rename' })).toBeDisabled()
  await renameDialog.getByLabel('Name').fill('Storyboard v2')
  await page.keyboard.press('Enter')
  await expect(notifications(page).getByText('Project Renamed')).toBeVisible()
  await expect(renameDialog).toBeHidden()
  await expect(card(page, 'Storyboard v2')).toBeVisible()
  await expect(card(page, 'Storyboard')).toHaveCount(0)
  // Focus went back to the card's Rename button.
  await expect(card(page, 'Storyboard v2').getByRole('button', { name: /^Rename/ })).toBeFocused()

  // The server has the new name.
  await page.reload()
  await expect(card(page, 'Storyboard v2')).toBeVisible()
  const stored = await page.request.get(`/api/projects/${String(id)}`)
  expect(stored.status()).toBe(200)
  expect(((await stored.json()) as { name: string }).name).toBe('Storyboard v2')

  // Open goes to the canvas with the project's id.
  await card(page, 'Storyboard v2').getByRole('link', { name: 'Open Storyboard v2' }).click()
  await expect(page).toHaveURL(new RegExp(`/\\?id=${String(id)}$`))
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' })
  await expect(breadcrumb.getByRole('button', { name: /Storyboard v2/ })).toBeVisible()
  // The editor keeps a copy of the project on this device.
  const deviceCopy = `reelgraph-project-${String(id)}`
  const deviceCopies = () =>
    page.evaluate(async () => {
      // The browser's IndexedDB (this project compiles without the DOM types).
      const { indexedDB } = globalThis as unknown as {
        indexedDB: { databases(): Promise<{ name?: string }[]> }
      }
      return (await indexedDB.databases()).map((db) => db.name ?? '')
    })
  await expect.poll(deviceCopies).toContain(deviceCopy)

  // Delete asks first, naming the project; Cancel keeps it.
  await breadcrumb.getByRole('link', { name: 'Projects' }).click()
  await expect(page).toHaveURL(/\/projects$/)
  await card(page, 'Storyboard v2').getByRole('button', { name: 'Delete Storyboard v2' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete “Storyboard v2”?' })
  await expect(confirm).toBeVisible()
  await expect(confirm.getByText(/can’t be undone/)).toBeVisible()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await expect(card(page, 'Storyboard v2')).toBeVisible()

  await card(page, 'Storyboard v2').getByRole('button', { name: 'Delete Storyboard v2' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(notifications(page).getByText('Project Deleted')).toBeVisible()
  await expect(confirm).toBeHidden()
  await expect(card(page, 'Storyboard v2')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible()
  // Its card is gone, so focus lands on the page heading rather than on nothing.
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeFocused()
  expect((await page.request.get(`/api/projects/${String(id)}`)).status()).toBe(404)
  // Deleting it cleared its copy on this device too.
  await expect.poll(deviceCopies).not.toContain(deviceCopy)
})

test("a second person sees none of the first person's projects", async ({
  browser,
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Ada Lovelace')
  await page.goto('/projects')
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByLabel('Name').fill('Analytical Engine')
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(notifications(page).getByText('Project Created')).toBeVisible()
  const id = await projectIdOf(page, 'Analytical Engine')

  const otherContext = await browser.newContext()
  try {
    const other = await otherContext.newPage()
    await registerFreshUser(other.request, baseURL, 'Charles Babbage')
    await other.goto('/projects')
    await expect(other.getByRole('heading', { name: 'No projects yet' })).toBeVisible()
    await expect(card(other, 'Analytical Engine')).toHaveCount(0)

    const res = await other.request.get(`/api/projects/${String(id)}`)
    expect(res.status()).toBe(404)
    const list = await other.request.get('/api/projects')
    expect(await list.json()).toEqual([])
  } finally {
    await otherContext.close()
  }

  // The owner still has it.
  expect((await page.request.get(`/api/projects/${String(id)}`)).status()).toBe(200)
})

test('failures on the projects page are logged and said inline, not toasted', async ({
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Hedy Lamarr')
  const logged: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text())
  })

  // The list fails: a message and Retry, which works once the server answers again.
  let failList = true
  await page.route('**/api/projects', (route) =>
    failList && route.request().method() === 'GET'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Database unavailable' } }),
        })
      : route.fallback(),
  )
  await page.goto('/projects')
  const alert = page.getByRole('alert').filter({ hasText: 'Couldn’t load your projects.' })
  await expect(alert).toBeVisible({ timeout: 15_000 })
  await expect(alert.getByText('Database unavailable')).toBeVisible()
  expect(logged.some((text) => text.includes('Failed to load projects.'))).toBe(true)
  failList = false
  await alert.getByRole('button', { name: 'Retry' }).click()
  await expect(page.getByRole('heading', { name: 'No projects yet' })).toBeVisible()

  // Creating fails: the dialog stays open and says so; no toast.
  await page.route('**/api/projects', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' })
      : route.fallback(),
  )
  await page.getByRole('button', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'New project' })
  await dialog.getByRole('button', { name: 'Create project' }).click()
  await expect(dialog.getByRole('alert')).toContainText(
    'Failed to create project. Please try again.',
  )
  await expect(dialog.getByRole('button', { name: 'Create project' })).toBeEnabled()
  expect(logged.some((text) => text.includes('Failed to create project.'))).toBe(true)
  await expect(notifications(page).getByRole('listitem')).toHaveCount(0)
})

test('a project card shows a small preview of its graph (issue 14)', async ({ page, baseURL }) => {
  await registerFreshUser(page.request, baseURL, 'Alan Kay')
  const now = Date.now()
  const nodes = [0, 1, 2].map((i) => ({
    id: `scene-${now}-p${i}`,
    type: 'scene',
    label: `Scene ${i + 1}`,
    position: { x: i * 400, y: i * 100 },
    data: { sceneNumber: String(i + 1), narration: '', visuals: '' },
    connectionPoints: 'both',
  }))
  const res = await page.request.post('/api/projects', {
    headers: { origin: baseURL ?? '' },
    data: { name: 'Previewed', nodes },
  })
  expect(res.status(), await res.text()).toBe(201)
  await page.goto('/projects')
  const previewed = card(page, 'Previewed')
  await expect(previewed.getByText('3 nodes')).toBeVisible()
  await expect(previewed.getByTestId('project-preview').locator('rect')).toHaveCount(3)
})
