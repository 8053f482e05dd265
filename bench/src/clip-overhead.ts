/**
 * Clip overhead (issue 22 benchmarks; target ≤ 1 s for a 5 s 1080p clip, streamed to storage
 * rather than held in memory): the time a clip job costs apart from the provider's own work,
 * from `POST /api/ai/generate-video` to its answer (the clip stored, probed by ffmpeg, given a
 * poster, placed), against a local fal queue that has the clip ready at its first status poll
 * (the `fal` provider polls at once, then every 2 s: nothing here waits on a poll). The app
 * runs its workers in-process (`npm start`'s shape) on PGlite or BENCH_DATABASE_URL. Reported:
 * each run's time, the median, the clip's size, and the app process's peak RSS (VmHWM) before
 * the first clip and after the last, with the load average before and after.
 * Run: npm run clip-overhead -w bench   (optional: RUNS, default 7)
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { FAL_TEST_KEY, startFalFake } from '@reelgraph/api/testing'
import { median, registerUser, startApp } from './app-process.ts'

const run = promisify(execFile)
const RUNS = Number(process.argv[2] ?? 7)
const PORT = 3196
const MODEL = 'fal:fal-ai/kling-video/v2.5-turbo/standard/image-to-video'
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
const peakRssMb = (pid: number) =>
  readFile(`/proc/${pid}/status`, 'utf8').then(
    (status) => Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024,
  )

const dir = await mkdtemp(join(tmpdir(), 'clip-overhead-'))
// A 5 s 1080p30 clip at a provider's bitrate (about 12 MB), made once by ffmpeg.
const clipPath = join(dir, 'clip.mp4')
await run('ffmpeg', [
  '-v',
  'error',
  '-f',
  'lavfi',
  '-i',
  'testsrc2=size=1920x1080:rate=30:duration=5,noise=alls=30:allf=t',
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=330:duration=5',
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-b:v',
  '18M',
  '-pix_fmt',
  'yuv420p',
  '-c:a',
  'aac',
  '-shortest',
  '-movflags',
  '+faststart',
  clipPath,
])
const clip = await readFile(clipPath)
const fal = await startFalFake(clip)
fal.queuePositions = []
fal.progressLogs = []
// The clips cost nothing here, so a fresh account pays for every run.
const catalogFile = join(dir, 'catalog.json')
await writeFile(catalogFile, JSON.stringify({ costs: { [MODEL]: { credits: 0, per: 'second' } } }))
const app = await startApp({
  port: PORT,
  env: {
    FAL_KEY: FAL_TEST_KEY,
    FAL_QUEUE_URL: fal.server.url,
    MODEL_CATALOG_FILE: catalogFile,
    JOB_WAIT_MS: '60000',
  },
})
const loadBefore = load()
try {
  const cookie = await registerUser(app.url, `clips-${Date.now()}@example.com`, 'Bench-pass-1234')
  const headers = { 'content-type': 'application/json', origin: app.url, cookie }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    })
    const text = await res.text()
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${text}`)
    return JSON.parse(text) as Record<string, unknown>
  }
  const project = await post('/api/projects', { name: 'Clips', nodes: [], connections: [] })
  const image = await post('/api/csas/generate-image', {
    projectId: project.id,
    modelVersionId: 'storyboard-v1',
    prompt: 'A rocky cove at dusk',
    width: 1280,
    height: 720,
    numInferenceSteps: 20,
    guidanceScale: 7,
  })
  const rssBefore = await peakRssMb(app.child.pid!)
  const times: number[] = []
  for (let i = 0; i < RUNS + 1; i++) {
    fal.reset()
    fal.queuePositions = []
    fal.progressLogs = []
    const started = performance.now()
    const answer = await post('/api/ai/generate-video', {
      projectId: project.id,
      modelId: MODEL,
      prompt: 'Waves roll into a rocky cove at dusk',
      imageUrl: image.imageUrl,
      durationSeconds: 5,
      aspectRatio: '16:9',
    })
    if (typeof answer.videoUrl !== 'string') throw new Error(`no clip: ${JSON.stringify(answer)}`)
    if (i > 0) times.push(performance.now() - started) // the first warms ffmpeg and the queue
  }
  const rssAfter = await peakRssMb(app.child.pid!)
  console.log(
    JSON.stringify(
      {
        benchmark: 'clip-overhead',
        clip: { seconds: 5, size: '1920x1080', megabytes: +(clip.length / 1024 ** 2).toFixed(1) },
        runs: times.map((ms) => Math.round(ms)),
        medianMs: Math.round(median(times)),
        maxMs: Math.round(Math.max(...times)),
        appPeakRssMb: {
          beforeFirstClip: Math.round(rssBefore),
          afterLastClip: Math.round(rssAfter),
        },
        loadAverage: { before: loadBefore, after: load() },
      },
      null,
      2,
    ),
  )
} finally {
  await app.stop()
  await fal.server.close()
  await rm(dir, { recursive: true, force: true })
}
