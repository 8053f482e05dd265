import { expect, test } from '@playwright/test'
import { canvasNode, createProject, registerFreshUser } from '../support/app.ts'

// Presence through Yjs awareness (issue 6 item 2): the people on the project in the
// toolbar, live cursors and remote selections. One person in two pages: a second person
// would need project membership (issue 6 item 1), which does not exist yet.

test('a second page sees the first one’s avatar, cursor and selection', async ({
  page,
  context,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Grace Hopper')
  const id = await createProject(page.request, baseURL, 'Presence')
  await page.goto(`/?id=${id}`)
  await expect(page.getByRole('toolbar', { name: 'Canvas controls' })).toBeVisible()
  await page.getByRole('button', { name: 'Add Script Generator' }).click()
  await expect(canvasNode(page, 'Script Generator')).toBeVisible()

  const other = await context.newPage()
  await other.goto(`/?id=${id}`)
  await expect(other.getByRole('toolbar', { name: 'Canvas controls' })).toBeVisible()
  const people = other.getByRole('list', { name: 'People on this project' })
  await expect(people.getByRole('listitem', { name: 'Grace Hopper (you)' })).toBeVisible()

  // The first page moves its pointer over the canvas and selects the node.
  await page.bringToFront()
  const box = await page.getByRole('region', { name: 'Canvas' }).boundingBox()
  if (!box) throw new Error('the canvas is not on screen')
  await page.mouse.move(box.x + 40, box.y + box.height - 60)
  await page.mouse.move(box.x + 80, box.y + box.height - 80, { steps: 5 })
  await canvasNode(page, 'Script Generator').getByText('Script Generator').first().click()

  await other.bringToFront()
  const cursor = other.getByTestId('presence-cursor')
  await expect(cursor.filter({ hasText: 'Grace Hopper' })).toHaveCount(1)
  await expect(canvasNode(other, 'Script Generator').locator('[data-remote-selected]')).toHaveCount(
    1,
  )
  // Its own selection is not outlined on the first page.
  await expect(canvasNode(page, 'Script Generator').locator('[data-remote-selected]')).toHaveCount(
    0,
  )
})
