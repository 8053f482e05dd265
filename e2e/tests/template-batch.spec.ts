import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import AxeBuilder from '@axe-core/playwright'
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { registerFreshUser } from '../support/app.ts'

// Issue 42 "Done when" 1 (items 2 and 3): at 1280x720, the vertical-short template from the
// gallery on /projects, a CSV of three topics, the quote, Start, and the batch's table filling
// live (progress bars moving, three thumbnails); then each row's MP4, fetched with the page's
// own session, is 9:16 (1080x1920) and within ±15 % of the template's 30 s (ffprobe), made
// with the template's bold word captions. The builtin offline providers make every video.

test.use({ viewport: { width: 1280, height: 720 } })

/** The template's length and its tolerance (shared TARGET_LENGTH_TOLERANCE). */
const TARGET_SECONDS = 30
const TOLERANCE = 0.15

/**
 * How long three 3-scene videos may take on the builtin offline providers: about a minute
 * each on 2 cores, two at a time, more while other tests render.
 */
const BATCH_TIMEOUT_MS = 420_000

const TOPICS = [
  'How honeybees make honey',
  'Why the sea is salty',
  'How a lighthouse guides ships, at night',
] as const

/** The table the test gives the batch: the header, then one topic a row (RFC 4180 quoting). */
const CSV = `topic\r\n${TOPICS.map((t) => (t.includes(',') ? `"${t}"` : t)).join('\r\n')}\r\n`

const run = promisify(execFile)

/** ffprobe's reading of an MP4: its video stream's size and the file's length in seconds. */
async function probe(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height:format=duration',
    '-of',
    'json',
    path,
  ])
  const info = JSON.parse(stdout) as {
    streams: { width: number; height: number }[]
    format: { duration: string }
  }
  return { ...info.streams[0]!, seconds: Number(info.format.duration) }
}

/** Buys the medium package (sandbox billing, setup through the API): three videos cost more than a new account has. */
async function buyCredits(request: APIRequestContext, baseURL: string | undefined) {
  const headers = { origin: baseURL ?? '' }
  const checkout = await request.post('/api/purchase-credits', {
    headers,
    data: { packageId: 'medium' },
  })
  expect(checkout.status(), await checkout.text()).toBe(200)
  const { url } = (await checkout.json()) as { url: string }
  const paid = await request.post(`${new URL(url, baseURL).pathname}/pay`, {
    headers,
    maxRedirects: 0,
  })
  expect(paid.status(), await paid.text()).toBe(303)
}

/** The serious and critical axe-core violations of the page as it is now, readable. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(', ')}`)
}

/** The signed-in person's balance, read with the page's session. */
async function balance(page: Page): Promise<number> {
  const res = await page.request.get('/api/user/credits')
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { credits: number }).credits
}

/** What one row of three scenes costs: shared `makeVideoCost` with the providers' costs. */
async function creditsPerVideo(page: Page, scenes: number): Promise<number> {
  const res = await page.request.get('/api/ai/providers')
  const { costs } = (await res.json()) as {
    costs: { script: number; scenes: number; image: number; voice: number; video: number }
  }
  return costs.script + costs.scenes + (costs.image + costs.voice) * scenes + costs.video
}

