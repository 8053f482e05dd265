/**
 * Motion draft: how long the builtin offline motion draft (issue 22 item 2: a camera move with
 * parallax over one picture, by ffmpeg) takes per second of clip, at 720p and 1080p, 16:9,
 * through the provider as the clip job calls it (the storyboard frame drawn from the prompt,
 * ffmpeg, the file moved into place). One warm-up draft first, then ROUNDS drafts of SECONDS
 * each per resolution; the median render time ÷ clip length is reported with the load
 * average, since other work on the machine slows ffmpeg.
 * Run: npm run motion-draft -w bench   (optional: ROUNDS, SECONDS)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ClipRequest,
  createBuiltinMotionProvider,
  createModelCatalog,
  loadEnv,
} from '@reelgraph/api'
import { median } from './app-process.ts'

const ROUNDS = Number(process.argv[2] ?? 3)
const SECONDS = Number(process.argv[3] ?? 5)

const dir = await mkdtemp(join(tmpdir(), 'motion-draft-bench-'))
const provider = createBuiltinMotionProvider({ workDir: join(dir, 'work') })
const model = createModelCatalog(loadEnv({ DATA_DIR: dir })).video('builtin:motion-draft')!.model

function request(resolution: string, seed: number): ClipRequest {
  return {
    model,
    prompt: 'Wide shot: a lighthouse on a rocky cliff at dusk, waves crashing below',
    negativePrompt: '',
    durationSeconds: SECONDS,
    aspectRatio: '16:9',
    resolution,
    seed,
    withAudio: false,
  }
}

async function draft(resolution: string, seed: number): Promise<number> {
  const signal = new AbortController().signal
  const started = performance.now()
  const clip = await provider.generateClip(request(resolution, seed), {
    signal,
    onProgress: () => {},
  })
  await clip.saveTo(join(dir, `draft-${resolution}-${seed}.mp4`), signal)
  return (performance.now() - started) / 1000
}

await draft('720p', 0)
const results: { resolution: string; ratio: number }[] = []
for (const resolution of ['720p', '1080p']) {
  const times: number[] = []
  for (let i = 1; i <= ROUNDS; i++) times.push(await draft(resolution, i))
  results.push({ resolution, ratio: median(times) / SECONDS })
}
await rm(dir, { recursive: true, force: true })

const [one, five, fifteen] = loadavg().map((n) => n.toFixed(2))
console.log(
  `motion-draft: builtin offline motion draft, 16:9, ${SECONDS} s clips, median of ${ROUNDS}`,
)
for (const { resolution, ratio } of results) {
  console.log(`  ${resolution}: ${ratio.toFixed(2)} s of rendering per second of clip`)
}
console.log(`  load average ${one} ${five} ${fifteen} on ${cpus().length} cores`)
