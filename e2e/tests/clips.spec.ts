import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test'
import { type AppProcess, startAppProcess } from '../support/app-process.ts'
import { canvasNode, joinProject, notifications, registerFreshUser } from '../support/app.ts'
import { FAKE_CLIP_RGB, type FakeFal, startFakeFal } from '../support/fake-fal.ts'

// Generated motion on the canvas (issue 22 items 3-5): a Video Generator fed by a scene and
// an image makes a clip at a video provider, the job shows queued with the provider's queue
// position, then running, then the Clip node plays; the Video node renders the scene from
// the clip; a second member sees the clip arrive live.
//
// The provider is fal's queue (support/fake-fal.ts, the real protocol) held in the test's
// hand, in an app of this spec's own (`FAL_KEY`, `FAL_QUEUE_URL`), whose calls wait at most
// 1 s for their job before answering 202. At 1280x720, the smallest screen the layout
// promises.

const VIEWPORT = { width: 1280, height: 720 }
test.use({ viewport: VIEWPORT })

let app: AppProcess
let fal: FakeFal

test.beforeAll(async () => {
  test.setTimeout(180_000)
  fal = await startFakeFal()
  app = await startAppProcess(join(process.env.E2E_DATA_DIR ?? 'e2e/.data', 'clips-app'), {
    FAL_KEY: fal.key,
    FAL_QUEUE_URL: fal.url,
    JOB_WAIT_MS: '1000',
  })
})

test.afterAll(async () => {
  await app?.stop()
  await fal?.close()
})

const PROJECT_NAME = 'Tide pools'
const VISUALS = 'Waves roll into a rocky cove at dusk, slow push-in'

/** A catalog video model, as `GET /api/ai/models?kind=video` lists it. */
interface VideoModel {
  id: string
  provider: string
  name: string
  cost: { credits: number; per: 'image' | 'second' }
  capabilities?: { imageToVideo: boolean; durations: number[] }
}

async function personOn(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: app.url, viewport: VIEWPORT })
  return ctx.newPage()
}

/** Buys the medium package (sandbox billing, setup through the API): a clip costs more. */
async function buyCredits(request: APIRequestContext): Promise<void> {
  const headers = { origin: app.url }
  const checkout = await request.post('/api/purchase-credits', {
    headers,
    data: { packageId: 'medium' },
  })
  expect(checkout.status(), await checkout.text()).toBe(200)
  const { url } = (await checkout.json()) as { url: string }
  const paid = await request.post(`${new URL(url, app.url).pathname}/pay`, {
    headers,
    maxRedirects: 0,
  })
  expect(paid.status(), await paid.text()).toBe(303)
}

/** The fal model the test picks: one that starts from an image and makes 5 s clips. */
async function falModel(request: APIRequestContext): Promise<VideoModel> {
  const res = await request.get('/api/ai/models?kind=video')
  expect(res.status(), await res.text()).toBe(200)
  const { items } = (await res.json()) as { items: VideoModel[] }
  const model = items.find(
    (m) =>
      m.provider === 'fal' &&
      m.capabilities?.imageToVideo === true &&
      m.capabilities.durations.includes(5),
  )
  expect(model, JSON.stringify(items.map((m) => m.id))).toBeDefined()
  return model!
}

/**
 * Two scenes, each with an image generator, both connected to a Video node (setup through the
 * API); then each scene's image, generated through the API.
 */
