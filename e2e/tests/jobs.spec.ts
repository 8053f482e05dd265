import { join } from 'node:path'
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test'
import { type AppProcess, startAppProcess } from '../support/app-process.ts'
import { canvasNode, joinProject, notifications, registerFreshUser } from '../support/app.ts'
import { type FakeA1111, startFakeA1111 } from '../support/fake-a1111.ts'

// Generation as durable jobs (issue 12): a generation runs on the server as a job, whose
// state every member sees on the node that started it and whose result the server writes
// into the project, whether or not anybody still has it open.
//
// These tests need a generation that lasts as long as they want, so they run their own app
// whose image provider is a Stable Diffusion server they hold in hand (support/fake-a1111.ts,
// the real AUTOMATIC1111 protocol), and whose calls wait at most 1 s for their job before
// answering 202, so the job's life after the answer is what is tested.

let app: AppProcess
let sd: FakeA1111

test.beforeAll(async () => {
  test.setTimeout(180_000)
  sd = await startFakeA1111()
  app = await startAppProcess(join(process.env.E2E_DATA_DIR ?? 'e2e/.data', 'jobs-app'), {
    AI_IMAGE_PROVIDER: 'automatic1111',
    A1111_URL: sd.url,
    JOB_WAIT_MS: '1000',
  })
})

test.afterAll(async () => {
  await app?.stop()
  await sd?.close()
})

test.afterEach(() => {
  // Whatever a test left held is answered, so no job of it lingers into the next.
  sd.release()
})

/** The project every test makes (the invitation email names it). */
const PROJECT_NAME = 'Bees at work'

/** A person's own browser context on the jobs app (the same account when `as` is given). */
async function personOn(browser: Browser, as?: BrowserContext): Promise<Page> {
  const ctx = await browser.newContext({
    baseURL: app.url,
    // Room for the generator and its image at 100 % zoom, fields and buttons on screen.
    viewport: { width: 1600, height: 1200 },
    storageState: as ? await as.storageState() : undefined,
  })
  return ctx.newPage()
}

/** The header's credits pill ("N Credits", spec §2 Header). */
function creditsPill(page: Page, credits: number) {
  return page.getByRole('banner').getByText(`${credits} Credits`, { exact: true })
}

/** What Generate Image costs, from `GET /api/ai/providers`. */
async function imageCost(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/ai/providers')
  expect(res.status()).toBe(200)
  return ((await res.json()) as { costs: { image: number } }).costs.image
}

/**
 * A project holding one image generator, ready to generate (setup through the API): a prompt,
 * the fake's model, a small frame.
 */
