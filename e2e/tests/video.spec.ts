import { expect, type Page, test } from '@playwright/test'
import { canvasNode, registerFreshUser } from '../support/app.ts'

// The Video node (issue 13 item 5) on the builtin offline providers: it lists the scenes
// without an image, renders a connected text node's scenes for the credits its button
// advertises, then plays the MP4 with its downloads, and says Stale once a scene changes.

test.use({ viewport: { width: 1600, height: 1200 } })

const now = Date.now()
const id = (type: string, n: number) => `${type}-${now}-n${n}`
const node = (type: string, n: number, x: number, y: number, label: string, data = {}) => ({
  id: id(type, n),
  type,
  label,
  position: { x, y },
  data,
})

/** Text -> two scenes -> an image generator each; the text -> the Video node. */
function graph() {
  const text = node('editable-text', 1, 0, 0, 'Text', { content: 'Tide pools.', sceneCount: 2 })
  const video = node('video', 1, 1400, 0, 'Video', {
    preset: '16:9',
    voice: '',
    subtitles: true,
    music: false,
  })
  const nodes = [text, video]
  const connections = [{ source: text.id, target: video.id }]
  for (const n of [1, 2]) {
    const scene = node('scene', n, 400, (n - 1) * 450, `Scene ${n}`, {
      sceneNumber: String(n),
      narration: `Scene ${n}. Crabs hide under rocks.`,
      visuals: 'A tide pool',
    })
    const generator = node('image-generator', n, 800, (n - 1) * 650, `Image Generator ${n}`)
    nodes.push(scene, generator)
    connections.push(
      { source: text.id, target: scene.id },
      { source: scene.id, target: generator.id },
    )
  }
  return { nodes, connections }
}

function creditsPill(page: Page, credits: number) {
  return page.getByRole('banner').getByText(`${credits} Credits`, { exact: true })
}

test('a Video node renders a text node’s scenes into a video with its downloads, then goes Stale', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const headers = { origin: baseURL ?? '' }
  await registerFreshUser(page.request, baseURL, 'Jacques Cousteau')
  const { costs } = (await (await page.request.get('/api/ai/providers')).json()) as {
    costs: { image: number; voice: number; video: number }
  }
  const created = await page.request.post('/api/projects', {
    headers,
    data: { name: 'Tide pools', ...graph() },
  })
  expect(created.status(), await created.text()).toBe(201)
  const projectId = ((await created.json()) as { id: number }).id

  await page.goto(`/?id=${projectId}`)
  await page.getByRole('button', { name: 'Fit view' }).click()
  const video = canvasNode(page, 'Video')
  const render = video.getByRole('button', { name: /^Render video/ })
  const cost = costs.video + 2 * costs.voice
  await expect(render).toHaveText(`Render video · ${cost} credits`)
  await expect(render).toBeDisabled()
  const missing = video.getByRole('group', { name: 'Scenes without an image' })
  await expect(missing.getByText(/^Scene 1:/)).toBeVisible()
  await expect(missing.getByText(/^Scene 2:/)).toBeVisible()

  // Each scene's image, generated through the API (the main-job spec covers the button).
  const models = (await (await page.request.get('/api/csas/models')).json()) as {
    items: { modelVersions: { id: string | number }[] }[]
  }
  const modelVersionId = String(models.items[0]!.modelVersions[0]!.id)
  for (const n of [1, 2]) {
    const res = await page.request.post('/api/csas/generate-image', {
      headers,
      data: {
        projectId,
        nodeId: id('image-generator', n),
        modelVersionId,
        prompt: `A tide pool ${n}`,
        negativePrompt: '',
        width: 512,
        height: 512,
        numInferenceSteps: 20,
        guidanceScale: 7,
      },
    })
    expect([200, 202]).toContain(res.status())
  }
  await expect(missing).toBeHidden({ timeout: 30_000 })
  await expect(render).toBeEnabled()
  await expect(creditsPill(page, 20 - 2 * costs.image)).toBeVisible()

  await render.click()
  const player = video.locator('video')
  await expect(player).toBeVisible({ timeout: 120_000 })
  await expect(creditsPill(page, 20 - 2 * costs.image - cost)).toBeVisible()
  for (const name of ['MP4', 'SRT', 'VTT']) {
    await expect(video.getByRole('link', { name })).toHaveAttribute('href', /download=1$/)
  }
  const mp4 = await page.request.get((await player.getAttribute('src'))!, {
    headers: { Range: 'bytes=0-99' },
  })
  expect(mp4.status()).toBe(206)
  await expect(video.getByText(/^Stale/)).toBeHidden()

  // A scene's narration changes: the video no longer matches its inputs.
  await canvasNode(page, 'Scene 2').getByLabel('Narration').fill('Scene 2. Anemones wave.')
  await expect(video.getByText(/^Stale/)).toBeVisible()
})
