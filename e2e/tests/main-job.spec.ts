import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import { canvasNode, notifications, registerFreshUser } from '../support/app.ts'

// The main job (issue 4, spec §4 Canvas behaviour, §5, §8, §9) on the builtin offline
// providers the e2e app runs with: a topic becomes a script, the script three scenes, a
// scene an image, each result on the canvas, and the credits pill falls by exactly the
// costs the buttons advertise.

// Room for the whole graph at a zoom where node fields still show (not compact).
test.use({ viewport: { width: 1600, height: 1200 } })

/** The header's credits pill ("N Credits", spec §2 Header). */
function creditsPill(page: Page, credits: number) {
  return page.getByRole('banner').getByText(`${credits} Credits`, { exact: true })
}

/** Brings every node into view (the canvas's Fit view control). */
async function fitView(page: Page) {
  await page.getByRole('button', { name: 'Fit view' }).click()
}

test('a topic becomes a script, scenes and an image, each charged as advertised', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await registerFreshUser(page.request, baseURL, 'Agnes Varda')
  const providers = await page.request.get('/api/ai/providers')
  expect(providers.status()).toBe(200)
  const { costs, text } = (await providers.json()) as {
    costs: { script: number; scenes: number; image: number }
    text: { offline: boolean }
  }
  expect(text.offline).toBe(true)

  // A project, from the editor's first-project form.
  await page.goto('/')
  await page.getByLabel('Project name').fill('Bees')
  await page.getByRole('button', { name: 'Create Project' }).click()
  await expect(notifications(page).getByText('Project Created')).toBeVisible()
  const id = Number(new URL(page.url()).searchParams.get('id'))
  await expect(creditsPill(page, 20)).toBeVisible()

  // Script: the button shows its cost and says the provider drafts offline.
  await page.getByRole('button', { name: 'Add Script Generator' }).click()
  const generator = canvasNode(page, 'Script Generator')
  const generateScript = generator.getByRole('button', { name: /^Generate Script/ })
  await expect(generateScript).toHaveText(
    `Generate Script · ${costs.script} ${costs.script === 1 ? 'credit' : 'credits'}`,
  )
  await expect(generator.getByText('Offline draft')).toBeVisible()
  await expect(generateScript).toBeDisabled()
  await expect(generator.getByText('Please enter a topic for your video')).toBeVisible()
  await generator.getByLabel('Topic').fill('How honey bees tell each other where flowers are')
  await generateScript.click()
  const scriptNode = canvasNode(page, 'Generated Script')
  await expect(scriptNode).toBeVisible()
  await expect(scriptNode.getByLabel('Content')).not.toHaveValue('')
  await expect(creditsPill(page, 20 - costs.script)).toBeVisible()
  await fitView(page)

  // Three scenes from the script, in one row below it.
  await scriptNode.getByLabel('Number of scenes').fill('3')
  await scriptNode.getByRole('button', { name: /^Generate Scenes/ }).click()
  for (const n of [1, 2, 3]) await expect(canvasNode(page, `Scene ${n}`)).toBeVisible()
  await expect(canvasNode(page, 'Scene 4')).toHaveCount(0)
  await expect(creditsPill(page, 20 - costs.script - costs.scenes)).toBeVisible()
  await fitView(page)
  const scene = canvasNode(page, 'Scene 1')
  const visuals = await scene.getByLabel('Visuals').inputValue()
  expect(visuals.trim()).not.toBe('')

  // An image generator connected to the scene, its prompt copied from the visuals.
  await scene.getByRole('button', { name: 'Create image generator' }).click()
  await fitView(page)
  const imageGenerator = canvasNode(page, 'Image Generator')
  await expect(imageGenerator.getByLabel('Prompt', { exact: true })).toHaveValue(visuals)
  await expect(imageGenerator.getByText('Copied from a scene’s visuals.')).toBeVisible()
  // The first model is selected by itself (spec §4); the defaults of spec §9.
  await expect(imageGenerator.getByLabel('Model', { exact: true })).not.toHaveValue('')
  await expect(imageGenerator.getByLabel('Width')).toHaveValue('1280')
  await expect(imageGenerator.getByLabel('Height')).toHaveValue('720')
  await expect(imageGenerator.getByLabel('Steps')).toHaveValue('25')
  await expect(imageGenerator.getByLabel('Guidance')).toHaveValue('7.5')
  // A smaller frame keeps the test quick; the seed stays empty, so a random one is sent.
  await imageGenerator.getByLabel('Width').fill('640')
  await imageGenerator.getByLabel('Height').fill('360')
  await imageGenerator.getByRole('button', { name: /^Generate Image/ }).click()

  // The image shows in an image node; the pill has fallen by exactly the three costs.
  const imageNode = canvasNode(page, 'Image')
  await expect(imageNode).toBeVisible({ timeout: 30_000 })
  await fitView(page)
  const img = imageNode.getByRole('img')
  await expect(img).toBeVisible()
  await expect
    .poll(() => img.evaluate((el) => (el as { naturalWidth: number }).naturalWidth))
    .toBe(640)
  await expect(imageNode.getByText('Image failed to load')).toHaveCount(0)
  await expect(creditsPill(page, 20 - costs.script - costs.scenes - costs.image)).toBeVisible()
  const credits = await page.request.get('/api/user/credits')
  expect(await credits.json()).toMatchObject({
    credits: 20 - costs.script - costs.scenes - costs.image,
  })

  // Download: generated-image.jpg, a JPEG.
  const download = page.waitForEvent('download')
  await imageNode.getByRole('link', { name: 'Download' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('generated-image.jpg')
  const bytes = await readFile(await file.path())
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])

  // Every result is connected and stored: script -> text -> 3 scenes, scene -> generator
  // -> image.
  await expect(page.locator('[aria-roledescription="edge"]')).toHaveCount(6)
  await expect(page.getByRole('banner').getByText('Saved', { exact: true })).toBeVisible({
    timeout: 20_000,
  })
  const stored = await page.request.get(`/api/projects/${id}`)
  const project = (await stored.json()) as {
    nodes: { type: string; label: string; data: Record<string, unknown> }[]
    connections: unknown[]
  }
  expect(project.nodes.map((n) => n.label).sort()).toEqual([
    'Generated Script',
    'Image',
    'Image Generator',
    'Scene 1',
    'Scene 2',
    'Scene 3',
    'Script Generator',
  ])
  expect(project.connections).toHaveLength(6)
  const image = project.nodes.find((n) => n.type === 'image')
  expect(image?.data).toMatchObject({ prompt: visuals.trim(), width: 640, height: 360 })
  expect(String(image?.data.imageUrl)).toMatch(/^\/api\/assets\//)
})

