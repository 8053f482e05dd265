import { expect, type Locator, type Page, test } from '@playwright/test'
import {
  canvasNode,
  ISSUE_14_VIEWPORTS,
  joinProject,
  notifications,
  registerFreshUser,
} from '../support/app.ts'
import {
  centreOf,
  coveringAt,
  intersects,
  isInside,
  mediaControlBoxes,
  shownZoomPercent,
} from '../support/layout.ts'

// "Make video" (issue 13 item 6) on the builtin offline providers: a topic typed and three
// clicks (Add Script Generator, Make video, and the dialog's "Make video · N credits") give a
// narrated, subtitled MP4 that plays in the page and downloads, charged the one total the
// dialog showed; a second member watches the chain's progress and sees the video live.
// Issue 20 item 3, on the same run (a whole render costs about a minute of the suite): on the
// smallest of issue 14's screens, where room is tightest, the view follows the chain to its
// Video node by itself and leaves the player whole on the canvas at 100 % or less, its
// controls (fullscreen, the "⋮" menu) not under the minimap (it covered them). The overlays'
// clearance at 1440x900 is checked on cheaper graphs in canvas-layout.spec.ts.

test.use({ viewport: ISSUE_14_VIEWPORTS[0] })

const PROJECT = 'Honey'

/**
 * How long the Make a video dialog may take to close after its start click: the POST and the
 * balance's refetch, on a machine that may be rendering another test's video meanwhile.
 */
const ACCEPTED_TIMEOUT_MS = 20_000

function creditsPill(page: Page, credits: number) {
  return page.getByRole('banner').getByText(`${credits} Credits`, { exact: true })
}

/** Resolves once `player` (a `<video>`) has loaded its metadata (its controls are laid out). */
async function metadataLoaded(player: Locator): Promise<void> {
  // (The browser's media element, typed here without the DOM library.)
  type Media = { readyState: number; addEventListener(event: string, listener: () => void): void }
  await player.evaluate(
    (el) =>
      new Promise<void>((resolve, reject) => {
        const media = el as unknown as Media
        if (media.readyState >= 1) resolve()
        media.addEventListener('loadedmetadata', () => resolve())
        media.addEventListener('error', () => reject(new Error('the video did not load')))
      }),
  )
}

