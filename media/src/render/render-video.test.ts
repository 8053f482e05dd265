// Integration: real renders with each ffmpeg binary, checked with ffprobe and ffmpeg's own
// measurements (ebur128, volumedetect), frames compared with raw pixels.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cuesFromWords } from '@reelgraph/shared'
import { estimateWordTimings } from '@reelgraph/shared'
import { VIDEO_PRESETS } from './config.ts'
import { buildLevelPassArgs } from './audio-graph.ts'
import { detectCapabilities, runFfmpeg } from './ffmpeg.ts'
import { buildSegmentFilterGraph } from './filter-graph.ts'
import { kenBurnsMotion } from './motion.ts'
import { fitStill } from './stills.ts'
import { DEFAULT_SUBTITLE_STYLE, renderSubtitleImage, subtitleBand } from './subtitle-images.ts'
import { renderVideo, type RenderProgress, type RenderScene } from './render-video.ts'
import { encodePcmWav, parsePcmWav } from './wav.ts'
import {
  binaries,
  extractFrame,
  ffprobe,
  makeNarrationWav,
  makeTestImage,
  maxVolumeDb,
  meanDifference,
  measureLoudness,
  systemFfprobe,
} from './testing/media-fixtures.ts'

const run = promisify(execFile)
const LONG = 180_000

const TEXTS = [
  'A lighthouse stands on the cliff.',
  'Waves roll in, one after another, all night.',
  'At dawn the lamp goes dark.',
]
const NARRATION_S = [1.8, 2.4, 1.5]

