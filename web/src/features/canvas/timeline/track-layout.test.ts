import {
  DEFAULT_CUT,
  type FilmCut,
  planFilm,
  DEFAULT_TIMELINE_SETTINGS,
  type VideoScene,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  dropIndex,
  fitScale,
  layoutTrack,
  lengthText,
  minLengthMs,
  rulerTicks,
  timeText,
  trimEdit,
} from './track-layout'

function scene(n: number, clip: number | null = null): VideoScene {
  return {
    nodeId: `scene-1-s${n}`,
    sceneNumber: String(n),
    narration: '',
    imageUrl: '/api/assets/abcdefghijklmnopqrstuvwxyz234567',
    clip: clip === null ? null : { url: '/c.mp4', durationMs: clip, hasAudio: false, modelId: 'm' },
  }
}

function cut(n: number, fields: Partial<FilmCut> = {}): FilmCut {
  const s = scene(n, fields.scene?.clip?.durationMs ?? null)
  return {
    id: `scene:${s.nodeId}`,
    sceneId: s.nodeId,
    ...DEFAULT_CUT,
    scene: s,
    place: `a${n}`,
    narrated: true,
    ...fields,
  }
}

const noNarration = () => ({ clipMs: null, narrationMs: 0 })

describe('layoutTrack', () => {
  it('makes each cut as wide as its time on screen, tiling the track without overlap', () => {
    const cuts = [cut(1, { holdMs: 3_000 }), cut(2, { holdMs: 6_000 }), cut(3, { holdMs: 3_000 })]
    const plan = planFilm(cuts, DEFAULT_TIMELINE_SETTINGS, noNarration)
    const layout = layoutTrack(plan, 0.1)
    expect(layout.boxes.map((b) => b.piece.id)).toEqual(cuts.map((c) => c.id))
    // 500 ms crossfades: each box runs from the middle of one to the middle of the next.
    expect(layout.boxes[0]!.left).toBe(0)
    expect(layout.boxes[0]!.width).toBeCloseTo(275, 0)
    expect(layout.boxes[1]!.width).toBeCloseTo(550, 0)
    expect(layout.boxes[1]!.width / layout.boxes[0]!.width).toBeCloseTo(2, 0)
    for (let i = 1; i < 3; i++) {
      const prev = layout.boxes[i - 1]!
      expect(layout.boxes[i]!.left).toBeCloseTo(prev.left + prev.width, 6)
    }
    const last = layout.boxes.at(-1)!
    expect(last.left + last.width).toBeCloseTo(layout.widthPx, 6)
    expect(layout.widthPx).toBeCloseTo(plan.durationMs * 0.1, 6)
  })

  it('fits a film into a width and ticks the ruler at a round step', () => {
    expect(fitScale(10_000, 1000)).toBe(0.1)
    expect(fitScale(0, 500)).toBe(0.5)
    expect(rulerTicks(10_000, 0.1)).toEqual([
      0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000,
    ])
    expect(rulerTicks(60_000, 0.01)).toEqual([0, 10000, 20000, 30000, 40000, 50000, 60000])
    expect(timeText(65_000)).toBe('1:05')
    expect(timeText(4_250, true)).toBe('0:04.3')
    expect(lengthText(4_233)).toBe('4.2 s')
  })
})

describe('dropIndex', () => {
  const plan = planFilm(
    [
      cut(1, { holdMs: 3_000, transition: 'cut' }),
      cut(2, { holdMs: 3_000, transition: 'cut' }),
      cut(3, { holdMs: 3_000, transition: 'cut' }),
    ],
    DEFAULT_TIMELINE_SETTINGS,
    noNarration,
  )
  const boxes = layoutTrack(plan, 0.1).boxes
  it('places a dragged cut among the others by its centre', () => {
    const third = plan.pieces[2]!.id
    // The third cut dragged to the very start: index 0 among the two others.
    expect(dropIndex(boxes, third, 10)).toBe(0)
    // Between the first and second.
    expect(dropIndex(boxes, third, 200)).toBe(1)
    // Left where it was.
    expect(dropIndex(boxes, third, 750)).toBe(2)
    // The first dragged past everything.
    expect(dropIndex(boxes, plan.pieces[0]!.id, 900)).toBe(2)
  })
})

describe('trimEdit', () => {
  it('sets a still’s length from either edge, never below its narration', () => {
    const narrated = cut(1, { holdMs: 0 })
    const plan = planFilm([narrated, cut(2)], DEFAULT_TIMELINE_SETTINGS, (c) => ({
      clipMs: null,
      narrationMs: c.id === narrated.id ? 3_000 : 0,
    }))
    const minMs = minLengthMs(plan, 0)
    // Narration 3 s plus its lead-in and tail: the plan's length of the cut.
    expect(minMs).toBe(600 + 3_000 + 700)
    expect(plan.pieces[0]!.frames).toBe(Math.ceil((minMs * 30) / 1000))
    const base = { piece: plan.pieces[0]!, clipMs: null, minMs }
    expect(trimEdit(base, 'end', 2_000, 30)).toEqual({ holdMs: 4_300 + 2_000 })
    expect(trimEdit(base, 'start', -1_000, 30)).toEqual({ holdMs: 5_300 })
    expect(trimEdit(base, 'end', -2_000, 30)).toEqual({ holdMs: minMs })
  })

  it('moves a clip’s in and out points inside the clip', () => {
    const clip = cut(1, { scene: scene(1, 5_000), narrated: false, outMs: 4_000, inMs: 1_000 })
    const plan = planFilm([clip], DEFAULT_TIMELINE_SETTINGS, () => ({
      clipMs: 5_000,
      narrationMs: 0,
    }))
    const base = { piece: plan.pieces[0]!, clipMs: 5_000, minMs: minLengthMs(plan, 0) }
    expect(base.minMs).toBe(500)
    expect(trimEdit(base, 'end', 500, 30)).toEqual({ outMs: 4_500 })
    expect(trimEdit(base, 'end', 9_000, 30)).toEqual({ outMs: 5_000 })
    expect(trimEdit(base, 'start', 500, 30)).toEqual({ inMs: 1_500, outMs: 4_000 })
    expect(trimEdit(base, 'start', -5_000, 30)).toEqual({ inMs: 0, outMs: 4_000 })
    // Never shorter than the minimum: the in point stops 500 ms before the out point.
    expect(trimEdit(base, 'start', 5_000, 30)).toEqual({ inMs: 3_500, outMs: 4_000 })
  })
})