async function projectWithImageGenerator(request: APIRequestContext): Promise<number> {
  const res = await request.post('/api/projects', {
    headers: { origin: app.url },
    data: {
      name: PROJECT_NAME,
      nodes: [
        {
          id: `image-generator-${Date.now()}-e2e`,
          type: 'image-generator',
          label: 'Image Generator',
          position: { x: 80, y: 60 },
          connectionPoints: 'both',
          data: {
            prompt: 'A honey bee on a lavender flower',
            negativePrompt: '',
            width: 640,
            height: 360,
            numInferenceSteps: 20,
            guidanceScale: 7.5,
            seed: '',
            modelId: sd.model,
            modelVersionId: sd.model,
            promptFromScene: 'false',
          },
        },
      ],
      connections: [],
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { id: number }).id
}

/**
 * Opens the project at 100 % zoom (a lone node is fitted far larger than the screen) and
 * waits for its image generator.
 */
async function openProject(page: Page, id: number) {
  await page.goto(`/?id=${id}`)
  const generator = canvasNode(page, 'Image Generator')
  await expect(generator).toBeVisible()
  await page.getByRole('button', { name: 'Reset view' }).click()
  await expect(page.getByRole('status', { name: 'Zoom level' })).toHaveText('100%')
  return {
    generator,
    // "Generate Image · N credits", or "Generating..." while its job is queued or running.
    generate: generator.getByRole('button', { name: /^(Generate Image|Generating\.\.\.)/ }),
    state: generator.getByRole('status'),
    progress: generator.getByRole('progressbar', { name: 'Generation progress' }),
    cancel: generator.getByRole('button', { name: 'Cancel', exact: true }),
  }
}

test('an image generation left at once lands in the project anyway', async ({ browser }) => {
  sd.hold()
  const page = await personOn(browser)
  const ctx = page.context()
  try {
    await registerFreshUser(page.request, app.url, 'Chantal Akerman')
    const cost = await imageCost(page.request)
    const id = await projectWithImageGenerator(page.request)
    const { generate } = await openProject(page, id)
    await expect(creditsPill(page, 20)).toBeVisible()

    // Generate, and leave as soon as the call is sent.
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/api/csas/generate-image'),
    )
    const calls = sd.received
    await generate.click()
    await sent
    await page.close()

    // The server goes on without anybody: the provider is asked, then answers.
    await sd.waitForCalls(calls + 1)
    sd.release()

    // Back later: the image is in the project, connected to its generator, charged once.
    const again = await ctx.newPage()
    const back = await openProject(again, id)
    const image = canvasNode(again, 'Image')
    await expect(image).toBeVisible({ timeout: 30_000 })
    await expect(image.getByRole('img')).toBeVisible()
    await expect(image.getByText('Image failed to load')).toHaveCount(0)
    await expect(again.locator('[aria-roledescription="edge"]')).toHaveCount(1)
    await expect(back.generate).toHaveText(/^Generate Image/)
    await expect(back.generate).toBeEnabled()
    await expect(back.cancel).toHaveCount(0)
    await expect(creditsPill(again, 20 - cost)).toBeVisible()
    const stored = await again.request.get(`/api/projects/${id}`)
    const project = (await stored.json()) as { nodes: { type: string }[] }
    expect(project.nodes.map((n) => n.type).sort()).toEqual(['image', 'image-generator'])
  } finally {
    await ctx.close()
  }
})

test('two editors see one job: busy in both, its state live, the image in both; a viewer sees it without Cancel', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  sd.hold()
  const ada = await personOn(browser)
  let lin: Page | null = null
  const vic = await personOn(browser)
  try {
    await registerFreshUser(ada.request, app.url, 'Ada Lovelace')
    const id = await projectWithImageGenerator(ada.request)
    // The same account in a second browser: another tab, another device.
    lin = await personOn(browser, ada.context())
    // And a viewer, who sees the job but may not cancel it.
    await joinProject({
      owner: ada,
      page: vic,
      projectId: id,
      projectName: PROJECT_NAME,
      name: 'Vic Viewer',
      role: 'viewer',
      baseURL: app.url,
      dataDir: app.dataDir,
    })
    const mine = await openProject(ada, id)
    const theirs = await openProject(lin, id)
    const viewer = await openProject(vic, id)
    await expect(vic.getByText('View only')).toBeVisible()
    await expect(theirs.generate).toBeEnabled()

    // Ada generates; the call answers 202 once its 1 s wait is over, and that is no failure.
    const answered = ada.waitForResponse((r) => r.url().endsWith('/api/csas/generate-image'))
    const calls = sd.received
    await mine.generate.click()
    await sd.waitForCalls(calls + 1)
    expect((await answered).status()).toBe(202)

    // The provider is 40 % through: both see it running, busy Generate, the progress bar at
    // 40 %, the same words, Cancel.
    sd.setProgress(0.4)
    for (const view of [mine, theirs]) {
      await expect(view.generate).toHaveText('Generating...')
      await expect(view.generate).toBeDisabled()
      await expect(view.progress).toBeVisible()
      await expect(view.progress).toHaveAttribute('aria-valuemin', '0')
      await expect(view.progress).toHaveAttribute('aria-valuemax', '100')
      await expect(view.progress).toHaveAttribute('aria-valuenow', '40', { timeout: 10_000 })
      await expect(view.generator.getByText('40%', { exact: true })).toBeVisible()
      await expect(view.state).not.toHaveText('')
      await expect(view.cancel).toBeEnabled()
    }
    const words = (await mine.state.textContent()) ?? ''
    await expect(theirs.state).toHaveText(words)
    await expect(notifications(ada).getByText(/Failed to generate/)).toHaveCount(0)
    // The viewer sees the same, without Cancel.
    await expect(viewer.generate).toHaveText('Generating...')
    await expect(viewer.progress).toHaveAttribute('aria-valuenow', '40')
    await expect(viewer.state).toHaveText(words)
    await expect(viewer.cancel).toHaveCount(0)

    // The provider answers: the image shows in both, and both buttons are free again.
    sd.release()
    for (const page of [ada, lin, vic]) {
      await expect(canvasNode(page, 'Image')).toBeVisible({ timeout: 30_000 })
    }
    for (const view of [mine, theirs]) {
      await expect(view.generate).toHaveText(/^Generate Image/)
      await expect(view.generate).toBeEnabled()
      await expect(view.progress).toHaveCount(0)
      await expect(view.cancel).toHaveCount(0)
    }
    await expect(canvasNode(ada, 'Image')).toHaveCount(1)
    await expect(canvasNode(lin, 'Image')).toHaveCount(1)
  } finally {
    await vic.context().close()
    await lin?.context().close()
    await ada.context().close()
  }
})

