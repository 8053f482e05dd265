import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CROSSFADE_FRAMES, NARRATION_LEAD_IN_MS, SCENE_PADDING_MS } from './config.ts'
import { type FilmCut, planFilm, DEFAULT_CUT, DEFAULT_TIMELINE_SETTINGS } from '@reelgraph/shared'
import { planTimeline, timelineFromFilm } from './timeline.ts'

describe('planTimeline', () => {
  it('makes a scene last its narration plus padding, in whole frames', () => {
    const timeline = planTimeline([{ narrationMs: 3_000 }], { fps: 30 })
    const frames = Math.ceil(((3_000 + SCENE_PADDING_MS) * 30) / 1000)
    expect(timeline.scenes[0]).toMatchObject({
      startFrame: 0,
      frames,
      startMs: 0,
      narrationStartMs: NARRATION_LEAD_IN_MS,
      narrationMs: 3_000,
    })
    expect(timeline.totalFrames).toBe(frames)
    expect(timeline.durationMs).toBeCloseTo((frames * 1000) / 30, 6)
    expect(timeline.segments).toEqual([
      { kind: 'scene', scene: 0, startFrame: 0, frames, firstSceneFrame: 0 },
    ])
  })

  it('gives a scene without narration 2 s', () => {
    const timeline = planTimeline([{}, { narrationMs: 0 }], { fps: 30 })
    expect(timeline.scenes.map((s) => s.frames)).toEqual([60, 60])
    expect(timeline.scenes.map((s) => s.narrationStartMs)).toEqual([null, null])
    expect(timeline.totalFrames).toBe(120 - CROSSFADE_FRAMES)
  })

  it('overlaps neighbours by the 0.5 s crossfade and joins segments in order', () => {
    const timeline = planTimeline([{ narrationMs: 2_000 }, {}, { narrationMs: 1_000 }], {
      fps: 30,
    })
    const [a, b, c] = timeline.scenes
    expect(b!.startFrame).toBe(a!.startFrame + a!.frames - 15)
    expect(c!.startFrame).toBe(b!.startFrame + b!.frames - 15)
    expect(timeline.segments.map((s) => s.kind)).toEqual([
      'scene',
      'transition',
      'scene',
      'transition',
      'scene',
    ])
    expect(timeline.segments[1]).toEqual({
      kind: 'transition',
      transition: 'crossfade',
      from: 0,
      to: 1,
      startFrame: b!.startFrame,
      frames: 15,
      fromSceneFrame: a!.frames - 15,
    })
    expect(timeline.segments[2]).toMatchObject({ scene: 1, firstSceneFrame: 15 })
  })

  it('rejects no scene and bad lengths', () => {
    expect(() => planTimeline([], { fps: 30 })).toThrow(RangeError)
    expect(() => planTimeline([{ narrationMs: -1 }], { fps: 30 })).toThrow(RangeError)
    expect(() => planTimeline([{ narrationMs: Number.NaN }], { fps: 30 })).toThrow(RangeError)
  })

  it('tiles the video with segments, whatever the narrations (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: 0, max: 60_000, noNaN: true }), { nil: undefined }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom(24, 25, 30, 60),
        (narrations, fps) => {
          const timeline = planTimeline(
            narrations.map((narrationMs) => ({ narrationMs })),
            { fps },
          )
          let frame = 0
          for (const segment of timeline.segments) {
            expect(segment.startFrame).toBe(frame)
            expect(segment.frames).toBeGreaterThan(0)
            frame += segment.frames
          }
          expect(frame).toBe(timeline.totalFrames)
          timeline.scenes.forEach((scene, i) => {
            const wanted = Math.max(2_000, narrations[i] ? narrations[i] + SCENE_PADDING_MS : 0)
            expect(scene.endMs - scene.startMs).toBeGreaterThanOrEqual(wanted - 1e-6)
            expect(scene.endMs - scene.startMs).toBeLessThan(wanted + 1000 / fps + 1e-6)
          })
        },
      ),
    )
  })
})

const filmCut = (i: number, fields: Partial<FilmCut> = {}): FilmCut => ({
  id: `scene:s${i}`,
  sceneId: `s${i}`,
  ...DEFAULT_CUT,
  scene: {
    nodeId: `s${i}`,
    sceneNumber: String(i + 1),
    narration: 'x',
    imageUrl: null,
    clip: null,
  },
  place: `a${i}`,
  narrated: true,
  ...fields,
})

describe('timelineFromFilm', () => {
  it('lays the default film out exactly as planTimeline (today’s video)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9_000 }), { minLength: 1, maxLength: 6 }),
        (ms) => {
          const cuts = ms.map((_, i) => filmCut(i))
          const plan = planFilm(cuts, DEFAULT_TIMELINE_SETTINGS, (cut) => ({
            clipMs: null,
            narrationMs: ms[cuts.indexOf(cut)]!,
          }))
          const film = timelineFromFilm(plan.pieces, plan.fps)
          const today = planTimeline(
            ms.map((narrationMs) => ({ narrationMs })),
            { fps: 30 },
          )
          expect(film).toEqual(today)
        },
      ),
    )
  })

  it('gives a plain cut no transition segment and keeps each transition’s type and length', () => {
    const cuts = [
      filmCut(0),
      filmCut(1, { transition: 'cut' }),
      filmCut(2, { transition: 'wipe', transitionMs: 1_000 }),
    ]
    const plan = planFilm(cuts, DEFAULT_TIMELINE_SETTINGS, () => ({
      clipMs: null,
      narrationMs: 2_000,
    }))
    const timeline = timelineFromFilm(plan.pieces, 30)
    expect(timeline.segments.map((s) => (s.kind === 'scene' ? 'scene' : s.transition))).toEqual([
      'scene',
      'scene',
      'wipe',
      'scene',
    ])
    expect(timeline.segments[2]).toMatchObject({ frames: 30, from: 1, to: 2 })
    expect(timeline.totalFrames).toBe(plan.totalFrames)
    const frames = timeline.segments.reduce((n, s) => n + s.frames, 0)
    expect(frames).toBe(plan.totalFrames)
  })
})