test('a topic becomes a playable, downloadable video in three clicks that lands in view, and a second member sees it happen', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000)
  await registerFreshUser(page.request, baseURL, 'Agnes Varda')
  const { costs } = (await (await page.request.get('/api/ai/providers')).json()) as {
    costs: { script: number; scenes: number; image: number; voice: number; video: number }
  }

  await page.goto('/')
  await page.getByLabel('Project name').fill(PROJECT)
  await page.getByRole('button', { name: 'Create Project' }).click()
  await expect(notifications(page).getByText('Project Created')).toBeVisible()
  const projectId = Number(new URL(page.url()).searchParams.get('id'))

  // A second member, on the same project in their own browser.
  const linCtx = await browser.newContext({ viewport: { width: 1600, height: 1200 } })
  const lin = await linCtx.newPage()
  try {
    await joinProject({
      owner: page,
      page: lin,
      projectId,
      projectName: PROJECT,
      name: 'Lin Editor',
      role: 'editor',
      baseURL: baseURL ?? '',
    })

    // Click 1: a Script Generator; the topic is typed.
    await page.getByRole('button', { name: 'Add Script Generator' }).click()
    const generator = canvasNode(page, 'Script Generator')
    await generator.getByLabel('Topic').fill('How honey bees make honey')
    await lin.goto(`/?id=${projectId}`)
    const linGenerator = canvasNode(lin, 'Script Generator')
    await expect(linGenerator.getByLabel('Topic')).toHaveValue('How honey bees make honey')

    // Click 2: Make video. The dialog shows the total before anything is charged.
    await generator.getByRole('button', { name: 'Make video' }).click()
    const dialog = page.getByRole('dialog', { name: 'Make a video' })
    await expect(dialog).toBeVisible()
    // 20 credits pay for at most 4 scenes at the default costs; with 2 the whole chain
    // stays readable (above the compact zoom) in the second member's fitted view.
    await dialog.getByLabel(/^Number of scenes/).fill('2')
    const total = costs.script + costs.scenes + 2 * costs.image + 2 * costs.voice + costs.video
    await expect(dialog.getByRole('table', { name: 'Cost' })).toContainText(`${total} credits`)
    await expect(creditsPill(page, 20)).toBeVisible()

    // Click 3: start. Charged the total once; the chain's progress shows on the generator,
    // for the other member too.
    await dialog.getByRole('button', { name: `Make video · ${total} credits` }).click()
    // It closes once the job is accepted and the balance read again; in the full suite the
    // app's worker may still be busy with an earlier test's media on the same two cores.
    await expect(dialog).toBeHidden({ timeout: ACCEPTED_TIMEOUT_MS })
    await expect(creditsPill(page, 20 - total)).toBeVisible({ timeout: ACCEPTED_TIMEOUT_MS })
    await expect(
      linGenerator.getByRole('progressbar', { name: 'Generation progress' }),
    ).toBeVisible({ timeout: 60_000 })
    await expect(linGenerator.getByRole('status')).toHaveText(
      /Writing the script|Splitting|Images|Voices|Rendering scenes|Mixing|Joining/,
    )

    // No Fit view, nor any other move: where the view went by itself (issue 20 item 3).
    const video = canvasNode(page, 'Video')
    const player = video.locator('video')
    await expect(player).toBeVisible({ timeout: 240_000 })
    await metadataLoaded(player)
    const canvas = (await page.getByRole('region', { name: 'Canvas' }).boundingBox())!
    const minimap = page.locator('.react-flow__minimap')
    const toolbar = page.getByRole('toolbar', { name: 'Canvas controls' })
    // The view animates to new nodes: check until it has settled.
    await expect(async () => {
      expect(await shownZoomPercent(page)).toBeLessThanOrEqual(100)
      const node = (await video.boundingBox())!
      expect(isInside(node, canvas), 'the Video node inside the canvas').toBe(true)
      for (const overlay of [minimap, toolbar]) {
        expect(
          intersects(node, (await overlay.boundingBox())!),
          'the Video node under an overlay',
        ).toBe(false)
      }
      const controls = await mediaControlBoxes(page, player)
      const minimapBox = (await minimap.boundingBox())!
      for (const [name, box] of Object.entries(controls)) {
        expect(box, `the player's ${name} button laid out`).not.toBeNull()
        expect(isInside(box!, canvas), `the ${name} button inside the canvas`).toBe(true)
        expect(intersects(box!, minimapBox), `the ${name} button under the minimap`).toBe(false)
        expect(
          await coveringAt(player, centreOf(box!)),
          `what covers the ${name} button`,
        ).toBeNull()
      }
    }).toPass({ timeout: 10_000 })
    await test.info().attach(`canvas after Make video at ${page.viewportSize()!.width}`, {
      body: await page.screenshot(),
      contentType: 'image/png',
    })

    // The video plays in the page, where the view went: its length is the render's, to a
    // tenth of a second.
    const jobs = (await (await page.request.get(`/api/projects/${projectId}`)).json()) as {
      nodes: { type: string; data: Record<string, unknown> }[]
    }
    const stored = jobs.nodes.find((n) => n.type === 'video')!
    const durationMs = Number(stored.data.videoDurationMs)
    expect(durationMs).toBeGreaterThan(2000)
    // Its metadata is loaded (above): the length the browser reads.
    const duration = await player.evaluate((el) => (el as unknown as { duration: number }).duration)
    expect(Math.abs(duration * 1000 - durationMs)).toBeLessThanOrEqual(100)

    // It downloads as <project name>.mp4, with its subtitles beside it.
    const download = page.waitForEvent('download')
    await video.getByRole('link', { name: 'MP4' }).click()
    expect((await download).suggestedFilename()).toBe(`${PROJECT}.mp4`)
    await expect(video.getByRole('link', { name: 'SRT' })).toBeVisible()
    await expect(video.getByRole('link', { name: 'VTT' })).toBeVisible()

    // The other member has the same video, live.
    await lin.getByRole('button', { name: 'Fit view' }).click()
    const linPlayer = canvasNode(lin, 'Video').locator('video')
    await expect(linPlayer).toBeVisible({ timeout: 30_000 })
    expect(await linPlayer.getAttribute('src')).toBe(await player.getAttribute('src'))
    await expect(linGenerator.getByRole('progressbar')).toHaveCount(0)

    // Each scene plays its narration (here in the second member's fitted view).
    const scene = canvasNode(lin, 'Scene 1')
    const preview = lin.waitForResponse((r) => r.url().endsWith('/api/video/narration-preview'))
    await scene.getByRole('button', { name: 'Play scene' }).click()
    const answer = await preview
    expect(answer.status()).toBe(200)
    expect(answer.headers()['content-type']).toBe('audio/wav')

    // Fit view (issue 42 item 5): the chain, laid out in columns, fills the canvas area the
    // minimap and the toolbar leave free: 30 % or more at 1280x720 (17 % when it was stacked
    // in rows with 100 px of padding).
    await page.getByRole('button', { name: 'Fit view' }).click()
    await expect.poll(() => shownZoomPercent(page)).toBeGreaterThanOrEqual(30)
  } finally {
    await linCtx.close()
  }
})
