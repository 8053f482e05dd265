import {
  DEFAULT_CUT,
  DEFAULT_TIMELINE_SETTINGS,
  type FilmCut,
  planFilm,
  type TransitionType,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { captionAt, narrationAt, previewFrame } from './preview-frame'
import { peaks } from './waveform'

function cut(n: number, transition: TransitionType, clip = false): FilmCut {
  return {
    id: `scene:scene-1-s${n}`,
    sceneId: `scene-1-s${n}`,
    ...DEFAULT_CUT,
    holdMs: 3_000,
    transition,
    transitionMs: 1_000,
    scene: {
      nodeId: `scene-1-s${n}`,
      sceneNumber: String(n),
      narration: '',
      imageUrl: '/i.png',
      clip: clip ? { url: '/c.mp4', durationMs: 10_000, hasAudio: false, modelId: 'm' } : null,
    },
    place: `a${n}`,
    narrated: n === 1,
    inMs: clip ? 2_000 : 0,
    outMs: clip ? 5_000 : 0,
  }
}

const plan = (second: TransitionType) =>
  planFilm([cut(1, 'cut', true), cut(2, second)], DEFAULT_TIMELINE_SETTINGS, (c) => ({
    clipMs: c.scene.clip ? 10_000 : null,
    narrationMs: c.narrated ? 1_500 : 0,
  }))

describe('previewFrame', () => {
  it('shows one piece outside transitions, its clip from the in point', () => {
    const frame = previewFrame(plan('crossfade'), 1_000)
    expect(frame.layers).toHaveLength(1)
    expect(frame.layers[0]!.clipMs).toBe(3_000)
    expect(frame.black).toBe(0)
  })

  it('approximates each transition half-way through', () => {
    const p = plan('crossfade')
    const start = (p.pieces[1]!.startFrame * 1000) / 30
    const half = start + 500
    const fade = previewFrame(p, half)
    expect(fade.layers.map((l) => l.piece.id)).toEqual([p.pieces[0]!.id, p.pieces[1]!.id])
    expect(fade.layers[1]!.opacity).toBeCloseTo(0.5, 2)
    const dip = previewFrame(plan('dip'), half - 250)
    expect(dip.layers).toHaveLength(1)
    expect(dip.black).toBeCloseTo(0.5, 2)
    const wipe = previewFrame(plan('wipe'), half)
    expect(wipe.layers[1]!.reveal).toBeCloseTo(0.5, 2)
    const slide = previewFrame(plan('slide'), half)
    expect(slide.layers[0]!.shiftX).toBeCloseTo(-0.5, 2)
    expect(slide.layers[1]!.shiftX).toBeCloseTo(0.5, 2)
    expect(previewFrame(plan('cut'), half).layers).toHaveLength(1)
  })

  it('places the narration after its lead-in', () => {
    const p = plan('cut')
    expect(narrationAt(p, 100)).toBeNull()
    expect(narrationAt(p, 700)).toMatchObject({ atMs: 100 })
    expect(narrationAt(p, 600 + 1_600)).toBeNull()
  })
})

describe('captionAt', () => {
  const words = ['One', 'two', 'three', 'four', 'five.'].map((text, i) => ({
    text,
    startMs: i * 400,
    endMs: i * 400 + 350,
  }))
  it('lights the spoken word in Word highlight', () => {
    const settings = { captionStyle: 'word-highlight' as const, captionMaxWords: 7 }
    expect(captionAt(words, 2_000, settings, 450)).toEqual({
      lines: [['One', 'two', 'three', 'four', 'five.']],
      spoken: 1,
    })
    expect(captionAt(words, 2_000, settings, 1_250)?.spoken).toBe(3)
    expect(captionAt(words, 2_000, { ...settings, captionStyle: 'classic' }, 450)?.spoken).toBe(-1)
  })
  it('shows one to three words in Bold', () => {
    const shown = captionAt(words, 2_000, { captionStyle: 'bold', captionMaxWords: 7 }, 1_300)
    expect(shown?.lines).toEqual([['four', 'five.']])
  })
})

describe('peaks', () => {
  it('gives each slice its peak level', () => {
    const levels = peaks(new Float32Array([0, 0.5, -0.9, 0.1, 0.2, -0.25]), 3)
    expect(levels.map((v) => Number(v.toFixed(3)))).toEqual([0.5, 0.9, 0.25])
    expect(peaks(new Float32Array([]), 2)).toEqual([0, 0])
  })
})
