// Integration (issue 22 item 4): scenes that are clips, rendered with the machine's ffmpeg and
// checked with ffprobe, ffmpeg's own measurements (ebur128, volumedetect) and decoded frames
// compared with the clips' own frames.
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { VideoPreset } from './config.ts'
import { buildSegmentFilterGraph } from './filter-graph.ts'
import { subtitleBand } from './subtitle-images.ts'
import { renderVideo, type RenderScene, type RenderVideoOptions } from './render-video.ts'
import { planTimeline } from './timeline.ts'
import {
  bandLevelDb,
  countFrames,
  decodeFrames,
  ffprobe,
  makeClip,
  makeNarrationWav,
  meanColour,
  measureLoudness,
  regionDifference,
  staticFfmpeg,
  systemFfmpeg,
  systemFfprobe,
} from './testing/media-fixtures.ts'

const run = promisify(execFile)
const LONG = 180_000
/** Small frames keep the renders quick; the filters do not depend on the size. */
const PRESET: VideoPreset = { name: '16:9', width: 320, height: 180, fps: 30 }
const { width: W, height: H } = PRESET
const WHOLE = { x0: 0, x1: W, y0: 0, y1: H }
const TONE_HZ = 3_000

/** The index in `from..to` of the reference frame closest to `frame`, and its difference. */
function bestMatch(frame: Buffer, references: Buffer[], from: number, to: number) {
  let best = { index: -1, difference: Infinity }
  for (let j = Math.max(0, from); j <= Math.min(references.length - 1, to); j++) {
    const difference = regionDifference(frame, references[j]!, W, WHOLE)
    if (difference < best.difference) best = { index: j, difference }
  }
  return best
}

const skip = !systemFfmpeg || !systemFfprobe
const test = it.skipIf(skip)
const why = skip ? ' (skipped: no ffmpeg and ffprobe on PATH: apt-get install -y ffmpeg)' : ''

