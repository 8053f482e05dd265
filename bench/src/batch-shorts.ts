/**
 * Ten offline 30-second 9:16 shorts from a CSV (issue 42, "Done when": at most 3 minutes of
 * wall time on this machine kind, peak RSS at most 2 GB). Each run starts the app as
 * `npm start` runs it (`api/src/server.ts`: api, sync and job workers in one process, the
 * embedded database, the builtin writer, storyboard and eSpeak NG voice) on a fresh data
 * directory, signs a user up, buys credits in the billing sandbox, picks the builtin
 * "Vertical short" template, posts a CSV of ten topics to `POST /api/batches?templateId=`,
 * starts the batch and polls `GET /api/batches/:id` until every row is final.
 *
 * Measured per run: the wall time from the start call to the last row finished; the peak
 * resident memory (VmRSS) of the app process and of the app with its children (ffmpeg),
 * sampled every 100 ms from `/proc`; the credits the batch spent (the batch's own count and
 * the account's balance before and after). Every MP4 is checked with ffprobe (1080x1920,
 * within ±15 % of 30 s). Prints each run and the median of the runs, with the load average.
 * Run: npm run batch-shorts -w bench   (`--runs N`, default 3)
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Batch, TemplateList } from '@reelgraph/shared'
import { loadAverage, median, registerUser, startApp } from './app-process.ts'

/** The topics of the CSV, everyday ones the builtin writer draws. */
const TOPICS = [
  'How honeybees make honey',
  'Why the sky is blue',
  'How a bicycle stays upright',
  'Where rain comes from',
  'How bread rises',
  'Why cats purr',
  'How a lighthouse guides ships',
  'What makes a volcano erupt',
  'How penguins keep warm',
  'Why leaves change colour in autumn',
]
/** The issue's targets. */
const TARGET_WALL_SECONDS = 180
const TARGET_RSS_BYTES = 2 * 1024 ** 3
const TARGET_VIDEO_SECONDS = 30
/** How often the batch and memory are read, in ms. */
const POLL_MS = 500
const RSS_SAMPLE_MS = 100

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3

/** VmRSS of process `pid` in bytes, or 0 when it is gone. */
function rssOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
    return line ? Number(line[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** The ids of `pid`'s descendants (children, their children, ...), from `/proc`. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.split(') ')[1]!.split(' ')[1])
      const list = parents.get(ppid) ?? []
      list.push(Number(entry))
      parents.set(ppid, list)
    } catch {}
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

/** Width, height and seconds of a video file, by ffprobe. */
function probe(file: string): { width: number; height: number; seconds: number } {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height:format=duration',
    '-of',
    'json',
    file,
  ]).toString()
  const json = JSON.parse(out) as {
    streams: { width: number; height: number }[]
    format: { duration: string }
  }
  return {
    width: json.streams[0]!.width,
    height: json.streams[0]!.height,
    seconds: Number(json.format.duration),
  }
}

interface RunResult {
  wallSeconds: number
  peakRssAppMb: number
  peakRssTreeMb: number
  spentCredits: number
  balanceSpent: number
  loadBefore: string
  loadAfter: string
  videos: { width: number; height: number; seconds: number }[]
}

