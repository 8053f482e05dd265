import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kenBurnsMotion } from './motion.ts'
import {
  buildMotionDraftArgs,
  MOTION_DRAFT_PARALLAX,
  parallaxMotion,
  renderMotionDraft,
} from './motion-draft.ts'
import {
  binaries,
  extractFrame,
  ffprobe,
  freezes,
  makeTestImage,
  meanDifference,
  systemFfmpeg,
  systemFfprobe,
} from './testing/media-fixtures.ts'

const run = promisify(execFile)

describe('parallaxMotion', () => {
  it('moves the middle layer farther than the background, level with it half-way, within bounds', () => {
    for (const seed of ['a', 'b', 'c', 1, 2, 3, 42]) {
      const background = kenBurnsMotion(seed)
      const middle = parallaxMotion(background)
      const zoomAt = (m: typeof middle, t: number) => m.zoomFrom + (m.zoomTo - m.zoomFrom) * t
      // Farther: the zoom changes by MOTION_DRAFT_PARALLAX times as much (unless clamped at 1).
      const change = Math.abs(middle.zoomTo - middle.zoomFrom)
      const backgroundChange = Math.abs(background.zoomTo - background.zoomFrom)
      expect(change).toBeGreaterThan(backgroundChange)
      expect(change).toBeLessThanOrEqual(backgroundChange * MOTION_DRAFT_PARALLAX + 1e-3)
      if (Math.min(middle.zoomFrom, middle.zoomTo) > 1) {
        expect(zoomAt(middle, 0.5)).toBeCloseTo(zoomAt(background, 0.5), 3)
      }
      for (const n of [middle.zoomFrom, middle.zoomTo]) expect(n).toBeGreaterThanOrEqual(1)
      for (const n of [middle.panFrom.x, middle.panFrom.y, middle.panTo.x, middle.panTo.y]) {
        expect(n).toBeGreaterThanOrEqual(0)
        expect(n).toBeLessThanOrEqual(1)
      }
    }
  })

  it('refuses relative paths and odd sizes', () => {
    const spec = {
      stillPath: '/tmp/still.jpg',
      maskPath: '/tmp/mask.png',
      width: 1280,
      height: 720,
      fps: 30,
      frames: 150,
      background: kenBurnsMotion(1),
      outputPath: '/tmp/out.mp4',
    }
    expect(buildMotionDraftArgs(spec)).toContain('/tmp/out.mp4')
    expect(() => buildMotionDraftArgs({ ...spec, stillPath: 'still.jpg' })).toThrow(/absolute/)
    expect(() => buildMotionDraftArgs({ ...spec, width: 1279 })).toThrow(RangeError)
  })
})

describe.each(binaries)('renderMotionDraft with $name', ({ path: ffmpegPath, missing }) => {
  const skip = !ffmpegPath || !systemFfprobe || !systemFfmpeg
  const why = !ffmpegPath ? missing : 'no ffmpeg and ffprobe on PATH to check the output'
  const test = it.skipIf(skip)
  const suffix = skip ? ` (skipped: ${why})` : ''
  let root: string
  let image: Buffer

  beforeAll(async () => {
    if (skip) return
    root = await mkdtemp(join(tmpdir(), 'motion-draft-'))
    image = await makeTestImage(200)
  })
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true })
  })

  test.each<[string, number, number, number]>([
    ['16:9 720p, 5 s', 1280, 720, 5],
    ['9:16 720p, 3 s', 720, 1280, 3],
  ])(
    `makes an H.264 clip of the asked size and length whose frames all move: %s${suffix}`,
    async (_label, width, height, seconds) => {
      const outputPath = join(root, `draft-${width}x${height}.mp4`)
      const progress: number[] = []
      const { frames } = await renderMotionDraft({
        ffmpegPath: ffmpegPath!,
        image,
        width,
        height,
        durationSeconds: seconds,
        seed: 'scene-1',
        workDir: root,
        outputPath,
        onProgress: (f) => progress.push(f),
      })
      expect(frames).toBe(seconds * 30)
      const probe = await ffprobe(outputPath)
      expect(probe.streams).toHaveLength(1)
      const [video] = probe.streams
      expect(video).toMatchObject({
        codec_type: 'video',
        codec_name: 'h264',
        pix_fmt: 'yuv420p',
        width,
        height,
        nb_frames: String(seconds * 30),
      })
      // Within a frame of the asked length.
      expect(Math.abs(Number(probe.format.duration) - seconds)).toBeLessThanOrEqual(1 / 30)
      // ffmpeg's own measurement: no run of 3 frames that stands still.
      expect(await freezes(outputPath)).toEqual([])
      // First and last frames differ visibly: the camera went somewhere.
      const first = await extractFrame(outputPath, 0, { width, height })
      const last = await extractFrame(outputPath, seconds * 30 - 1, { width, height })
      expect(meanDifference(first, last, width, 0, height)).toBeGreaterThan(2)
      expect(progress.at(-1)).toBe(1)
      // Its temporary folder is gone.
      expect((await readdir(root)).filter((f) => f.startsWith('motion-draft-'))).toEqual([])
    },
    60_000,
  )

  test(`the freeze measurement sees a picture that does not move${suffix}`, async () => {
    const stillPath = join(root, 'still.png')
    await writeFile(stillPath, image)
    const staticClip = join(root, 'static.mp4')
    await run(systemFfmpeg!, [
      '-v',
      'error',
      '-loop',
      '1',
      '-framerate',
      '30',
      '-i',
      stillPath,
      '-t',
      '1',
      '-vf',
      'scale=320:200,format=yuv420p',
      '-c:v',
      'libx264',
      staticClip,
    ])
    expect((await freezes(staticClip)).length).toBeGreaterThan(0)
  })

  test(`stops ffmpeg and leaves nothing when the signal aborts${suffix}`, async () => {
    const outputPath = join(root, 'aborted.mp4')
    const controller = new AbortController()
    const rendering = renderMotionDraft({
      ffmpegPath: ffmpegPath!,
      image,
      width: 1280,
      height: 720,
      durationSeconds: 20,
      seed: 2,
      workDir: root,
      outputPath,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('cancelled')),
    })
    await expect(rendering).rejects.toThrow('cancelled')
    expect((await readdir(root)).filter((f) => f.startsWith('motion-draft-'))).toEqual([])
  })
})