async function projectWithScenes(request: APIRequestContext) {
  const now = Date.now()
  const id = (type: string, n: number) => `${type}-${now}-e${n}`
  const nodes = [1, 2].flatMap((n) => [
    {
      id: id('scene', n),
      type: 'scene',
      label: `Scene ${n}`,
      position: { x: 0, y: (n - 1) * 900 },
      data: {
        sceneNumber: String(n),
        narration: n === 1 ? 'The tide comes in.' : 'Crabs hide under the rocks.',
        visuals: n === 1 ? VISUALS : 'A crab under a rock',
      },
    },
    {
      id: id('image-generator', n),
      type: 'image-generator',
      label: `Image Generator ${n}`,
      position: { x: 400, y: (n - 1) * 900 },
      data: {},
    },
  ])
  const video = {
    id: id('video', 1),
    type: 'video',
    label: 'Video',
    position: { x: 2000, y: 0 },
    data: {},
  }
  const connections = [1, 2].flatMap((n) => [
    { source: id('scene', n), target: id('image-generator', n) },
    { source: id('scene', n), target: video.id },
  ])
  const created = await request.post('/api/projects', {
    headers: { origin: app.url },
    data: { name: PROJECT_NAME, nodes: [...nodes, video], connections },
  })
  expect(created.status(), await created.text()).toBe(201)
  const projectId = ((await created.json()) as { id: number }).id

  const models = (await (await request.get('/api/csas/models')).json()) as {
    items: { modelVersions: { id: string | number }[] }[]
  }
  const modelVersionId = String(models.items[0]!.modelVersions[0]!.id)
  for (const n of [1, 2]) {
    const res = await request.post('/api/csas/generate-image', {
      headers: { origin: app.url },
      data: {
        projectId,
        nodeId: id('image-generator', n),
        modelVersionId,
        prompt: `A tide pool ${n}`,
        negativePrompt: '',
        width: 640,
        height: 360,
        numInferenceSteps: 20,
        guidanceScale: 7,
      },
    })
    expect([200, 202], await res.text()).toContain(res.status())
  }
  // Each image node, once the jobs wrote them, by the generator it hangs off.
  let images: { id: string; imageUrl: string }[] = []
  await expect
    .poll(
      async () => {
        const project = (await (await request.get(`/api/projects/${projectId}`)).json()) as {
          nodes: { id: string; type: string; data: { imageUrl?: string } }[]
          connections: { source: string; target: string }[]
        }
        images = [1, 2].map((n) => {
          const link = project.connections.find(
            (c) =>
              c.source === id('image-generator', n) &&
              project.nodes.find((node) => node.id === c.target)?.type === 'image',
          )
          const node = project.nodes.find((x) => x.id === link?.target)
          return { id: node?.id ?? '', imageUrl: node?.data.imageUrl ?? '' }
        })
        return images.every((i) => i.imageUrl !== '')
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  return { projectId, sceneIds: [id('scene', 1), id('scene', 2)], images }
}

/** Where the canvas shows no node (its pane: a drag there pans the view), in page pixels. */
async function emptyCanvasPoint(page: Page): Promise<{ x: number; y: number }> {
  // The page's DOM, as much of it as this reads (the tests compile without the DOM library).
  type Box = { top: number; bottom: number; left: number; right: number }
  type El = {
    getBoundingClientRect(): Box
    classList: { contains(name: string): boolean }
    ownerDocument: { elementFromPoint(x: number, y: number): El | null }
  }
  const point = await page.locator('.react-flow').evaluate((element) => {
    const canvas = element as unknown as El
    const box = canvas.getBoundingClientRect()
    for (let y = box.top + 20; y < box.bottom - 20; y += 16) {
      for (let x = box.left + 20; x < box.right - 20; x += 16) {
        const hit = canvas.ownerDocument.elementFromPoint(x, y)
        if (hit?.classList.contains('react-flow__pane')) return { x, y }
      }
    }
    return null
  })
  expect(point, 'an empty place on the canvas').not.toBeNull()
  return point!
}

/**
 * Brings `node` to the middle of the canvas at about `percent` % zoom, as a person would
 * (the wheel zooms, a drag on the empty canvas pans): zoomed out below 40 % a node shows only
 * its summary, and at 1280x720 a whole graph fits only below that.
 */
async function showNode(page: Page, node: Locator, percent = 60): Promise<void> {
  const zoom = page.getByRole('status', { name: 'Zoom level' })
  const zoomNow = async () => Number.parseInt((await zoom.textContent()) ?? '0', 10)
  const at = await emptyCanvasPoint(page)
  await page.mouse.move(at.x, at.y)
  for (let i = 0; i < 40 && (await zoomNow()) < percent; i++) await page.mouse.wheel(0, -100)
  for (let i = 0; i < 40 && (await zoomNow()) > percent + 5; i++) await page.mouse.wheel(0, 100)
  const canvas = (await page.locator('.react-flow').boundingBox())!
  const box = (await node.boundingBox())!
  const from = await emptyCanvasPoint(page)
  const dx = canvas.x + canvas.width / 2 - (box.x + box.width / 2)
  const dy = canvas.y + canvas.height / 2 - (box.y + box.height / 2)
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 8 })
  await page.mouse.up()
}

/** Opens the project with everything in view. */
async function openProject(page: Page, projectId: number) {
  await page.goto(`/?id=${projectId}`)
  await expect(canvasNode(page, 'Video')).toBeVisible()
  await page.getByRole('button', { name: 'Fit view' }).click()
}

/** Seconds of a media file by ffprobe's reading of its container. */
function probeDurationS(path: string): number {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'default=noprint_wrappers=1:nokey=1',
    path,
  ])
  return Number(out.toString().trim())
}

/** The mean colour (RGB) of a picture, or of a video's frame at `atS`, by ffmpeg. */
function meanColour(path: string, atS?: number): number[] {
  const seek = atS === undefined ? [] : ['-ss', atS.toFixed(3)]
  const out = execFileSync('ffmpeg', [
    '-v',
    'error',
    ...seek,
    '-i',
    path,
    '-frames:v',
    '1',
    '-vf',
    'scale=1:1:flags=area',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ])
  return [...out]
}

