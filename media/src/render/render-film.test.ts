// Integration (issue 24 items 1 and 2): films a timeline makes, rendered by Debian's ffmpeg
// and checked with ffprobe and frames ffmpeg decodes, compared pixel by pixel.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  captionEvents,
  DEFAULT_CUT,
  DEFAULT_TIMELINE_SETTINGS,
  estimateWordTimings,
  type FilmCut,
  planFilm,
  type TimelineSettings,
  type WordTiming,
} from '@reelgraph/shared'
import { filmPieces } from './film.ts'
import { renderVideo, type RenderScene } from './render-video.ts'
import {
  countFrames,
  extractFrame,
  ffprobe,
  makeClip,
  bandLevelDb,
  makeNarrationWav,
  meanColour,
  regionDifference,
  systemFfmpeg,
  systemFfprobe,
} from './testing/media-fixtures.ts'

const LONG = 240_000
const PRESET = { name: '16:9' as const, width: 640, height: 360, fps: 30 }
const SIZE = { width: PRESET.width, height: PRESET.height }
/** Pure colours of the three scenes' pictures. */
const COLOURS = [
  { r: 220, g: 40, b: 40 },
  { r: 40, g: 200, b: 60 },
  { r: 40, g: 70, b: 220 },
]

const solid = ({ r, g, b }: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 800, height: 450, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer()

const scene = (id: string, fields: Partial<FilmCut> = {}): FilmCut => ({
  id: `scene:${id}`,
  sceneId: id,
  ...DEFAULT_CUT,
  scene: { nodeId: id, sceneNumber: id, narration: '', imageUrl: null, clip: null },
  place: fields.place ?? id,
  narrated: true,
  ...fields,
})

/** The pieces of a film of `cuts` over scenes `ids` (in `renderVideo`'s scene order). */
function filmOf(
  cuts: FilmCut[],
  ids: string[],
  media: (cut: FilmCut) => { clipMs: number | null; narrationMs: number },
  settings: TimelineSettings = DEFAULT_TIMELINE_SETTINGS,
) {
  const plan = planFilm(cuts, settings, media)
  const pieces = filmPieces(plan, settings, (id) => {
    const i = ids.indexOf(id)
    return i < 0 ? undefined : i
  })
  return { plan, film: { pieces } }
}

const distance = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }) =>
  Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b)

const skip = !systemFfmpeg || !systemFfprobe
const test = it.skipIf(skip)