function narratedScene(image: Buffer, index: number, seconds = NARRATION_S[index]!): RenderScene {
  const text = TEXTS[index]!
  const durationMs = seconds * 1000
  const words = estimateWordTimings(text, { startMs: 0, endMs: durationMs })
  return {
    imageBytes: image,
    narrationWav: makeNarrationWav(seconds, 140 + 30 * index),
    cues: cuesFromWords(words, { endLimitMs: durationMs }),
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

describe.each(binaries)('renderVideo with $name', ({ path: ffmpegPath, missing }) => {
  const skip = !ffmpegPath || !systemFfprobe
  const why = !ffmpegPath ? missing : 'no ffprobe on PATH to check the output'
  let root: string
  let cacheDir: string
  let workDir: string
  let images: Buffer[]
  let scenes: RenderScene[]

  beforeAll(async () => {
    if (skip) return
    root = await mkdtemp(join(tmpdir(), 'render-'))
    cacheDir = join(root, 'cache')
    workDir = join(root, 'work')
    await mkdir(workDir, { recursive: true })
    images = await Promise.all([30, 150, 270].map((hue) => makeTestImage(hue)))
    scenes = images.map((image, i) => narratedScene(image, i))
  })
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true })
  })

  const test = it.skipIf(skip)
  // What does not depend on the binary (the segment cache, a preset's size, refusing a bad
  // image, cancelling) is checked with the first binary only: the static build's runs of it
  // cost some 17 s of the suite. Its filters, encoder and loudness passes run in the others.
  const firstBinaryOnly = (name: string, body: () => Promise<void>, timeoutMs: number) => {
    if (ffmpegPath === binaries[0]!.path) test(name, body, timeoutMs)
  }
  const suffix = skip ? ` (skipped: ${why})` : ''
  let first: Awaited<ReturnType<typeof renderVideo>>
  const progress: RenderProgress[] = []

  test(
    `renders H.264 yuv420p and AAC 48 kHz at the planned length and -14 LUFS${suffix}`,
    async () => {
      first = await renderVideo({
        scenes,
        preset: '16:9',
        music: 'calm-pad',
        cacheDir,
        workDir,
        ffmpegPath: ffmpegPath!,
        onProgress: (p) => progress.push(p),
      })
      const probe = await ffprobe(first.mp4Path)
      const video = probe.streams.find((s) => s.codec_type === 'video')!
      const audio = probe.streams.find((s) => s.codec_type === 'audio')!
      expect(probe.format.format_name).toContain('mp4')
      expect(video).toMatchObject({
        codec_name: 'h264',
        pix_fmt: 'yuv420p',
        width: 1920,
        height: 1080,
      })
      expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000' })
      const planned = first.timeline.at(-1)!.endMs / 1000
      expect(first.durationMs / 1000).toBeCloseTo(planned, 6)
      expect(Math.abs(Number(probe.format.duration) - planned)).toBeLessThanOrEqual(0.1)
      expect(Math.abs(Number(video.duration) - planned)).toBeLessThanOrEqual(0.1)
      expect(Math.abs(Number(audio.duration) - planned)).toBeLessThanOrEqual(0.1)

      expect(await maxVolumeDb(first.mp4Path)).toBeGreaterThan(-20)
      const { integrated } = await measureLoudness(first.mp4Path)
      expect(Math.abs(integrated - -14)).toBeLessThanOrEqual(1.5)

      // 3 scenes and 2 crossfades, all rendered; progress rises to 100 through each stage.
      expect(first.segments).toMatchObject({ cached: [] })
      expect(first.segments.rendered).toHaveLength(5)
      // Progress only goes up: stages in order, and within a stage `done` never falls.
      const STAGES = ['segments', 'audio', 'joining']
      const steps = progress.map((p) => [STAGES.indexOf(p.stage), p.done / p.total] as const)
      for (let i = 1; i < steps.length; i++) {
        const [stage, done] = steps[i]!
        const [stageBefore, doneBefore] = steps[i - 1]!
        expect(stage > stageBefore || (stage === stageBefore && done >= doneBefore)).toBe(true)
      }
      expect(progress.at(-1)).toEqual({ stage: 'joining', done: 1, total: 1 })
      // Each of the 5 segments is reported while it renders (1/5 ... 5/5), then the join.
      const segments = progress.filter((p) => p.stage === 'segments')
      expect(segments.every((p) => p.total === 5)).toBe(true)
      for (let k = 0; k < 5; k++) {
        expect(segments.some((p) => p.done >= k && p.done < k + 1)).toBe(true)
      }
      expect(progress.some((p) => p.stage === 'joining')).toBe(true)
      expect(await readdir(workDir)).toEqual([first.mp4Path.split('/').at(-1)])
    },
    LONG,
  )

  test(
    `burns subtitles into the subtitle band only${suffix}`,
    async () => {
      const plain = await renderVideo({
        scenes,
        preset: '16:9',
        music: 'calm-pad',
        subtitles: false,
        cacheDir,
        workDir,
        ffmpegPath: ffmpegPath!,
      })
      // Crossfades carry no cue here, so they come from the cache.
      expect(plain.segments.cached).toHaveLength(2)
      const preset = VIDEO_PRESETS['16:9']
      const band = subtitleBand(preset)
      // Half a second into the first scene's narration: its first cue is on screen.
      const frame = Math.round(((first.timeline[0]!.narrationStartMs! + 500) * 30) / 1000)
      const [withSubs, without] = await Promise.all([
        extractFrame(first.mp4Path, frame, preset),
        extractFrame(plain.mp4Path, frame, preset),
      ])
      // H.264 re-encodes the whole frame, so pixels far from the band differ by encoder noise
      // only; the exact, pre-encoding check is the next test.
      const outside = meanDifference(withSubs, without, preset.width, 0, band.y - 16)
      const inside = meanDifference(withSubs, without, preset.width, band.y, preset.height)
      expect(outside).toBeLessThan(1)
      expect(inside).toBeGreaterThan(5 * Math.max(outside, 0.5))
    },
    LONG,
  )

  test(
    `changes no pixel outside the band before encoding${suffix}`,
    async () => {
      const preset = VIDEO_PRESETS['16:9']
      const dir = await mkdtemp(join(root, 'raw-'))
      const stillPath = join(dir, 'still.jpg')
      const cuePath = join(dir, 'cue.png')
      await writeFile(stillPath, await fitStill(images[0]!, preset, 'cover'))
      await writeFile(
        cuePath,
        await renderSubtitleImage(
          ['Two lines of', 'subtitle text'],
          preset,
          DEFAULT_SUBTITLE_STYLE,
        ),
      )
      const band = subtitleBand(preset)
      const part = { stillPath, motion: kenBurnsMotion(1), sceneFrames: 60, firstSceneFrame: 20 }
      const capabilities = await detectCapabilities(ffmpegPath!)
      // The segment's own inputs and graph, written out as raw frames instead of H.264.
      const raw = async (overlays: boolean) => {
        const { args } = buildSegmentFilterGraph(
          {
            preset,
            frames: 3,
            parts: [part],
            overlays: overlays
              ? [{ imagePath: cuePath, x: band.x, y: band.y, startFrame: 0, endFrame: 3 }]
              : [],
          },
          capabilities,
          '/unused.mp4',
        )
        const inputsAndGraph = args.slice(0, args.indexOf('-filter_complex') + 2)
        const { stdout } = await run(
          ffmpegPath!,
          [
            '-v',
            'error',
            ...inputsAndGraph,
            '-map',
            '[v]',
            '-frames:v',
            '3',
            '-f',
            'rawvideo',
            '-pix_fmt',
            'yuv420p',
            'pipe:1',
          ],
          { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
        )
        return stdout
      }
      const [a, b] = await Promise.all([raw(true), raw(false)])
      const frameBytes = (preset.width * preset.height * 3) / 2
      expect(a.length).toBe(3 * frameBytes)
      for (let f = 0; f < 3; f++) {
        const base = f * frameBytes
        const lumaAbove = band.y * preset.width
        const chromaAbove = (band.y / 2) * (preset.width / 2)
        const planes = [
          [base, lumaAbove],
          [base + preset.width * preset.height, chromaAbove],
          [base + (preset.width * preset.height * 5) / 4, chromaAbove],
        ] as const
        for (const [start, length] of planes) {
          expect(a.subarray(start, start + length).equals(b.subarray(start, start + length))).toBe(
            true,
          )
        }
        const lumaBand = a.subarray(base + lumaAbove, base + preset.width * preset.height)
        const plainBand = b.subarray(base + lumaAbove, base + preset.width * preset.height)
        expect(lumaBand.equals(plainBand)).toBe(false)
      }
    },
    LONG,
  )

  test(
    `keeps the audio in place through the limiter${suffix}`,
    async () => {
      const samples = new Float32Array(48_000)
      samples[4_800] = 0.5 // an impulse at 100 ms
      const mixPath = join(root, 'impulse.wav')
      const levelPath = join(root, 'impulse-level.wav')
      await writeFile(
        mixPath,
        encodePcmWav(
          { encoding: 3, sampleRate: 48_000, channels: 1, bitsPerSample: 32 },
          new Uint8Array(samples.buffer),
        ),
      )
      await runFfmpeg(ffmpegPath!, buildLevelPassArgs(mixPath, 0, 48_000, levelPath))
      const out = parsePcmWav(await readFile(levelPath))
      const level = new Float32Array(new Uint8Array(out.samples).buffer)
      expect(level.length).toBe(48_000)
      const at = level.findIndex((v) => Math.abs(v) > 0.1)
      expect(Math.abs(at - 4_800)).toBeLessThanOrEqual(1)
    },
    LONG,
  )

  firstBinaryOnly(
    `re-renders only the changed scene and its crossfades${suffix}`,
    async () => {
      const before = new Set(await filesUnder(join(cacheDir, 'segments')))
      const changed = [scenes[0]!, narratedScene(images[1]!, 1, 3.1), scenes[2]!]
      const result = await renderVideo({
        scenes: changed,
        preset: '16:9',
        music: 'calm-pad',
        cacheDir,
        workDir,
        ffmpegPath: ffmpegPath!,
      })
      // Scene 2's body and the crossfades on both sides of it; scenes 1 and 3 from the cache.
      expect(result.segments.rendered).toHaveLength(3)
      expect(result.segments.cached).toEqual([
        first.segments.rendered[0],
        first.segments.rendered[4],
      ])
      const added = (await filesUnder(join(cacheDir, 'segments'))).filter((f) => !before.has(f))
      expect(added.map((f) => f.split('/').at(-1)!.replace('.mp4', '')).sort()).toEqual(
        [...result.segments.rendered].sort(),
      )
      const probe = await ffprobe(result.mp4Path)
      expect(Math.abs(Number(probe.format.duration) - result.durationMs / 1000)).toBeLessThan(0.1)
      expect(result.durationMs - first.durationMs).toBeCloseTo(700, -2)
    },
    LONG,
  )

  firstBinaryOnly(
    `renders 9:16 at 1080x1920${suffix}`,
    async () => {
      const result = await renderVideo({
        scenes: [{ imageBytes: images[2]! }],
        preset: '9:16',
        fit: 'contain-blur',
        cacheDir,
        workDir,
        ffmpegPath: ffmpegPath!,
      })
      const probe = await ffprobe(result.mp4Path)
      expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({
        width: 1080,
        height: 1920,
        pix_fmt: 'yuv420p',
      })
      // A scene without narration lasts 2 s; its silent audio is left silent.
      expect(result.durationMs).toBe(2000)
      expect(Math.abs(Number(probe.format.duration) - 2)).toBeLessThanOrEqual(0.1)
    },
    LONG,
  )

  firstBinaryOnly(
    `refuses an unreadable image, leaving no temporary file${suffix}`,
    async () => {
      const badCache = join(root, 'bad-cache')
      const badWork = join(root, 'bad-work')
      await mkdir(badWork, { recursive: true })
      await expect(
        renderVideo({
          scenes: [scenes[0]!, { ...scenes[1]!, imageBytes: Buffer.from('not an image') }],
          cacheDir: badCache,
          workDir: badWork,
          ffmpegPath: ffmpegPath!,
        }),
      ).rejects.toMatchObject({ name: 'RenderError', code: 'invalid-input' })
      expect(await readdir(badWork)).toEqual([])
      for (const file of await filesUnder(badCache)) {
        expect(file).toMatch(/\/[0-9a-f]{64}\.(mp4|jpg|wav)$/)
      }
    },
    LONG,
  )

  firstBinaryOnly(
    `cancels mid-render, leaving no temporary file${suffix}`,
    async () => {
      const freshCache = join(root, 'cancel-cache')
      const freshWork = join(root, 'cancel-work')
      await mkdir(freshWork, { recursive: true })
      const controller = new AbortController()
      const render = renderVideo({
        scenes,
        preset: '16:9',
        cacheDir: freshCache,
        workDir: freshWork,
        ffmpegPath: ffmpegPath!,
        signal: controller.signal,
        onProgress: (p) => {
          // Once the second segment is under way (the first is finished).
          if (p.stage === 'segments' && p.done > 1) controller.abort()
        },
      })
      await expect(render).rejects.toMatchObject({ name: 'AbortError' })
      expect(await readdir(freshWork)).toEqual([])
      // Only the one finished segment (and the stills it needed) stay; no partial file.
      const left = await filesUnder(join(freshCache, 'segments'))
      expect(left).toHaveLength(1)
      expect(left[0]).toMatch(/\/[0-9a-f]{64}\.mp4$/)
      for (const file of await filesUnder(freshCache)) {
        expect(file).toMatch(/\/[0-9a-f]{64}\.(mp4|jpg)$/)
      }
    },
    LONG,
  )
})