test('a vertical short from the gallery, batched over a CSV of three topics, fills its table live and gives three 30 s 9:16 MP4s with bold captions', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(BATCH_TIMEOUT_MS + 120_000)
  await registerFreshUser(page.request, baseURL, 'Ada Lovelace')
  await buyCredits(page.request, baseURL)
  const perVideo = await creditsPerVideo(page, 3)

  // The gallery: the builtin vertical short, its settings in one line.
  await page.goto('/projects')
  await page.getByRole('button', { name: 'New from template' }).click()
  const gallery = page.getByRole('dialog', { name: 'New from template' })
  const card = gallery.getByRole('article', { name: 'Vertical short' })
  await expect(card).toBeVisible()
  await expect(card).toContainText('Builtin')
  await expect(card).toContainText('9:16 · 30 s · 3 scenes · Bold captions')
  expect(await seriousViolations(page)).toEqual([])
  await card.getByRole('button', { name: 'Batch from a table…' }).click()

  // The table: the header it needs, a CSV file of three topics, the quote.
  const panel = page.getByRole('dialog', { name: 'Batch from a table: “Vertical short”' })
  await expect(panel.getByText(/first line names the template’s variables/)).toContainText(
    'variables: topic',
  )
  await expect(panel.getByRole('link', { name: 'Download an example CSV' })).toHaveAttribute(
    'download',
    'Vertical short example.csv',
  )
  await panel.getByTestId('batch-csv-file').setInputFiles({
    name: 'topics.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(CSV),
  })
  // A text box keeps line breaks as LF.
  await expect(panel.getByLabel('CSV table')).toHaveValue(CSV.replaceAll('\r\n', '\n'))
  expect(await seriousViolations(page)).toEqual([])
  await panel.getByRole('button', { name: 'Get the quote' }).click()

  // The batch's page: the quote, then Start.
  await expect(page).toHaveURL(/\/batches\/\d+$/, { timeout: 20_000 })
  await expect(
    page.getByRole('heading', { level: 1, name: 'Vertical short: a batch of 3 videos' }),
  ).toBeVisible()
  const quoted = perVideo * TOPICS.length
  await expect(
    page.getByText(`Quote: ${quoted} credits (${perVideo} credits a video)`),
  ).toBeVisible()
  const table = page.getByRole('table', { name: 'The batch’s rows, one video each' })
  for (const topic of TOPICS) await expect(table.getByText(topic, { exact: true })).toBeVisible()
  const before = await balance(page)
  await page.getByRole('button', { name: `Start batch · ${quoted} credits` }).click()
  await expect(page.getByRole('button', { name: /^Start batch/ })).toBeHidden({ timeout: 20_000 })
  await expect(page.getByText('Running', { exact: true }).first()).toBeVisible()

  // Live: a progress bar shows a value between the ends (no reload), then every row is done.
  const bars = table.getByRole('progressbar')
  await expect(bars).toHaveCount(TOPICS.length)
  const seen = new Set<string>()
  await expect
    .poll(
      async () => {
        for (const value of await bars.evaluateAll((els) =>
          els.map((el) => el.getAttribute('aria-valuenow') ?? ''),
        )) {
          if (value !== '0' && value !== '100') seen.add(value)
        }
        return seen.size
      },
      {
        timeout: BATCH_TIMEOUT_MS,
        message: 'a row’s progress bar shows its progress while it runs',
      },
    )
    .toBeGreaterThan(0)
  await expect(page.getByRole('status').filter({ hasText: /^3 rows: 3 done\.$/ })).toBeVisible({
    timeout: BATCH_TIMEOUT_MS,
  })
  for (let row = 1; row <= TOPICS.length; row += 1) {
    await expect(table.getByRole('progressbar', { name: `Row ${row} progress` })).toHaveAttribute(
      'aria-valuenow',
      '100',
    )
  }
  const thumbnails = table.getByRole('img', { name: /^Row \d: a frame of its video$/ })
  await expect(thumbnails).toHaveCount(TOPICS.length)
  for (const thumbnail of await thumbnails.all()) {
    await expect
      .poll(() =>
        thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0)
  }
  await expect(page.getByText('Done', { exact: true }).first()).toBeVisible()
  await expect(page.getByTestId('batch-spent')).toHaveText(
    `Spent ${quoted} credits of the ${quoted} credits quoted.`,
  )
  expect(before - (await balance(page))).toBe(quoted)
  await expect(page.getByRole('link', { name: 'Download all (ZIP)' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // Bold word captions: each row's Video node was rendered with the template's bold look,
  // which its project's graph file keeps on the node's timeline.
  const batchId = new URL(page.url()).pathname.split('/').pop()
  const batch = await (await page.request.get(`/api/batches/${batchId}`)).json()
  expect(batch.rows).toHaveLength(TOPICS.length)
  for (const row of batch.rows as { row: number; projectId: number }[]) {
    const file = await (await page.request.get(`/api/projects/${row.projectId}/export.json`)).json()
    const styles = Object.values(
      file.timelines as Record<string, { settings: { captionStyle?: string } }>,
    ).map((timeline) => timeline.settings.captionStyle)
    expect(styles, `row ${row.row}'s caption look`).toEqual(['bold'])
  }

  // Each row's MP4, through the page's own session: 1080x1920 and 30 s ± 15 %.
  const dir = await mkdtemp(join(tmpdir(), 'reelgraph-batch-'))
  try {
    for (let row = 1; row <= TOPICS.length; row += 1) {
      const href = await table.getByRole('link', { name: `MP4 of row ${row}` }).getAttribute('href')
      expect(href, `row ${row} links its MP4`).toBeTruthy()
      const res = await page.request.get(href!)
      expect(res.status(), `row ${row}'s MP4`).toBe(200)
      const path = join(dir, `row-${row}.mp4`)
      await writeFile(path, await res.body())
      const video = await probe(path)
      expect({ row, width: video.width, height: video.height }).toEqual({
        row,
        width: 1080,
        height: 1920,
      })
      expect(video.seconds, `row ${row} lasts ${video.seconds} s`).toBeGreaterThanOrEqual(
        TARGET_SECONDS * (1 - TOLERANCE),
      )
      expect(video.seconds, `row ${row} lasts ${video.seconds} s`).toBeLessThanOrEqual(
        TARGET_SECONDS * (1 + TOLERANCE),
      )
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('a project from a template opens on the canvas, and saved as a template it shows under Yours with {{topic}}', async ({
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Grace Hopper')
  await page.goto('/projects')
  await page.getByRole('button', { name: 'New from template' }).click()
  const gallery = page.getByRole('dialog', { name: 'New from template' })
  await gallery
    .getByRole('article', { name: 'Explainer' })
    .getByRole('button', { name: 'Use template' })
    .click()

  // The form: the topic's example as its placeholder, the name following the value.
  const form = page.getByRole('dialog', { name: 'New project from “Explainer”' })
  const topic = form.getByRole('textbox', { name: 'Topic' })
  await expect(topic).toHaveAttribute('placeholder', 'How lighthouses guide ships')
  await form.getByRole('button', { name: 'Create project' }).click()
  await expect(form.getByText('{{topic}} is empty.')).toBeVisible()
  await topic.fill('How tides work')
  await expect(form.getByRole('textbox', { name: 'Project name' })).toHaveValue(
    'Explainer: How tides work',
  )
  await form.getByRole('button', { name: 'Create project' }).click()
  await expect(page).toHaveURL(/\/\?id=\d+$/)
  await expect(page.getByText('Explainer: How tides work').first()).toBeVisible()

  // Save it as a template from its card: the topic becomes {{topic}}.
  await page.goto('/projects')
  await page.getByRole('button', { name: 'Save Explainer: How tides work as template…' }).click()
  const save = page.getByRole('dialog', { name: 'Save as template' })
  await save.getByRole('textbox', { name: 'Template name' }).fill('Tide explainer')
  await save.getByRole('textbox', { name: 'Description' }).fill('Explainers about the sea.')
  await expect(
    save.getByRole('checkbox', { name: 'Make the topic a variable ({{topic}})' }),
  ).toBeChecked()
  await expect(save.getByText('Variables: {{topic}}')).toBeVisible()
  await save.getByRole('button', { name: 'Save template' }).click()
  await expect(save).toBeHidden()
  await expect(page.getByRole('region', { name: /^Notifications/ })).toContainText(
    '“Tide explainer” is in New from template, under Yours.',
  )

  await page.getByRole('button', { name: 'New from template' }).click()
  const yours = gallery.getByRole('region', { name: 'Yours' })
  const mine = yours.getByRole('article', { name: 'Tide explainer' })
  await expect(mine).toContainText('Yours')
  await expect(mine).toContainText('Explainers about the sea.')
  await expect(mine).toContainText('Asks for {{topic}}')
})
