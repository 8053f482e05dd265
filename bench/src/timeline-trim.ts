/**
 * One cut trimmed on the timeline (issue 24 item 1): the 6-scene explainer (builtin storyboard
 * frames, the builtin eSpeak voice and its word timings, word-highlight captions, 1080p30)
 * rendered from its timeline, then again with the third cut held 6 s past its narration, from the same
 * segment cache. Reports each render's video length, wall time and the segments rendered and
 * reused: the second should render that cut's body and its two transitions only.
 * Run: npm run timeline-trim -w bench
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBuiltinImageProvider } from '@reelgraph/api'
import { DEFAULT_CUT, DEFAULT_TIMELINE_SETTINGS, type FilmCut, planFilm } from '@reelgraph/shared'
import { createSpeechProvider, filmPieces, renderVideo, stopEspeak } from '../../media/src/index.ts'
import { EXPLAINER_SCENES } from './explainer-scenes.ts'
import { load } from './render-measure.ts'

const HELD_CUT = 2
/** How much longer than its narration the held cut stays, in ms. */
const HOLD_MS = 6_000

const root = await mkdtemp(join(tmpdir(), 'reelgraph-bench-trim-'))
await mkdir(join(root, 'work'))
const signal = AbortSignal.timeout(600_000)
const voice = createSpeechProvider({ provider: 'builtin' })
const images = createBuiltinImageProvider()
console.log(`load average before: ${load()}`)
const scenes: {
  text: string
  narration: Awaited<ReturnType<typeof voice.synthesize>>
  image: Uint8Array
}[] = []
for (const [i, text] of EXPLAINER_SCENES.entries()) {
  const narration = await voice.synthesize({ text }, signal)
  const image = await images.generateImage(
    {
      projectId: 1,
      modelVersionId: 'storyboard-v1',
      prompt: text,
      negativePrompt: '',
      width: 1920,
      height: 1080,
      numInferenceSteps: 25,
      guidanceScale: 7.5,
      seed: 100 + i,
    },
    signal,
  )
  scenes.push({ text, narration, image: image.bytes })
}
const settings = { ...DEFAULT_TIMELINE_SETTINGS, captionStyle: 'word-highlight' as const }

async function render(label: string, extraMs: number): Promise<void> {
  const cuts: FilmCut[] = scenes.map((s, i) => ({
    id: `scene:s${i}`,
    sceneId: `s${i}`,
    ...DEFAULT_CUT,
    // A still's length: its narration's unless held longer (0: the narration's).
    holdMs: i === HELD_CUT && extraMs > 0 ? s.narration.durationMs + extraMs : DEFAULT_CUT.holdMs,
    scene: {
      nodeId: `s${i}`,
      sceneNumber: String(i + 1),
      narration: s.text,
      imageUrl: null,
      clip: null,
    },
    place: `a${i}`,
    narrated: true,
  }))
  const plan = planFilm(cuts, settings, (cut) => ({
    clipMs: null,
    narrationMs: scenes[Number(cut.sceneId.slice(1))]!.narration.durationMs,
  }))
  const started = performance.now()
  const result = await renderVideo({
    scenes: scenes.map((s) => ({
      imageBytes: s.image,
      narrationWav: s.narration.wav,
      words: s.narration.words,
    })),
    film: { pieces: filmPieces(plan, settings, (id) => Number(id.slice(1))) },
    captions: settings,
    preset: '16:9',
    cacheDir: join(root, 'cache'),
    workDir: join(root, 'work'),
    signal,
  })
  const wallS = (performance.now() - started) / 1000
  console.log(
    `${label}: ${(result.durationMs / 1000).toFixed(1)} s of video in ${wallS.toFixed(1)} s; ` +
      `segments rendered ${result.segments.rendered.length}, from the cache ` +
      `${result.segments.cached.length}; load average ${load()}`,
  )
}

try {
  await render('full render', 0)
  await render(`cut ${HELD_CUT + 1} held ${HOLD_MS / 1000} s past its narration`, HOLD_MS)
} finally {
  stopEspeak()
  await rm(root, { recursive: true, force: true })
}
