import { describe, expect, it } from 'vitest'
import { DEFAULT_TIMELINE_SETTINGS, defaultCutId, type FilmCut } from './timeline.ts'
import { cutBounds, MIN_CUT_MS, MIN_SCENE_MS, planFilm } from './timeline-plan.ts'

function cut(id: string, fields: Partial<FilmCut> = {}): FilmCut {
  return {
    id,
    sceneId: id,
    order: 'a0',
    place: 'a0',
    inMs: 0,
    outMs: 0,
    holdMs: 0,
    transition: 'crossfade',
    transitionMs: 500,
    removed: false,
    narrated: true,
    scene: { nodeId: id, sceneNumber: '1', narration: 'x', imageUrl: '/a.png', clip: null },
    ...fields,
  }
}

const noCards = { titleMs: 0, endMs: 0 }

describe('planFilm', () => {
  it('makes a still as long as its narration with padding, or its hold when longer', () => {
    const plan = planFilm([cut('a'), cut('b', { holdMs: 9_000 })], noCards, () => ({
      clipMs: null,
      narrationMs: 3_000,
    }))
    expect(plan.pieces.map((p) => p.frames)).toEqual([129, 270])
    // The crossfade overlaps them by 15 frames.
    expect(plan.pieces[1]!.startFrame).toBe(114)
    expect(plan.totalFrames).toBe(384)
    expect(plan.pieces[1]!.narrationFrame).toBe(18)
  })

  it('never makes a narrated cut shorter than its narration, even when trimmed shorter', () => {
    const plan = planFilm(
      [
        cut('a', {
          scene: {
            ...cut('a').scene,
            clip: { url: '/c.mp4', durationMs: 8_000, hasAudio: false, modelId: 'm' },
          },
          inMs: 1_000,
          outMs: 2_000,
        }),
      ],
      noCards,
      () => ({ clipMs: 8_000, narrationMs: 4_000 }),
    )
    const bounds = cutBounds({ narrated: true }, 4_000, 0, 0)
    expect(plan.pieces[0]!.frames).toBe(Math.ceil((bounds.minMs * 30) / 1000))
    expect(plan.pieces[0]!.clip).toEqual({ inMs: 1_000, outMs: 2_000 })
  })

  it('plays a trimmed clip for its out minus in point when that is longer than the narration', () => {
    const plan = planFilm(
      [cut('a', { inMs: 500, outMs: 6_500, transition: 'cut' })],
      noCards,
      () => ({ clipMs: 8_000, narrationMs: 1_000 }),
    )
    expect(plan.pieces[0]!.frames).toBe(180)
  })

  it('puts the title and end cards around the cuts, and a plain cut has no overlap', () => {
    const plan = planFilm(
      [cut('a'), cut('b', { transition: 'cut', narrated: false, holdMs: 1_000 })],
      { titleMs: 2_000, endMs: 1_000 },
      () => ({ clipMs: null, narrationMs: 0 }),
    )
    expect(plan.pieces.map((p) => [p.id, p.startFrame, p.frames, p.transitionIn.frames])).toEqual([
      ['title', 0, 60, 0],
      ['a', 45, 60, 15],
      ['b', 105, 30, 0],
      ['end', 121, 30, 14],
    ])
  })

  it('shortens a transition longer than the pieces it joins', () => {
    const plan = planFilm(
      [
        cut('a', { narrated: false, holdMs: MIN_CUT_MS }),
        cut('b', { narrated: false, holdMs: MIN_CUT_MS, transition: 'wipe', transitionMs: 3_000 }),
      ],
      noCards,
      () => ({ clipMs: null, narrationMs: 0 }),
    )
    expect(plan.pieces[1]!.transitionIn).toEqual({ type: 'wipe', frames: 7 })
  })

  it('shows a scene without narration for the minimum scene length', () => {
    const plan = planFilm([cut(defaultCutId('s'))], DEFAULT_TIMELINE_SETTINGS, () => ({
      clipMs: null,
      narrationMs: 0,
    }))
    expect(plan.durationMs).toBe(MIN_SCENE_MS)
  })

  it('refuses an empty film', () => {
    expect(() => planFilm([], noCards, () => ({ clipMs: null, narrationMs: 0 }))).toThrow(
      RangeError,
    )
  })
})
