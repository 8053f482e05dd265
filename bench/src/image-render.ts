/**
 * Image: milliseconds per storyboard frame of the builtin image provider (issue 4
 * benchmarks), by default at 1920x1080, the size Make video asks for a 16:9 render (issue
 * 20 item 4): SVG built, rasterized by sharp (librsvg) and encoded as PNG, one frame at a
 * time, as one generate-image request does. WARMUP frames first (sharp's first call loads
 * fonts), then median and p95 over FRAMES frames with a different seed and prompt each.
 * Also reports the throughput with CONCURRENT frames in flight at once (sharp renders off
 * the main thread).
 * Run: npm run image -w bench   (optional: FRAMES, then WIDTHxHEIGHT, e.g. `-- 30 1080x1920`)
 */
import { cpus, loadavg } from 'node:os'
import { createBuiltinImageProvider } from '@reelgraph/api'

const WARMUP = 5
const FRAMES = Number(process.argv[2] ?? 30)
/** The 16:9 render preset's frame, what Make video asks the image generator for. */
const [WIDTH, HEIGHT] = (process.argv[3] ?? '1920x1080').split('x').map(Number) as [number, number]
const CONCURRENT = 16

const PROMPTS = [
  'Wide shot: a lighthouse on a rocky cliff at dusk, waves crashing below, warm light from the lamp room; the camera slowly pushes in.',
  'Close-up of hands kneading dough on a floured wooden table, morning light through a kitchen window.',
  'Aerial view of a winding mountain road in autumn, a red car climbing through golden trees, mist in the valley below, slow drone move forward with the car entering frame from the left and the sun low behind the ridge.',
]

const provider = createBuiltinImageProvider()
const signal = new AbortController().signal

function request(i: number) {
  return {
    projectId: 1,
    modelVersionId: 'storyboard-v1',
    prompt: PROMPTS[i % PROMPTS.length]!,
    negativePrompt: '',
    width: WIDTH,
    height: HEIGHT,
    numInferenceSteps: 25,
    guidanceScale: 7.5,
    seed: 1000 + i,
  }
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)]!
}

const round = (n: number) => Math.round(n * 10) / 10

for (let i = 0; i < WARMUP; i++) await provider.generateImage(request(i), signal)

const times: number[] = []
let bytes = 0
for (let i = 0; i < FRAMES; i++) {
  const start = performance.now()
  const image = await provider.generateImage(request(i), signal)
  times.push(performance.now() - start)
  bytes += image.bytes.byteLength
}
times.sort((a, b) => a - b)

const batchStart = performance.now()
await Promise.all(
  Array.from({ length: CONCURRENT }, (_, i) => provider.generateImage(request(i), signal)),
)
const batchMs = performance.now() - batchStart

console.log(
  JSON.stringify(
    {
      benchmark: 'builtin image renderer (storyboard frame, SVG -> sharp PNG)',
      size: `${WIDTH}x${HEIGHT}`,
      frames: FRAMES,
      msPerFrame: {
        median: round(percentile(times, 50)),
        p95: round(percentile(times, 95)),
        min: round(times[0]!),
        max: round(times.at(-1)!),
      },
      meanPngBytes: Math.round(bytes / FRAMES),
      concurrent: {
        frames: CONCURRENT,
        framesPerSecond: round((CONCURRENT * 1000) / batchMs),
      },
      cpus: cpus().length,
      loadAverage: loadavg().map(round),
    },
    null,
    2,
  ),
)
