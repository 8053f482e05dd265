/**
 * Render speed (issue 13 item 3): a 6-scene, about 45 s, 1080p30 video with the builtin voice
 * (eSpeak NG) and subtitles, music ducked under the voice, rendered by media's renderVideo.
 * Reports render time divided by video length for a full render (empty segment cache) and
 * for a re-render after one scene's narration changed, that re-render's share of the full
 * one, the CPU time (Node and ffmpeg, from /proc), and the peak memory: each render runs in
 * a fresh Node process (inputs prepared beforehand and read from disk, as a render job
 * would), whose RSS plus its children's (ffmpeg, sharp's image worker) is summed from /proc
 * every 100 ms. The load average is printed before and after, since other work on the
 * machine slows the wall times; CPU time / cores is what the render would take on an idle
 * machine.
 * Images: the builtin storyboard frames with film grain over them, so the encoder sees
 * photographic detail as it would with generated images.
 * Targets on the 2-core machine: full ≤ 0.6x the video's length, one-scene change ≤ 25% of a
 * full render, peak RSS ≤ 600 MB.
 * Run: npm run render-speed -w bench   (optional: ffmpeg path, concurrency)
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
// The render process loads the renderer alone (as a render job would), not the speech
// providers, whose modules hold some 140 MB: those are loaded where inputs are prepared.
import { renderVideo, type RenderScene } from '../../media/src/render/index.ts'
import { EXPLAINER_SCENES as SCENES } from './explainer-scenes.ts'
import { cpuSeconds, load, photoLike, watchMemory } from './render-measure.ts'

const childMode = process.argv[2] === '--render'
const FFMPEG_PATH = process.argv[childMode ? 5 : 2] || undefined
const CONCURRENCY = Number(process.argv[childMode ? 6 : 3] || 1)

const CHANGED_SCENE = 3
const CHANGED_TEXT =
  'The sun pulls as well, though less than half as hard. When the sun and the moon line up, the two pulls add up to spring tides.'

interface RenderRun {
  wallS: number
  cpuS: number
  videoS: number
  rendered: number
  cached: number
  peakTotal: number
  peakFfmpeg: number
  peakNode: number
  mp4Bytes: number
  ffmpeg: string
  runs: { step: string; cpuMs: number; wallMs: number; peakRssBytes: number }[]
}

interface PreparedScene {
  image: string
  wav: string
  cues: RenderScene['cues']
}

/** Child mode: render the prepared scenes once and print a RenderRun as JSON. */
async function renderOnce(dir: string, variant: 'full' | 'changed'): Promise<void> {
  const prepared = JSON.parse(
    await readFile(join(dir, `${variant}.json`), 'utf8'),
  ) as PreparedScene[]
  const scenes: RenderScene[] = prepared.map((s) => ({
    imagePath: s.image,
    narrationWav: s.wav,
    cues: s.cues,
  }))
  const stop = watchMemory()
  const cpu0 = cpuSeconds()
  const t0 = performance.now()
  const result = await renderVideo({
    scenes,
    preset: '16:9',
    music: 'calm-pad',
    cacheDir: join(dir, 'cache'),
    workDir: dir,
    ffmpegPath: FFMPEG_PATH,
    concurrency: CONCURRENCY,
  })
  const wallS = (performance.now() - t0) / 1000
  const memory = stop()
  const run: RenderRun = {
    wallS,
    cpuS: cpuSeconds() - cpu0,
    videoS: result.durationMs / 1000,
    rendered: result.segments.rendered.length,
    cached: result.segments.cached.length,
    peakTotal: memory.total,
    peakFfmpeg: Math.max(memory.children, result.ffmpeg.peakRssBytes),
    peakNode: process.resourceUsage().maxRSS * 1024,
    mp4Bytes: (await stat(result.mp4Path)).size,
    ffmpeg: `${result.ffmpeg.version} (xfade: ${result.ffmpeg.xfade})`,
    runs: result.runs,
  }
  await rm(result.mp4Path)
  console.log(JSON.stringify(run))
}