test('cancelling a job gives its credits back', async ({ browser }) => {
  sd.hold()
  const page = await personOn(browser)
  try {
    await registerFreshUser(page.request, app.url, 'Maya Deren')
    const cost = await imageCost(page.request)
    const id = await projectWithImageGenerator(page.request)
    const { generate, state, cancel } = await openProject(page, id)
    await expect(creditsPill(page, 20)).toBeVisible()

    const answered = page.waitForResponse((r) => r.url().endsWith('/api/csas/generate-image'))
    const calls = sd.received
    await generate.click()
    await sd.waitForCalls(calls + 1)
    const accepted = await answered
    expect(accepted.status()).toBe(202)
    const { jobId } = (await accepted.json()) as { jobId: string }
    // Charged while it runs.
    await expect(creditsPill(page, 20 - cost)).toBeVisible()

    // Cancel, from the keyboard: the job stops, the node says so, the credits come back.
    await cancel.focus()
    await page.keyboard.press('Enter')
    await expect(state).toContainText('Cancelled')
    await expect(state).toContainText(`Refunded ${cost} ${cost === 1 ? 'credit' : 'credits'}`)
    await expect(creditsPill(page, 20)).toBeVisible()
    await expect(generate).toHaveText(/^Generate Image/)
    await expect(generate).toBeEnabled()
    await expect(cancel).toHaveCount(0)
    await expect(notifications(page).getByText(/Failed to generate/)).toHaveCount(0)

    // Even if the provider answers after all, nothing lands and the refund stands.
    sd.release()
    const job = await page.request.get(`/api/jobs/${jobId}`)
    expect(job.status()).toBe(200)
    expect(await job.json()).toMatchObject({ status: 'cancelled', cost, refunded: cost })
    await expect(canvasNode(page, 'Image')).toHaveCount(0)
    const credits = await page.request.get('/api/user/credits')
    expect(await credits.json()).toMatchObject({ credits: 20 })
  } finally {
    await page.context().close()
  }
})

test('a job that fails says why on the node, and gives the credits back', async ({ browser }) => {
  sd.hold()
  const page = await personOn(browser)
  try {
    await registerFreshUser(page.request, app.url, 'Agnes Varda')
    const cost = await imageCost(page.request)
    const id = await projectWithImageGenerator(page.request)
    const { generate, state, cancel } = await openProject(page, id)

    const answered = page.waitForResponse((r) => r.url().endsWith('/api/csas/generate-image'))
    const calls = sd.received
    await generate.click()
    await sd.waitForCalls(calls + 1)
    expect((await answered).status()).toBe(202)
    await expect(creditsPill(page, 20 - cost)).toBeVisible()

    // The provider refuses the request (no retry helps): the job fails after its 202.
    sd.fail(422, 'The sampler "Bees" does not exist.')
    const failed = /^Failed to generate image: /
    await expect(state).toContainText(failed)
    await expect(state).toContainText(`Refunded ${cost} ${cost === 1 ? 'credit' : 'credits'}`)
    await expect(notifications(page).getByText(failed)).toBeVisible()
    await expect(creditsPill(page, 20)).toBeVisible()
    await expect(generate).toHaveText(/^Generate Image/)
    await expect(generate).toBeEnabled()
    await expect(cancel).toHaveCount(0)
    await expect(canvasNode(page, 'Image')).toHaveCount(0)

    // It stays on the node: a reload shows it again.
    await page.reload()
    await expect(canvasNode(page, 'Image Generator').getByRole('status')).toContainText(failed)
  } finally {
    await page.context().close()
  }
})
