/**
 * Clips in the render (issue 22 item 4): the 6-scene, about 48 s, 1080p30 explainer of
 * render-speed (builtin voice, subtitles, music ducked under the voice), rendered with a
 * still per scene (Ken Burns), with a clip per scene and with a grainy clip per scene, in
 * the same run, each from an empty segment cache and in a fresh Node process. Reports render
 * time divided by video length for each, their CPU time (Node, the image worker and every
 * ffmpeg, from /proc) and peak memory (the process's RSS plus its children's, sampled every
 * 100 ms), and where the CPU went. The load average is printed before and after: other work
 * on the machine slows the wall times; CPU time / cores is what an idle machine would take.
 * Clips: 1920x1080 30 fps H.264 of `CLIP_SECONDS` s (default 5: shorter than every scene, so
 * each holds its last frame, the default; 10 covers every scene and is trimmed), as video
 * models deliver them, made beforehand from each scene's still: a pan across it, so every
 * frame differs as in generated video, and for the grainy ones temporal grain over that (the
 * hard case for decoder and encoder). Their sound is off (the default).
 * Run: npm run render-clips -w bench   (optional: ffmpeg path, clip seconds)
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
// The render process loads the renderer alone (as a render job would), not the speech
// providers, whose modules hold some 140 MB: those are loaded where inputs are prepared.
import { findFfmpeg, renderVideo, type RenderScene } from '../../media/src/render/index.ts'
import { EXPLAINER_SCENES as SCENES } from './explainer-scenes.ts'
import { cpuSeconds, load, photoLike, watchMemory } from './render-measure.ts'

const childMode = process.argv[2] === '--render'
const FFMPEG_PATH = process.argv[childMode ? 5 : 2] || undefined
/** Length of each clip, in seconds: what Kling, Veo, Wan and LTX make by default. */
const CLIP_SECONDS = Number(process.argv[childMode ? 6 : 3] || 5)

type Variant = 'stills' | 'clips' | 'grainy clips'

interface RenderRun {
  wallS: number
  cpuS: number
  videoS: number
  segments: number
  peakTotal: number
  peakChildren: number
  peakNode: number
  mp4Bytes: number
  runs: { step: string; cpuMs: number; wallMs: number; peakRssBytes: number }[]
}

interface PreparedScene {
  image: string
  clip: string
  grainyClip: string
  wav: string
  cues: RenderScene['cues']
}