function spawnRender(dir: string, variant: 'full' | 'changed'): RenderRun {
  const out = execFileSync(
    process.execPath,
    [
      fileURLToPath(import.meta.url),
      '--render',
      dir,
      variant,
      FFMPEG_PATH ?? '',
      String(CONCURRENCY),
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return JSON.parse(out.trim().split('\n').at(-1)!) as RenderRun
}

async function prepare(dir: string): Promise<void> {
  const { createBuiltinImageProvider } = await import('@reelgraph/api')
  const { createBuiltinSpeechProvider, cuesFromWords, stopEspeak } =
    await import('../../media/src/index.ts')
  const signal = new AbortController().signal
  const voice = createBuiltinSpeechProvider({ timeoutMs: 120_000 })
  const imageProvider = createBuiltinImageProvider()
  const narrations: Awaited<ReturnType<typeof voice.synthesize>>[] = []
  for (const text of [...SCENES, CHANGED_TEXT]) {
    narrations.push(await voice.synthesize({ text }, signal))
  }
  await stopEspeak()
  const scenes: PreparedScene[] = []
  for (const [i, prompt] of SCENES.entries()) {
    const image = await imageProvider.generateImage(
      {
        projectId: 1,
        modelVersionId: 'storyboard-v1',
        prompt,
        negativePrompt: '',
        width: 1920,
        height: 1080,
        numInferenceSteps: 25,
        guidanceScale: 7.5,
        seed: 100 + i,
      },
      signal,
    )
    const imagePath = join(dir, `image-${i}.jpg`)
    await writeFile(imagePath, await photoLike(image.bytes, i))
    scenes.push({ image: imagePath, wav: '', cues: [] })
  }
  const write = async (variant: 'full' | 'changed') => {
    const list = await Promise.all(
      scenes.map(async (scene, i) => {
        const n =
          variant === 'changed' && i === CHANGED_SCENE ? narrations[SCENES.length]! : narrations[i]!
        const wav = join(dir, `narration-${variant}-${i}.wav`)
        await writeFile(wav, n.wav)
        return { ...scene, wav, cues: cuesFromWords(n.words, { endLimitMs: n.durationMs }) }
      }),
    )
    await writeFile(join(dir, `${variant}.json`), JSON.stringify(list))
  }
  await write('full')
  await write('changed')
}

if (childMode) {
  await renderOnce(process.argv[3]!, process.argv[4] as 'full' | 'changed')
} else {
  console.log(
    `render-speed: load average before ${load()} (1, 5, 15 min) on ${cpus().length} cores`,
  )
  const dir = await mkdtemp(join(tmpdir(), 'render-speed-'))
  try {
    await prepare(dir)
    const full = spawnRender(dir, 'full')
    const one = spawnRender(dir, 'changed')
    const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`
    const cores = cpus().length
    console.log(`  ffmpeg: ${full.ffmpeg}, ${CONCURRENCY} segment(s) at once`)
    console.log(
      `  video: ${SCENES.length} scenes, ${full.videoS.toFixed(1)} s at 1920x1080 30 fps, ${(full.mp4Bytes / 1024 / 1024).toFixed(1)} MB`,
    )
    console.log(
      `  full render: ${full.wallS.toFixed(1)} s = ${(full.wallS / full.videoS).toFixed(2)}x the video's length (target <= 0.6x); CPU ${full.cpuS.toFixed(1)} s = ${(full.cpuS / cores / full.videoS).toFixed(2)}x on ${cores} idle cores; ${full.rendered} segments`,
    )
    console.log(
      `  one scene changed: ${one.wallS.toFixed(1)} s = ${((one.wallS / full.wallS) * 100).toFixed(0)}% of the full render (target <= 25%); CPU ${one.cpuS.toFixed(1)} s = ${((one.cpuS / full.cpuS) * 100).toFixed(0)}% of the full render's; ${one.rendered} segments rendered, ${one.cached} cached`,
    )
    console.log(
      `  peak RSS, Node + children: ${mb(Math.max(full.peakTotal, one.peakTotal))} (target <= 600 MB); children (ffmpeg, image worker) ${mb(Math.max(full.peakFfmpeg, one.peakFfmpeg))}, this Node process ${mb(Math.max(full.peakNode, one.peakNode))}`,
    )
    for (const [name, run] of [
      ['full', full],
      ['one scene', one],
    ] as const) {
      const sum = (pick: (step: string) => boolean) =>
        run.runs.filter((r) => pick(r.step)).reduce((total, r) => total + r.cpuMs, 0) / 1000
      const scenes = sum((step) => step.startsWith('scene'))
      const fades = sum((step) => step.startsWith('crossfade'))
      const audio = sum((step) => step.startsWith('audio'))
      const mix = sum((step) => step === 'audio mix')
      const join = sum((step) => step === 'join')
      const node = run.cpuS - scenes - fades - audio - join
      console.log(
        `  CPU of the ${name} render, s: scenes ${scenes.toFixed(1)}, crossfades ${fades.toFixed(1)}, audio ${audio.toFixed(1)} (mix and measure ${mix.toFixed(1)}), join ${join.toFixed(1)}, node (stills, subtitles, JS) ${node.toFixed(1)}`,
      )
    }
    console.log(`  load average after: ${load()} (1, 5, 15 min)`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