async function oneRun(run: number): Promise<RunResult> {
  const app = await startApp({ port: 3480 + run })
  const pid = app.child.pid!
  try {
    const cookie = await registerUser(
      app.url,
      `batch-${Date.now()}@example.com`,
      'bench password 1',
    )
    const session = { cookie, origin: app.url }
    const json = { ...session, 'content-type': 'application/json' }
    // 400 credits from the sandbox's large package: ten shorts cost more than the 20 a new account has.
    const purchase = await fetch(`${app.url}/api/purchase-credits`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ packageId: 'large' }),
    })
    if (!purchase.ok) throw new Error(`purchase: ${purchase.status} ${await purchase.text()}`)
    const checkout = new URL(((await purchase.json()) as { url: string }).url)
    const pay = await fetch(`${app.url}${checkout.pathname}/pay`, {
      method: 'POST',
      headers: session,
      redirect: 'manual',
    })
    if (pay.status >= 400) throw new Error(`sandbox pay: ${pay.status}`)
    const balance = async () =>
      (
        (await (await fetch(`${app.url}/api/user/credits`, { headers: session })).json()) as {
          credits: number
        }
      ).credits
    const before = await balance()

    const list = (await (
      await fetch(`${app.url}/api/templates`, { headers: session })
    ).json()) as TemplateList
    const template = list.templates.find(
      (t) =>
        t.source === 'builtin' &&
        t.settings.preset === '9:16' &&
        t.settings.targetSeconds === TARGET_VIDEO_SECONDS,
    )
    if (!template) throw new Error('no builtin 9:16 30-second template')
    const csv = ['topic', ...TOPICS.map((t) => `"${t.replaceAll('"', '""')}"`)].join('\n')
    const quoted = await fetch(`${app.url}/api/batches?templateId=${template.id}`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'text/csv' },
      body: csv,
    })
    if (quoted.status !== 201) throw new Error(`quote: ${quoted.status} ${await quoted.text()}`)
    const batch = (await quoted.json()) as Batch

    let peakApp = 0
    let peakTree = 0
    const sampler = setInterval(() => {
      const app = rssOf(pid)
      const tree = app + descendantsOf(pid).reduce((sum, child) => sum + rssOf(child), 0)
      peakApp = Math.max(peakApp, app)
      peakTree = Math.max(peakTree, tree)
    }, RSS_SAMPLE_MS)
    const loadBefore = loadAverage()
    const started = performance.now()
    const start = await fetch(`${app.url}/api/batches/${batch.id}/start`, {
      method: 'POST',
      headers: session,
    })
    if (!start.ok) throw new Error(`start: ${start.status} ${await start.text()}`)
    let last: Batch
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS))
      last = (await (
        await fetch(`${app.url}/api/batches/${batch.id}`, { headers: session })
      ).json()) as Batch
      if (last.status === 'done' || last.status === 'cancelled') break
    }
    const wallSeconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    const loadAfter = loadAverage()
    const failed = last.rows.filter((r) => r.status !== 'succeeded')
    if (failed.length) {
      throw new Error(
        `rows did not succeed: ${failed.map((r) => `${r.row} ${r.status} ${r.error}`).join('; ')}`,
      )
    }
    const videos = []
    for (const row of last.rows) {
      const res = await fetch(`${app.url}${row.mp4Url}`, { headers: session })
      const file = join(tmpdir(), `batch-short-${run}-${row.row}.mp4`)
      writeFileSync(file, Buffer.from(await res.arrayBuffer()))
      const video = probe(file)
      if (video.width !== 1080 || video.height !== 1920)
        throw new Error(`row ${row.row}: ${video.width}x${video.height}`)
      if (Math.abs(video.seconds - TARGET_VIDEO_SECONDS) > TARGET_VIDEO_SECONDS * 0.15) {
        throw new Error(
          `row ${row.row}: ${video.seconds} s, not within 15 % of ${TARGET_VIDEO_SECONDS}`,
        )
      }
      videos.push(video)
    }
    return {
      wallSeconds,
      peakRssAppMb: peakApp / 1024 ** 2,
      peakRssTreeMb: peakTree / 1024 ** 2,
      spentCredits: last.spentCredits,
      balanceSpent: before - (await balance()),
      loadBefore,
      loadAfter,
      videos,
    }
  } finally {
    await app.stop()
  }
}

const results: RunResult[] = []
for (let run = 0; run < RUNS; run++) {
  const result = await oneRun(run)
  results.push(result)
  console.log(
    JSON.stringify({
      run: run + 1,
      wallSeconds: Number(result.wallSeconds.toFixed(1)),
      peakRssAppMb: Math.round(result.peakRssAppMb),
      peakRssTreeMb: Math.round(result.peakRssTreeMb),
      spentCredits: result.spentCredits,
      balanceSpent: result.balanceSpent,
      loadBefore: result.loadBefore,
      loadAfter: result.loadAfter,
      seconds: result.videos.map((v) => Number(v.seconds.toFixed(2))),
    }),
  )
}
const wall = median(results.map((r) => r.wallSeconds))
const rss = median(results.map((r) => r.peakRssTreeMb))
console.log(
  JSON.stringify({
    shorts: TOPICS.length,
    runs: RUNS,
    medianWallSeconds: Number(wall.toFixed(1)),
    medianPeakRssTreeMb: Math.round(rss),
    medianPeakRssAppMb: Math.round(median(results.map((r) => r.peakRssAppMb))),
    creditsPerBatch: results[0]!.spentCredits,
    targetWallSeconds: TARGET_WALL_SECONDS,
    targetRssMb: TARGET_RSS_BYTES / 1024 ** 2,
    met: wall <= TARGET_WALL_SECONDS && rss * 1024 ** 2 <= TARGET_RSS_BYTES,
  }),
)