test('a failed generation says why (spec §8), and a busy button takes no second click', async ({
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Maya Deren')
  await page.goto('/')
  await page.getByRole('button', { name: 'Create Project' }).click()
  await expect(notifications(page).getByText('Project Created')).toBeVisible()
  await page.getByRole('button', { name: 'Add Script Generator' }).click()
  const generator = canvasNode(page, 'Script Generator')
  await generator.getByLabel('Topic').fill('Meshes of the afternoon')
  // Named "Generate Script · N credit(s)", or "Generating..." while busy.
  const button = generator.getByRole('button', { name: /^(Generate Script|Generating\.\.\.)/ })

  // A server answer: its message is quoted; the credits are refetched even so.
  await page.route('**/api/ai/generate-script', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'PROVIDER_ERROR', message: 'The text provider did not answer.' },
      }),
    }),
  )
  const refetched = page.waitForRequest('**/api/user/credits')
  await button.click()
  const failed = 'Failed to generate script: The text provider did not answer.'
  await expect(notifications(page).getByText(failed)).toBeVisible()
  await expect(generator.getByRole('alert')).toHaveText(failed)
  await refetched

  // No answer at all.
  await page.unroute('**/api/ai/generate-script')
  await page.route('**/api/ai/generate-script', (route) => route.abort('connectionrefused'))
  await button.click()
  const network = 'Error generating script. Please try again.'
  await expect(notifications(page).getByText(network)).toBeVisible()
  await expect(generator.getByRole('alert')).toHaveText(network)

  // While one call is under way the button is busy and a second click sends nothing.
  await page.unroute('**/api/ai/generate-script')
  let calls = 0
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/api/ai/generate-script', async (route) => {
    calls += 1
    await held
    await route.continue()
  })
  await button.click()
  await expect(button).toHaveText('Generating...')
  await expect(button).toBeDisabled()
  await button.click({ force: true })
  release()
  await expect(canvasNode(page, 'Generated Script')).toBeVisible()
  await expect(canvasNode(page, 'Generated Script')).toHaveCount(1)
  expect(calls).toBe(1)
  await expect(generator.getByRole('alert')).toHaveCount(0)
})