describe('renderVideo with clips (issue 22 item 4), ffmpeg on PATH', () => {
  let root: string
  let cacheDir: string
  let workDir: string
  const clip = (name: string) => join(root, 'clips', name)
  const narration = makeNarrationWav(2, 160)

  beforeAll(async () => {
    if (skip) return
    root = await mkdtemp(join(tmpdir(), 'render-clips-'))
    cacheDir = join(root, 'cache')
    workDir = join(root, 'work')
    await mkdir(workDir, { recursive: true })
    await mkdir(join(root, 'clips'))
    await Promise.all([
      makeClip(clip('short.mp4'), { seconds: 1.5 }),
      makeClip(clip('long.mp4'), { seconds: 6, width: 1280, height: 720 }),
      makeClip(clip('four-three.mp4'), { seconds: 1, width: 480, height: 360 }),
      makeClip(clip('red.mp4'), { seconds: 3, picture: '0xE03030', fps: 25 }),
      makeClip(clip('blue.mp4'), { seconds: 3, picture: '0x3030E0' }),
      makeClip(clip('tone.mp4'), { seconds: 3, toneHz: TONE_HZ }),
      makeClip(clip('other.mp4'), { seconds: 3, picture: '0x808020' }),
    ])
  })
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true })
  })

  const render = (scenes: RenderScene[], options: Partial<RenderVideoOptions> = {}) =>
    renderVideo({
      scenes,
      preset: PRESET,
      subtitles: false,
      cacheDir,
      workDir,
      ffmpegPath: systemFfmpeg!,
      ...options,
    })
  const scaled = (name: string, filters = `scale=${W}:${H}`) =>
    decodeFrames(clip(name), { width: W, height: H }, filters)

  test(
    `a shorter clip holds its last frame, a longer one plays and is trimmed: the planned length, frames that move and come from the clips${why}`,
    async () => {
      const result = await render([
        { clip: { path: clip('short.mp4') }, narrationWav: narration },
        { clip: { path: clip('long.mp4') }, narrationWav: narration },
      ])
      // The timeline comes from the narrations, as for stills: 2 x 3.3 s, overlapping 0.5 s.
      const planned = planTimeline([{ narrationMs: 2000 }, { narrationMs: 2000 }], { fps: 30 })
      expect(planned.totalFrames).toBe(183)
      expect(result.durationMs).toBe(planned.durationMs)
      expect(await countFrames(result.mp4Path)).toBe(planned.totalFrames)
      const probe = await ffprobe(result.mp4Path)
      expect(Math.abs(Number(probe.format.duration) - planned.durationMs / 1000)).toBeLessThan(0.1)

      const video = await decodeFrames(result.mp4Path, { width: W, height: H })
      const [short, long] = await Promise.all([scaled('short.mp4'), scaled('long.mp4')])
      expect(short).toHaveLength(45)
      // Scene 1 (frames 0-98): the short clip frame for frame, moving.
      for (const n of [3, 20, 40]) {
        const match = bestMatch(video[n]!, short, n - 4, n + 4)
        expect(match.index).toBe(n)
        expect(match.difference).toBeLessThan(4)
        expect(regionDifference(video[n]!, video[n + 1]!, W, WHOLE)).toBeGreaterThan(4)
      }
      // After its 45 frames, its last frame, held until the crossfade (frames 84-98).
      for (const n of [50, 65, 83]) {
        expect(bestMatch(video[n]!, short, 30, 44).index).toBe(44)
      }
      expect(regionDifference(video[55]!, video[80]!, W, WHOLE)).toBeLessThan(1)
      // Scene 2 (from frame 84): the long clip at its own speed to the scene's last frame.
      for (const k of [20, 60, 98]) {
        const match = bestMatch(video[84 + k]!, long, k - 4, k + 4)
        expect(match.index).toBe(k)
        expect(match.difference).toBeLessThan(4)
      }
      expect(regionDifference(video[181]!, video[182]!, W, WHOLE)).toBeGreaterThan(4)
    },
    LONG,
  )

  test(
    `a shorter clip is slowed to its scene's length when asked${why}`,
    async () => {
      const result = await render(
        [{ clip: { path: clip('short.mp4') }, narrationWav: narration }],
        {
          clipShorter: 'slow',
        },
      )
      expect(await countFrames(result.mp4Path)).toBe(99)
      const video = await decodeFrames(result.mp4Path, { width: W, height: H })
      const short = await scaled('short.mp4')
      // 45 clip frames over 99: frame n shows the clip's frame n / 2.2.
      for (const n of [11, 44, 77, 96]) {
        const expected = n / 2.2
        const match = bestMatch(video[n]!, short, Math.floor(expected) - 3, Math.ceil(expected) + 3)
        expect(Math.abs(match.index - expected)).toBeLessThanOrEqual(1)
      }
      // Still moving near the end, where a held clip would stand still.
      expect(regionDifference(video[80]!, video[95]!, W, WHOLE)).toBeGreaterThan(4)
    },
    LONG,
  )

  test(
    `fits a clip of another shape by cover (cropped) or contain (whole, over a blurred copy)${why}`,
    async () => {
      const scenes: RenderScene[] = [{ clip: { path: clip('four-three.mp4') } }]
      const cover = await render(scenes)
      const contain = await render(scenes, { clipFit: 'contain' })
      expect(contain.segments.cached).toEqual([])
      const size = { width: W, height: H }
      const [coverFrames, containFrames] = await Promise.all([
        decodeFrames(cover.mp4Path, size),
        decodeFrames(contain.mp4Path, size),
      ])
      // 480x360 -> 320x240, the middle 180 rows.
      const cropped = await scaled('four-three.mp4', `scale=${W}:240,crop=${W}:${H}`)
      const match = bestMatch(coverFrames[10]!, cropped, 6, 14)
      expect(match.index).toBe(10)
      expect(match.difference).toBeLessThan(4)
      // 480x360 -> 240x180 in the middle; the sides are the clip blurred and darkened.
      const whole = await scaled('four-three.mp4', `scale=240:${H},pad=${W}:${H}:40:0`)
      const middle = { x0: 40, x1: 280, y0: 0, y1: H }
      expect(regionDifference(containFrames[10]!, whole[10]!, W, middle)).toBeLessThan(4)
      expect(regionDifference(containFrames[10]!, whole[14]!, W, middle)).toBeGreaterThan(6)
      const side = { x0: 0, x1: 36, y0: 0, y1: H }
      const black = Buffer.alloc(W * H * 3)
      expect(regionDifference(containFrames[10]!, black, W, side)).toBeGreaterThan(10)
      // Blurred: neighbouring pixels of the sides are alike, unlike the pattern's sharp edges.
      const roughness = (frame: Buffer, r: typeof side) => {
        const shifted = Buffer.concat([frame.subarray(3), Buffer.alloc(3)])
        return regionDifference(frame, shifted, W, { ...r, x1: r.x1 - 1 })
      }
      expect(roughness(containFrames[10]!, side)).toBeLessThan(
        roughness(containFrames[10]!, middle) / 3,
      )
    },
    LONG,
  )

  test(
    `crossfades clip to still, still to clip and clip to clip${why}`,
    async () => {
      const green = await sharp({
        create: { width: 640, height: 360, channels: 3, background: { r: 40, g: 200, b: 40 } },
      })
        .png()
        .toBuffer()
      // No narration: 60 frames a scene; crossfades at 45-59, 90-104, 135-149.
      const result = await render([
        { clip: { path: clip('red.mp4') } },
        { imageBytes: green },
        { clip: { path: clip('blue.mp4') } },
        { clip: { path: clip('red.mp4') } },
      ])
      expect(await countFrames(result.mp4Path)).toBe(195)
      const video = await decodeFrames(result.mp4Path, { width: W, height: H })
      const colour = (n: number) => meanColour(video[n]!)
      const red = colour(30)
      const still = colour(75)
      const blue = colour(120)
      expect(red.r).toBeGreaterThan(200)
      expect(still.g).toBeGreaterThan(180)
      expect(blue.b).toBeGreaterThan(200)
      // Halfway through each crossfade, the picture is between its two scenes'.
      const share = (n: number, from: typeof red, to: typeof red, channel: 'r' | 'g' | 'b') =>
        (colour(n)[channel] - from[channel]) / (to[channel] - from[channel])
      for (const [n, from, to] of [
        [52, red, still],
        [97, still, blue],
        [142, blue, colour(180)],
      ] as const) {
        for (const channel of ['r', 'g', 'b'] as const) {
          if (Math.abs(to[channel] - from[channel]) < 50) continue
          const s = share(n, from, to, channel)
          expect(s).toBeGreaterThan(0.25)
          expect(s).toBeLessThan(0.75)
        }
      }
    },
    LONG,
  )

  test(
    `crossfades clip to clip without xfade (ffmpeg 4.1's way: a fading alpha overlaid)${why}`,
    async () => {
      const frames = 15
      const { args } = buildSegmentFilterGraph(
        {
          preset: PRESET,
          frames,
          parts: [
            {
              clipPath: clip('red.mp4'),
              fit: 'cover',
              timing: { kind: 'hold' },
              sceneFrames: 60,
              firstSceneFrame: 45,
            },
            {
              clipPath: clip('blue.mp4'),
              fit: 'contain',
              timing: { kind: 'play' },
              sceneFrames: 60,
              firstSceneFrame: 0,
            },
          ],
          overlays: [],
        },
        { xfade: false },
        '/unused.mp4',
      )
      const inputsAndGraph = args.slice(0, args.indexOf('-filter_complex') + 2)
      const { stdout } = await run(
        systemFfmpeg!,
        [
          '-v',
          'error',
          ...inputsAndGraph,
          '-map',
          '[v]',
          '-frames:v',
          String(frames),
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      )
      const frameBytes = W * H * 3
      expect(stdout.length).toBe(frames * frameBytes)
      const at = (n: number) => meanColour(stdout.subarray(n * frameBytes, (n + 1) * frameBytes))
      expect(at(0).r).toBeGreaterThan(190)
      expect(at(7).r).toBeLessThan(at(0).r - 50)
      expect(at(7).b).toBeGreaterThan(at(0).b + 50)
      expect(at(14).b).toBeGreaterThan(at(7).b)
    },
    LONG,
  )

  test(
    `burns subtitles over a clip scene's band only${why}`,
    async () => {
      const cues = [{ startMs: 0, endMs: 1_500, lines: ['Waves roll over the rocks'] }]
      const scene: RenderScene = { clip: { path: clip('long.mp4') }, narrationWav: narration, cues }
      const [withSubtitles, plain] = await Promise.all([
        render([scene], { subtitles: true }),
        render([scene]),
      ])
      const size = { width: W, height: H }
      const [a, b] = await Promise.all([
        decodeFrames(withSubtitles.mp4Path, size),
        decodeFrames(plain.mp4Path, size),
      ])
      // Half a second into the narration (0.6 s in): the cue is on screen.
      const n = 33
      const band = subtitleBand(PRESET)
      const outside = regionDifference(a[n]!, b[n]!, W, { x0: 0, x1: W, y0: 0, y1: band.y - 8 })
      const inside = regionDifference(a[n]!, b[n]!, W, { x0: 0, x1: W, y0: band.y, y1: H })
      expect(outside).toBeLessThan(1.5)
      expect(inside).toBeGreaterThan(5 * Math.max(outside, 0.5))
    },
    LONG,
  )

  test(
    `a clip's sound is off by default, or mixed under the narration, ducked, at -14 LUFS${why}`,
    async () => {
      const scenes: RenderScene[] = [
        { clip: { path: clip('tone.mp4') }, narrationWav: narration },
        {
          imageBytes: await sharp({
            create: { width: 64, height: 36, channels: 3, background: '#336' },
          })
            .png()
            .toBuffer(),
          narrationWav: makeNarrationWav(2, 190),
        },
      ]
      const off = await render(scenes)
      const mixed = await render(scenes, { clipSound: 'mix' })
      const toldSilent = await render(
        [{ ...scenes[0]!, clip: { path: clip('tone.mp4'), hasAudio: false } }, scenes[1]!],
        { clipSound: 'mix' },
      )
      // The sound changes no segment.
      expect(mixed.segments.rendered).toEqual([])
      for (const video of [off, mixed, toldSilent]) {
        const { integrated } = await measureLoudness(video.mp4Path)
        expect(Math.abs(integrated - -14)).toBeLessThanOrEqual(1.5)
      }
      // Before the narration starts (0.6 s in), during it, and in the next scene.
      const band = (path: string, from: number, seconds: number) =>
        bandLevelDb(path, TONE_HZ, from, seconds)
      const leadIn = await band(mixed.mp4Path, 0.05, 0.45)
      expect(leadIn).toBeGreaterThan((await band(off.mp4Path, 0.05, 0.45)) + 30)
      expect(leadIn).toBeGreaterThan((await band(toldSilent.mp4Path, 0.05, 0.45)) + 30)
      expect(await band(mixed.mp4Path, 1.2, 1.2)).toBeLessThan(leadIn - 6)
      expect(await band(mixed.mp4Path, 3.6, 1.5)).toBeLessThan(leadIn - 30)
    },
    LONG,
  )

  test(
    `a changed clip re-renders only its scene and its crossfades; its fit too; a rule that does not apply nothing${why}`,
    async () => {
      const still = (hue: string) =>
        sharp({ create: { width: 64, height: 36, channels: 3, background: hue } })
          .png()
          .toBuffer()
      const [a, b] = await Promise.all([still('#a63'), still('#3a6')])
      const freshCache = join(root, 'cache-change')
      const scenes = (name: string): RenderScene[] => [
        { imageBytes: a },
        { clip: { path: clip(name) } },
        { imageBytes: b },
      ]
      const first = await render(scenes('tone.mp4'), { cacheDir: freshCache })
      expect(first.segments.rendered).toHaveLength(5)
      const changed = await render(scenes('other.mp4'), { cacheDir: freshCache })
      expect(changed.segments.rendered).toHaveLength(3)
      expect(changed.segments.cached).toEqual([
        first.segments.rendered[0],
        first.segments.rendered[4],
      ])
      const contain = await render(scenes('other.mp4'), {
        cacheDir: freshCache,
        clipFit: 'contain',
      })
      expect(contain.segments.cached).toEqual(changed.segments.cached)
      // The 3 s clip is longer than its 2 s scene: "Shorter clips" does not shape it.
      const slow = await render(scenes('other.mp4'), {
        cacheDir: freshCache,
        clipFit: 'contain',
        clipShorter: 'slow',
      })
      expect(slow.segments.rendered).toEqual([])
    },
    LONG,
  )

  test(
    `refuses a clip that is no MP4 (a playlist naming a file or an address, an image) or a relative path; no request leaves, no temporary file stays${why}`,
    async () => {
      const badWork = join(root, 'bad-work')
      await mkdir(badWork, { recursive: true })
      const requests: string[] = []
      const server = createServer((req, res) => {
        requests.push(req.url ?? '')
        res.end()
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address() as AddressInfo
      const playlist = (name: string, segment: string) => {
        const path = join(root, 'clips', name)
        const text = `#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXTINF:5,\n${segment}\n#EXT-X-ENDLIST\n`
        return writeFile(path, text).then(() => path)
      }
      const image = join(root, 'clips', 'image.mp4')
      await writeFile(
        image,
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
      )
      try {
        const paths = [
          await playlist('local.mp4', clip('blue.mp4')),
          await playlist('remote.mp4', `http://127.0.0.1:${port}/segment.mp4`),
          image,
          'clips/short.mp4',
        ]
        for (const path of paths) {
          await expect(render([{ clip: { path } }], { workDir: badWork })).rejects.toMatchObject({
            name: 'RenderError',
            code: 'invalid-input',
          })
        }
      } finally {
        server.close()
      }
      expect(requests).toEqual([])
      expect(await readdir(badWork)).toEqual([])
    },
    LONG,
  )

  it.skipIf(skip || !staticFfmpeg)(
    `the bundled static ffmpeg 4.1 refuses clips in words (ADR 005: it reads only our own files)${staticFfmpeg ? why : ' (skipped: @ffmpeg-installer/linux-x64 is not installed)'}`,
    async () => {
      await expect(
        render([{ clip: { path: clip('short.mp4') } }], { ffmpegPath: staticFfmpeg! }),
      ).rejects.toMatchObject({
        name: 'RenderError',
        code: 'ffmpeg-unsupported',
        message: expect.stringContaining('Scenes with clips need the system ffmpeg'),
      })
    },
    LONG,
  )

  it.skipIf(skip || !staticFfmpeg)(
    `the bundled static ffmpeg renders a clip our own code made (the offline motion draft)${staticFfmpeg ? why : ' (skipped: @ffmpeg-installer/linux-x64 is not installed)'}`,
    async () => {
      const result = await render([{ clip: { path: clip('short.mp4'), ownMade: true } }], {
        ffmpegPath: staticFfmpeg!,
      })
      expect(result.ffmpeg.path).toBe(staticFfmpeg)
      expect(result.durationMs).toBeGreaterThan(0)
    },
    LONG,
  )
})