const distance = (a: readonly number[], b: readonly number[]) =>
  Math.hypot(...a.map((v, i) => v - (b[i] ?? 0)))

test('a Video Generator fed by a scene and an image makes a clip that plays, renders into the video, and reaches a second member live', async ({
  browser,
}, testInfo) => {
  test.setTimeout(420_000)
  const ada = await personOn(browser)
  const bo = await personOn(browser)
  try {
    await registerFreshUser(ada.request, app.url, 'Agnes Varda')
    await buyCredits(ada.request)
    const model = await falModel(ada.request)
    const { projectId, sceneIds, images } = await projectWithScenes(ada.request)
    await joinProject({
      owner: ada,
      page: bo,
      projectId,
      projectName: PROJECT_NAME,
      name: 'Bo Widerberg',
      role: 'editor',
      baseURL: app.url,
      dataDir: app.dataDir,
    })
    await openProject(ada, projectId)
    await openProject(bo, projectId)

    // A Video Generator from the Nodes Library, fed by Scene 1 and by Scene 1's image.
    await ada.getByRole('button', { name: 'Add Video Generator' }).click()
    const generator = canvasNode(ada, 'Video Generator')
    await expect(generator).toBeVisible()
    await ada.getByRole('button', { name: 'Fit view' }).click()
    await ada
      .locator(`[data-id="${sceneIds[0]}"] .react-flow__handle-right`)
      .dragTo(generator.locator('.react-flow__handle-left'))
    await expect(notifications(ada).getByText('Prompt Updated')).toBeVisible()
    // An image is only fed: from the generator's output to the image's input.
    await generator
      .locator('.react-flow__handle-right')
      .dragTo(ada.locator(`[data-id="${images[0]!.id}"] .react-flow__handle-left`))
    await expect(notifications(ada).getByText('Start Image Set')).toBeVisible()
    await showNode(ada, generator)
    await expect(generator.getByLabel('Prompt', { exact: true })).toHaveValue(VISUALS)
    await expect(generator.getByText('Fed by Scene 1.')).toBeVisible()
    const startImage = generator.getByLabel('Start image', { exact: true })
    await expect(startImage).toHaveValue(images[0]!.imageUrl)
    await expect(generator.getByRole('img', { name: /^Start image/ })).toBeVisible()

    // The fake fal model, picked from the models grouped by provider, 5 s.
    const picker = generator.getByLabel('Video model')
    await expect(picker.locator(`optgroup option[value="${model.id}"]`)).toHaveCount(1)
    await picker.selectOption(model.id)
    await generator.getByLabel('Duration').selectOption('5')
    const credits =
      model.cost.per === 'second' ? Math.ceil(model.cost.credits * 5 - 1e-9) : model.cost.credits
    const generate = generator.getByRole('button', { name: /^(Generate clip|Generating\.\.\.)/ })
    await expect(generate).toHaveText(
      `Generate clip · 5 s · ${credits} ${credits === 1 ? 'credit' : 'credits'}`,
    )

    // Generate: fal holds it second in its queue, and the generator says so.
    fal.hold(2)
    const sent = fal.requests.length
    const answered = ada.waitForResponse((r) => r.url().endsWith('/api/ai/generate-video'))
    await generate.click()
    await fal.waitForRequests(sent + 1)
    expect((await answered).status()).toBe(202)
    const request = fal.requests.at(-1)!
    expect(request.authorization).toBe(`Key ${fal.key}`)
    expect(request.model).toBe(model.id.slice('fal:'.length))
    expect(JSON.stringify(request.input)).toContain(VISUALS)
    // The start image goes as a data URI in the model's input, never a link into the app.
    const values = Object.values(request.input).filter((v) => typeof v === 'string')
    expect(values.some((v) => v.startsWith('data:image/'))).toBe(true)
    expect(values.some((v) => v.includes('/api/assets/'))).toBe(false)

    const state = generator.getByRole('status')
    const theirs = canvasNode(bo, 'Video Generator')
    await fal.waitForStatusRead('IN_QUEUE')
    await expect(state).toContainText('position 2')
    await expect(generate).toHaveText('Generating...')
    await expect(generator.getByRole('button', { name: 'Cancel', exact: true })).toBeEnabled()
    await showNode(bo, theirs)
    await expect(theirs.getByRole('status')).toContainText('position 2')

    // It starts: running, with its progress bar, the position gone.
    fal.start()
    await fal.waitForStatusRead('IN_PROGRESS')
    await expect(state).toContainText('Generating the clip')
    await expect(state).not.toContainText('position')
    await expect(generator.getByRole('progressbar', { name: 'Generation progress' })).toBeVisible()

    // Done: the Clip node plays, for Ada and, live, for Bo.
    fal.release()
    const clip = canvasNode(ada, 'Clip')
    await expect(clip).toBeVisible({ timeout: 60_000 })
    await showNode(ada, clip)
    const player = clip.locator('video')
    await expect(player).toBeVisible()
    await expect(notifications(ada).getByText(/Failed to generate/)).toHaveCount(0)
    await expect(player).toHaveAttribute('poster', /\/api\/assets\//)
    await expect(clip.getByText(model.name, { exact: false })).toBeVisible()
    await expect(clip.getByText(VISUALS)).toBeVisible()
    await expect(clip.getByRole('link', { name: 'MP4' })).toHaveAttribute('href', /download=1$/)
    await expect(generate).toHaveText(/^Generate clip/)
    type Media = {
      readyState: number
      duration: number
      currentTime: number
      muted: boolean
      play(): Promise<void>
      addEventListener(event: string, listener: () => void): void
    }
    const clipS = await player.evaluate(
      (el) =>
        new Promise<number>((resolve, reject) => {
          const media = el as unknown as Media
          if (media.readyState >= 1) resolve(media.duration)
          media.addEventListener('loadedmetadata', () => resolve(media.duration))
          media.addEventListener('error', () => reject(new Error('the clip did not load')))
        }),
    )
    expect(clipS).toBeCloseTo(5, 0)
    await player.evaluate(async (el) => {
      const media = el as unknown as Media
      media.muted = true
      await media.play()
    })
    await expect
      .poll(() => player.evaluate((el) => (el as unknown as Media).currentTime), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(1)
    await expect(canvasNode(bo, 'Clip')).toBeVisible({ timeout: 30_000 })
    await showNode(bo, canvasNode(bo, 'Clip'))
    const theirClip = canvasNode(bo, 'Clip').locator('video')
    await expect(theirClip).toBeVisible()
    await expect(theirClip).toHaveAttribute('src', (await player.getAttribute('src'))!)
    await ada.screenshot({ path: testInfo.outputPath('clip-1280x720.png') })

    // The Video node renders Scene 1 from its clip, Scene 2 from its image.
    const video = canvasNode(ada, 'Video')
    await showNode(ada, video)
    await expect(video.getByText('Scene 1: clip 0:05')).toBeVisible()
    await expect(video.getByText('Scene 2: image')).toBeVisible()
    await expect(video.getByLabel('Clip fit')).toHaveValue('cover')
    await video.getByRole('button', { name: /^Render video/ }).click()
    const rendered = video.locator('video')
    const failed = ada.getByText(/^Failed to generate /)
    await expect(rendered.or(failed).first()).toBeVisible({ timeout: 240_000 })
    await expect(failed, 'the render failed on the canvas').toHaveCount(0)
    await showNode(ada, video)
    const renderedS = await rendered.evaluate(
      (el) =>
        new Promise<number>((resolve, reject) => {
          const media = el as unknown as Media
          if (media.readyState >= 1) resolve(media.duration)
          media.addEventListener('loadedmetadata', () => resolve(media.duration))
          media.addEventListener('error', () => reject(new Error('the video did not load')))
        }),
    )
    const download = ada.waitForEvent('download')
    await video.getByRole('link', { name: 'MP4' }).click()
    const mp4 = await (await download).path()
    // Its length by ffprobe is the one the page plays: two scenes of at least 2 s each.
    const lengthS = probeDurationS(mp4)
    expect(Math.abs(lengthS - renderedS)).toBeLessThanOrEqual(0.1)
    expect(lengthS).toBeGreaterThan(3.5)

    // Inside Scene 1 the frame is the clip's, not the still's; Scene 2 keeps its still.
    const stills = await Promise.all(
      images.map(async (image, i) => {
        const res = await ada.request.get(image.imageUrl)
        expect(res.status()).toBe(200)
        const path = testInfo.outputPath(`still-${i + 1}`)
        writeFileSync(path, await res.body())
        return meanColour(path)
      }),
    )
    const inClip = meanColour(mp4, 0.3)
    const inStill = meanColour(mp4, lengthS - 0.3)
    expect(distance(inClip, FAKE_CLIP_RGB), `scene 1 frame ${inClip}`).toBeLessThan(60)
    expect(distance(inClip, stills[0]!), `scene 1 still ${stills[0]}`).toBeGreaterThan(60)
    expect(distance(inStill, stills[1]!)).toBeLessThan(distance(inStill, FAKE_CLIP_RGB))
  } finally {
    await bo.context().close()
    await ada.context().close()
  }
})