/** Child mode: render the prepared scenes once as `variant` and print a RenderRun as JSON. */
async function renderOnce(dir: string, variant: Variant): Promise<void> {
  const prepared = JSON.parse(await readFile(join(dir, 'scenes.json'), 'utf8')) as PreparedScene[]
  const scenes: RenderScene[] = prepared.map((s) => ({
    ...(variant === 'stills'
      ? { imagePath: s.image }
      : { clip: { path: variant === 'clips' ? s.clip : s.grainyClip } }),
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
    cacheDir: join(dir, `cache-${variant.replace(' ', '-')}`),
    workDir: dir,
    ffmpegPath: FFMPEG_PATH,
  })
  const wallS = (performance.now() - t0) / 1000
  const memory = stop()
  const run: RenderRun = {
    wallS,
    cpuS: cpuSeconds() - cpu0,
    videoS: result.durationMs / 1000,
    segments: result.segments.rendered.length,
    peakTotal: memory.total,
    peakChildren: Math.max(memory.children, result.ffmpeg.peakRssBytes),
    peakNode: process.resourceUsage().maxRSS * 1024,
    mp4Bytes: (await stat(result.mp4Path)).size,
    runs: result.runs,
  }
  await rm(result.mp4Path)
  console.log(JSON.stringify(run))
}

function spawnRender(dir: string, variant: Variant): RenderRun {
  const out = execFileSync(
    process.execPath,
    [
      fileURLToPath(import.meta.url),
      '--render',
      dir,
      variant,
      FFMPEG_PATH ?? '',
      String(CLIP_SECONDS),
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  return JSON.parse(out.trim().split('\n').at(-1)!) as RenderRun
}

/**
 * Temporal grain of the grainy clips (ffmpeg `noise` strength, 0-100): every pixel changes
 * every frame, as in footage with film grain or a busy generated scene (water, foliage).
 */
const CLIP_GRAIN = 5

/**
 * A clip from a still, as a video model might deliver it: 1920x1080 at 30 fps for
 * `CLIP_SECONDS`, a pan across the still scaled to 125% (its grain moves with it, so every
 * frame differs), with `grain` temporal noise over it, H.264 High at CRF 18 (providers
 * deliver high bit rates).
 */
function makeClip(ffmpeg: string, still: string, path: string, grain: number): void {
  const pan = `crop=1920:1080:x='(iw-ow)*t/${CLIP_SECONDS}':y='(ih-oh)/2'`
  const noise = grain > 0 ? `,noise=alls=${grain}:allf=t` : ''
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-y', '-loop', '1', '-framerate', '30', '-t', String(CLIP_SECONDS)],
    ...['-i', still, '-vf', `scale=2400:1350,${pan}${noise},format=yuv420p`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-movflags', '+faststart'],
    path,
  ])
}

async function prepare(dir: string, ffmpeg: string): Promise<void> {
  const { createBuiltinImageProvider } = await import('@reelgraph/api')
  const { createBuiltinSpeechProvider, cuesFromWords, stopEspeak } =
    await import('../../media/src/index.ts')
  const signal = new AbortController().signal
  const voice = createBuiltinSpeechProvider({ timeoutMs: 120_000 })
  const imageProvider = createBuiltinImageProvider()
  const scenes: PreparedScene[] = []
  for (const [i, text] of SCENES.entries()) {
    const narration = await voice.synthesize({ text }, signal)
    const image = await imageProvider.generateImage(
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
    const imagePath = join(dir, `image-${i}.jpg`)
    await writeFile(imagePath, await photoLike(image.bytes, i))
    const clipPath = join(dir, `clip-${i}.mp4`)
    makeClip(ffmpeg, imagePath, clipPath, 0)
    const grainyClipPath = join(dir, `grainy-clip-${i}.mp4`)
    makeClip(ffmpeg, imagePath, grainyClipPath, CLIP_GRAIN)
    const wav = join(dir, `narration-${i}.wav`)
    await writeFile(wav, narration.wav)
    scenes.push({
      image: imagePath,
      clip: clipPath,
      grainyClip: grainyClipPath,
      wav,
      cues: cuesFromWords(narration.words, { endLimitMs: narration.durationMs }),
    })
  }
  await stopEspeak()
  await writeFile(join(dir, 'scenes.json'), JSON.stringify(scenes))
}

if (childMode) {
  await renderOnce(process.argv[3]!, process.argv[4] as Variant)
} else {
  console.log(
    `render-clips: load average before ${load()} (1, 5, 15 min) on ${cpus().length} cores`,
  )
  const ffmpeg = findFfmpeg({ ffmpegPath: FFMPEG_PATH }).path
  const dir = await mkdtemp(join(tmpdir(), 'render-clips-'))
  try {
    await prepare(dir, ffmpeg)
    console.log(`  inputs ready; load average ${load()}`)
    const runs = (['stills', 'clips', 'grainy clips'] as const).map(
      (variant) => [variant, spawnRender(dir, variant)] as const,
    )
    const stills = runs[0]![1]
    const cores = cpus().length
    const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`
    const prepared = JSON.parse(await readFile(join(dir, 'scenes.json'), 'utf8')) as PreparedScene[]
    const megabits = async (pick: (s: PreparedScene) => string) => {
      const files = await Promise.all(prepared.map((s) => stat(pick(s))))
      const bytes = files.reduce((sum, file) => sum + file.size, 0)
      return ((bytes * 8) / 1e6 / (prepared.length * CLIP_SECONDS)).toFixed(1)
    }
    console.log(
      `  ffmpeg: ${ffmpeg}; ${prepared.length} clips of ${CLIP_SECONDS} s at 1920x1080 30 fps each, ` +
        `${await megabits((s) => s.clip)} Mb/s (plain), ${await megabits((s) => s.grainyClip)} Mb/s (grain ${CLIP_GRAIN})`,
    )
    for (const [name, run] of runs) {
      const sum = (pick: (step: string) => boolean) =>
        run.runs.filter((r) => pick(r.step)).reduce((total, r) => total + r.cpuMs, 0) / 1000
      const scenes = sum((step) => step.startsWith('scene'))
      const fades = sum((step) => step.startsWith('crossfade'))
      const audio = sum((step) => step.startsWith('audio'))
      const join = sum((step) => step === 'join')
      console.log(
        `  ${name}: ${run.videoS.toFixed(1)} s video, ${(run.mp4Bytes / 1024 / 1024).toFixed(1)} MB, ${run.segments} segments; ` +
          `render ${run.wallS.toFixed(1)} s = ${(run.wallS / run.videoS).toFixed(2)}x the video's length; ` +
          `CPU ${run.cpuS.toFixed(1)} s = ${(run.cpuS / cores / run.videoS).toFixed(2)}x on ${cores} idle cores ` +
          `(scenes ${scenes.toFixed(1)}, crossfades ${fades.toFixed(1)}, audio ${audio.toFixed(1)}, join ${join.toFixed(1)}, ` +
          `node and the rest ${(run.cpuS - scenes - fades - audio - join).toFixed(1)}); ` +
          `peak RSS ${mb(run.peakTotal)} (children ${mb(run.peakChildren)}, node ${mb(run.peakNode)})`,
      )
    }
    for (const [name, run] of runs.slice(1)) {
      console.log(
        `  ${name} / stills: wall ${(run.wallS / stills.wallS).toFixed(2)}x, CPU ${(run.cpuS / stills.cpuS).toFixed(2)}x`,
      )
    }
    console.log(`  load average after: ${load()} (1, 5, 15 min)`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
