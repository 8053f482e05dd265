import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import {
  canvasNode,
  createProject,
  registerFreshUser,
  describeAtIssue14Viewports,
} from '../support/app.ts'

// Issue 14 item 9: every control named, connections out of the Tab order unless selected
// and named by their nodes, the editor's top bar at 390 px, and axe-core over /auth, /,
// /projects and /subscription with no serious or critical violations. At 1280x720 and 1440x900.

/** The serious and critical axe-core violations of the page as it is now, readable. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(', ')}`)
}

/** A project with a script generator feeding a text node (setup through the API). */
async function projectWithConnection(page: Page, baseURL: string | undefined) {
  const id = await createProject(page.request, baseURL, 'Honeybees')
  const generator = 'script-generator-1700000000000-aaaa'
  const text = 'editable-text-1700000000000-bbbb'
  const res = await page.request.patch(`/api/projects/${id}`, {
    headers: { origin: baseURL ?? '' },
    data: {
      nodes: [
        {
          id: generator,
          type: 'script-generator',
          label: 'Script Generator',
          position: { x: 40, y: 40 },
          data: { topic: 'How honeybees make honey' },
          connectionPoints: 'output',
        },
        {
          id: text,
          type: 'editable-text',
          label: 'Generated Script',
          position: { x: 480, y: 40 },
          data: { content: 'Bees gather nectar.', sceneCount: 6 },
          connectionPoints: 'both',
        },
      ],
      connections: [{ source: generator, target: text }],
    },
  })
  expect(res.ok(), await res.text()).toBe(true)
  return { id, generator, text }
}

describeAtIssue14Viewports('at {size}', () => {
  test('axe-core finds no serious or critical violations on /auth, /, /projects and /subscription', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/auth')
    await expect(page.getByRole('button', { name: 'Sign in' }).first()).toBeVisible()
    expect(await seriousViolations(page), '/auth').toEqual([])

    await registerFreshUser(page.request, baseURL, 'Alice Ball')
    await projectWithConnection(page, baseURL)
    await page.goto('/')
    await expect(canvasNode(page, 'Generated Script')).toBeVisible()
    expect(await seriousViolations(page), '/').toEqual([])

    await page.goto('/projects')
    await expect(page.getByRole('heading', { name: 'Honeybees' })).toBeVisible()
    expect(await seriousViolations(page), '/projects').toEqual([])

    await page.goto('/subscription')
    await expect(page.getByRole('region', { name: 'Current subscription' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Medium' })).toBeVisible()
    expect(await seriousViolations(page), '/subscription').toEqual([])
  })

  test('the scene-count slider is named, and connections are named by their nodes and tabbable only when selected', async ({
    page,
    baseURL,
  }) => {
    await registerFreshUser(page.request, baseURL, 'Annie Easley')
    const { id, generator, text } = await projectWithConnection(page, baseURL)
    await page.goto(`/?id=${id}`)
    const textNode = canvasNode(page, 'Generated Script')
    await expect(textNode).toBeVisible()
    await expect(textNode.getByRole('slider', { name: 'Number of scenes' })).toHaveValue('6')

    const connection = page.getByRole('img', {
      name: 'Connection from Script Generator to Generated Script',
    })
    await expect(connection).toHaveCount(1)
    await expect(connection).not.toHaveAttribute('tabindex', /.*/)
    const names = await page
      .locator('[aria-roledescription="edge"]')
      .evaluateAll((edges) => edges.map((e) => e.getAttribute('aria-label') ?? ''))
    expect(names.join(' ')).not.toContain(generator)
    expect(names.join(' ')).not.toContain(text)

    // Tab from the first node through the canvas never stops on the connection.
    await canvasNode(page, 'Script Generator').focus()
    for (let i = 0; i < 30; i += 1) {
      await page.keyboard.press('Tab')
      const focused = await page.evaluate(() => {
        const el = (globalThis as unknown as { document: { activeElement: unknown } }).document
          .activeElement as { getAttribute(name: string): string | null } | null
        return el?.getAttribute('aria-roledescription') ?? null
      })
      expect(focused).not.toBe('edge')
    }

    // Selected (clicked), it can be reached with the keyboard, and keeps its name.
    await page.locator('[aria-roledescription="edge"] path').first().click({ force: true })
    const selected = page.getByRole('group', {
      name: 'Connection from Script Generator to Generated Script',
    })
    await expect(selected).toHaveAttribute('tabindex', '0')
  })
})

test('at 390 px the editor’s top bar keeps the project name clear of the presence avatars', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await registerFreshUser(page.request, baseURL, 'Katherine Coleman')
  const id = await createProject(page.request, baseURL, 'A documentary about honeybees')
  await page.goto(`/?id=${id}`)
  const name = page
    .getByRole('navigation', { name: 'Breadcrumb' })
    .getByRole('button', { name: /A documentary about honeybees/ })
  const avatars = page.getByRole('list', { name: 'People on this project' })
  await expect(avatars).toBeVisible()
  await expect(name).toBeVisible()
  const nameBox = await name.boundingBox()
  const avatarsBox = await avatars.boundingBox()
  if (!nameBox || !avatarsBox) throw new Error('the name or the avatars are not on screen')
  expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(avatarsBox.x)
  await expect(page.getByRole('button', { name: 'Share' })).toBeInViewport({ ratio: 1 })
  // Nothing is wider than the screen.
  const overflow = await page.evaluate(() => {
    const root = (
      globalThis as unknown as {
        document: { documentElement: { scrollWidth: number; clientWidth: number } }
      }
    ).document.documentElement
    return root.scrollWidth - root.clientWidth
  })
  expect(overflow).toBe(0)
})