describe('renderVideo of a timeline’s film (Debian ffmpeg)', () => {
  let root: string
  let cacheDir: string
  let workDir: string
  let stills: RenderScene[]

  beforeAll(async () => {
    if (skip) return
    root = await mkdtemp(join(tmpdir(), 'render-film-'))
    cacheDir = join(root, 'cache')
    workDir = join(root, 'work')
    await mkdir(workDir, { recursive: true })
    stills = await Promise.all(COLOURS.map(async (colour) => ({ imageBytes: await solid(colour) })))
  })
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true })
  })

  test(
    'a reordered timeline shows the scenes in the new order',
    async () => {
      const ids = ['a', 'b', 'c']
      // Moved: c first, then a, then b; plain cuts, so every frame is one scene's picture.
      const cuts = [
        scene('c', { place: 'a0', transition: 'cut' }),
        scene('a', { place: 'a1', transition: 'cut' }),
        scene('b', { place: 'a2', transition: 'cut' }),
      ]
      const { plan, film } = filmOf(cuts, ids, () => ({ clipMs: null, narrationMs: 0 }))
      const result = await renderVideo({
        scenes: stills,
        film,
        preset: PRESET,
        cacheDir,
        workDir,
        subtitles: false,
      })
      const shown: number[] = []
      for (const piece of plan.pieces) {
        const frame = await extractFrame(
          result.mp4Path,
          piece.startFrame + Math.floor(piece.frames / 2),
          SIZE,
        )
        const colour = meanColour(frame)
        const nearest = COLOURS.map((c) => distance(c, colour))
        shown.push(nearest.indexOf(Math.min(...nearest)))
        expect(Math.min(...nearest)).toBeLessThan(30)
      }
      expect(shown).toEqual([2, 0, 1])
      expect(await countFrames(result.mp4Path)).toBe(plan.totalFrames)
    },
    LONG,
  )

  test(
    'a trimmed clip lasts the planned length, from its in point',
    async () => {
      const clipPath = join(root, 'pattern.mp4')
      await makeClip(clipPath, { seconds: 4, width: 640, height: 360 })
      const clipScene: RenderScene = { clip: { path: clipPath } }
      const cuts = [scene('k', { inMs: 1_500, outMs: 3_800, transition: 'cut' })]
      const { plan, film } = filmOf(cuts, ['k'], () => ({ clipMs: 4_000, narrationMs: 0 }))
      expect(plan.totalFrames).toBe(69)
      const result = await renderVideo({
        scenes: [clipScene],
        film,
        preset: PRESET,
        cacheDir,
        workDir,
      })
      const frames = await countFrames(result.mp4Path)
      expect(Math.abs(frames - plan.totalFrames)).toBeLessThanOrEqual(1)
      // Its first frame is the clip's frame at the in point (1.5 s: frame 45), not its first.
      const first = await extractFrame(result.mp4Path, 0, SIZE)
      const atIn = await extractFrame(clipPath, 45, SIZE)
      const atStart = await extractFrame(clipPath, 0, SIZE)
      const whole = { x0: 0, x1: 640, y0: 0, y1: 360 }
      expect(regionDifference(first, atIn, 640, whole)).toBeLessThan(4)
      expect(regionDifference(first, atStart, 640, whole)).toBeGreaterThan(10)
    },
    LONG,
  )

  test(
    'trimming one cut re-renders that cut’s segment only',
    async () => {
      const ids = ['a', 'b', 'c']
      const render = async (holdB: number) => {
        const cuts = [
          scene('a', { place: 'a0' }),
          scene('b', { place: 'a1', holdMs: holdB }),
          scene('c', { place: 'a2' }),
        ]
        const { film } = filmOf(cuts, ids, () => ({ clipMs: null, narrationMs: 0 }))
        return renderVideo({
          scenes: stills,
          film,
          preset: PRESET,
          cacheDir,
          workDir,
          seed: 'trim',
        })
      }
      const first = await render(2_500)
      expect(first.runs.filter((r) => r.step.startsWith('scene ')).length).toBe(3)
      const again = await render(2_500)
      expect(again.segments.rendered).toEqual([])
      const trimmed = await render(3_200)
      const bodies = trimmed.runs.filter((r) => r.step.startsWith('scene ')).map((r) => r.step)
      expect(bodies).toEqual(['scene 2'])
      // Its transitions show its frames, so they render again; nothing else does.
      const others = trimmed.runs
        .filter((r) => !r.step.startsWith('scene ') && !r.step.startsWith('audio'))
        .map((r) => r.step)
      expect(others.sort()).toEqual(['crossfade 1-2', 'crossfade 2-3', 'join'])
    },
    LONG,
  )

  test(
    'every transition type renders, with title and end cards, at the planned length',
    async () => {
      const ids = ['a', 'b', 'c']
      const cuts = [
        scene('a', { place: 'a0', transition: 'slide', transitionMs: 400 }),
        scene('b', { place: 'a1', transition: 'dip', transitionMs: 600 }),
        scene('c', { place: 'a2', transition: 'wipe', transitionMs: 400 }),
        scene('a', { id: 'a-2', place: 'a3', transition: 'crossfade', narrated: false }),
        scene('b', { id: 'b-2', place: 'a4', transition: 'cut', narrated: false }),
      ]
      const settings: TimelineSettings = {
        ...DEFAULT_TIMELINE_SETTINGS,
        titleText: 'The {title} \\N card',
        titleMs: 1_500,
        titleColor: '#ffffff',
        titleBackground: '#202020',
        endText: 'The end',
        endMs: 1_200,
      }
      const { plan, film } = filmOf(cuts, ids, () => ({ clipMs: null, narrationMs: 0 }), settings)
      const result = await renderVideo({
        scenes: stills,
        film,
        preset: PRESET,
        cacheDir,
        workDir,
      })
      const steps = result.runs.map((r) => r.step)
      for (const kind of ['slide', 'dip', 'wipe', 'crossfade']) {
        expect(steps.some((s) => s.startsWith(`${kind} `))).toBe(true)
      }
      const probe = await ffprobe(result.mp4Path)
      const video = probe.streams.find((s) => s.codec_type === 'video')!
      expect(Math.abs(Number(video.duration) * 1000 - plan.durationMs)).toBeLessThanOrEqual(
        1000 / 30 + 1,
      )
      expect(await countFrames(result.mp4Path)).toBe(plan.totalFrames)
      // The dip goes through black: its middle frame is darker than either side.
      const dip = plan.pieces.find((p) => p.transitionIn.type === 'dip')!
      const middle = meanColour(
        await extractFrame(
          result.mp4Path,
          dip.startFrame + Math.floor(dip.transitionIn.frames / 2),
          SIZE,
        ),
      )
      expect(middle.r + middle.g + middle.b).toBeLessThan(60)
      // The title card draws its text over its colour.
      const title = await extractFrame(result.mp4Path, 10, SIZE)
      let bright = 0
      let background = 0
      for (let i = 0; i < title.length; i += 3) {
        if (title[i]! > 200 && title[i + 1]! > 200 && title[i + 2]! > 200) bright++
        else if (Math.abs(title[i]! - 0x20) < 6) background++
      }
      expect(bright).toBeGreaterThan(300)
      expect(background).toBeGreaterThan(0.8 * PRESET.width * PRESET.height)
    },
    LONG,
  )

  test(
    '"word-highlight": two frames of one caption at two spoken words differ in the caption band only',
    async () => {
      const text = 'Seven bright lanterns float across the quiet harbour tonight.'
      const narrationMs = 3_000
      const words: WordTiming[] = estimateWordTimings(text, { startMs: 0, endMs: narrationMs })
      const narrated: RenderScene = {
        imageBytes: await solid({ r: 70, g: 90, b: 120 }),
        narrationWav: makeNarrationWav(narrationMs / 1000),
        words,
      }
      const cuts = [scene('n')]
      const { plan, film } = filmOf(cuts, ['n'], () => ({ clipMs: null, narrationMs }))
      const look = (style: 'classic' | 'word-highlight') => ({
        ...DEFAULT_TIMELINE_SETTINGS,
        captionStyle: style,
      })
      const piece = plan.pieces[0]!
      const event = captionEvents(words, {
        style: 'word-highlight',
        maxWords: 7,
        endLimitMs: narrationMs,
      })[0]!
      const at = (ms: number) => Math.round(((piece.narrationFrame! * 1000) / 30 + ms) * 0.03)
      const [w1, w2] = [event.lines[0]![1]!, event.lines[0]![3]!]
      const frames = [at(w1.startMs) + 1, at(w2.startMs) + 1]
      expect(frames[1]!).toBeLessThan(at(event.endMs))
      const band = { x0: 0, x1: 640, y0: 270, y1: 360 }
      const above = { x0: 0, x1: 640, y0: 0, y1: 270 }
      const measure = async (style: 'classic' | 'word-highlight') => {
        const result = await renderVideo({
          scenes: [narrated],
          film,
          preset: PRESET,
          cacheDir,
          workDir,
          captions: look(style),
        })
        const [a, b] = await Promise.all(frames.map((f) => extractFrame(result.mp4Path, f, SIZE)))
        return {
          band: regionDifference(a!, b!, 640, band),
          above: regionDifference(a!, b!, 640, above),
        }
      }
      const highlight = await measure('word-highlight')
      expect(highlight.band).toBeGreaterThan(0.5)
      expect(highlight.above).toBeLessThan(0.1)
      // Classic captions show the same words unlit: the same two frames do not differ.
      const classic = await measure('classic')
      expect(classic.band).toBeLessThan(0.1)
    },
    LONG,
  )

  test(
    'the music ducks under the voice by the timeline’s dB',
    async () => {
      const narrationMs = 2_000
      const voiced: RenderScene = {
        imageBytes: await solid({ r: 90, g: 90, b: 90 }),
        narrationWav: makeNarrationWav(narrationMs / 1000, 400),
      }
      const cuts = [scene('v', { holdMs: 6_000 })]
      const { plan, film } = filmOf(cuts, ['v'], () => ({ clipMs: null, narrationMs }))
      const voiceStart = (plan.pieces[0]!.narrationFrame! * 1000) / 30 / 1000
      const duckedBy = async (duckDb: number) => {
        const result = await renderVideo({
          scenes: [voiced],
          film,
          preset: PRESET,
          cacheDir,
          workDir,
          subtitles: false,
          music: {
            track: 'calm-pad',
            mix: { volume: 0.5, fadeInMs: 0, fadeOutMs: 0, duckDb },
          },
        })
        // The pad’s 110 Hz note, far below the voice’s 400 Hz and its harmonics.
        const under = await bandLevelDb(result.mp4Path, 110, voiceStart + 0.4, 1.2)
        const after = await bandLevelDb(result.mp4Path, 110, voiceStart + 2.6, 1.5)
        return after - under
      }
      // Against the same film with no ducking (the pad's own swell and the limiter's work
      // on the voice's peaks are in both), 20 dB of ducking lowers the music by most of it.
      const plain = await duckedBy(0)
      const ducked = await duckedBy(20)
      expect(ducked - plain).toBeGreaterThan(14)
    },
    LONG,
  )

  test(
    'the voice starts where the plan puts it: after a long transition in and a breath',
    async () => {
      const narrationMs = 1_500
      const voiced: RenderScene = {
        imageBytes: await solid({ r: 90, g: 90, b: 90 }),
        narrationWav: makeNarrationWav(narrationMs / 1000, 400),
      }
      const settings = { ...DEFAULT_TIMELINE_SETTINGS, titleText: 'T', titleMs: 2_000 }
      const cuts = [scene('v', { transition: 'crossfade', transitionMs: 1_200 })]
      const { plan, film } = filmOf(cuts, ['v'], () => ({ clipMs: null, narrationMs }), settings)
      const piece = plan.pieces[1]!
      const voiceS = (piece.startFrame + piece.narrationFrame!) / 30
      // 1.2 s of crossfade and 0.1 s of breath: later than today's 0.6 s lead-in.
      expect(voiceS).toBeCloseTo(piece.startFrame / 30 + 1.3, 1)
      const result = await renderVideo({
        scenes: [voiced],
        film,
        preset: PRESET,
        cacheDir,
        workDir,
        subtitles: false,
      })
      const before = await bandLevelDb(result.mp4Path, 400, voiceS - 0.55, 0.5)
      const during = await bandLevelDb(result.mp4Path, 400, voiceS + 0.1, 0.8)
      expect(during - before).toBeGreaterThan(30)
      // Its subtitle (today's PNG cues) shows from the voice too: not before, after.
      const subtitled = await renderVideo({
        scenes: [{ ...voiced, cues: [{ startMs: 0, endMs: 1_000, lines: ['Hello there'] }] }],
        film,
        preset: PRESET,
        cacheDir,
        workDir,
      })
      const at = (s: number) => extractFrame(subtitled.mp4Path, Math.round(s * 30), SIZE)
      const [quiet, spoken] = await Promise.all([at(voiceS - 0.04), at(voiceS + 0.1)])
      const band = { x0: 0, x1: 640, y0: 270, y1: 360 }
      expect(regionDifference(quiet!, spoken!, 640, band)).toBeGreaterThan(1)
      expect(regionDifference(quiet!, spoken!, 640, { ...band, y0: 0, y1: 270 })).toBeLessThan(0.2)
    },
    LONG,
  )
})
