import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { cutFieldKey, defaultCutId, type FilmCut, readTimeline } from './timeline.ts'
import {
  docFilm,
  editCut,
  editTimelineSettings,
  getTimelinesMap,
  moveCut,
  removeTimelines,
  splitCut,
} from './timeline-doc.ts'
import type { VideoScene } from './video.ts'

const VIDEO = 'video-1-a'

function scenes(n: number): VideoScene[] {
  return Array.from({ length: n }, (_, i) => ({
    nodeId: `scene-${i + 1}-s`,
    sceneNumber: String(i + 1),
    narration: `Scene ${i + 1}.`,
    imageUrl: `/assets/${i + 1}.png`,
    clip:
      i % 2 === 1
        ? { url: `/assets/${i}.mp4`, durationMs: 5_000, hasAudio: false, modelId: 'm' }
        : null,
  }))
}

/** Two or more docs that exchange every update when `sync` is called (as through a server). */
function peers(count: number) {
  const docs = Array.from({ length: count }, () => new Y.Doc())
  const sync = () => {
    for (const a of docs)
      for (const b of docs) if (a !== b) Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
  }
  return { docs, sync }
}

const ids = (film: readonly FilmCut[]) => film.map((c) => c.id)

describe('the timeline in the document', () => {
  it('follows the graph: scenes without a cut are appended, a gone scene leaves', () => {
    const doc = new Y.Doc()
    const s = scenes(3)
    expect(ids(docFilm(doc, VIDEO, s).cuts)).toEqual(s.map((x) => defaultCutId(x.nodeId)))
    const film = docFilm(doc, VIDEO, s).cuts
    moveCut(doc, VIDEO, film, film[0]!.id, 2)
    const four = [...s, ...scenes(4).slice(3)]
    expect(ids(docFilm(doc, VIDEO, four).cuts)).toEqual(
      [s[1], s[2], s[0], four[3]].map((x) => defaultCutId(x!.nodeId)),
    )
    const withoutSecond = four.filter((_, i) => i !== 1)
    expect(ids(docFilm(doc, VIDEO, withoutSecond).cuts)).toEqual(
      [s[2], s[0], four[3]].map((x) => defaultCutId(x!.nodeId)),
    )
  })

  it('keeps both edits when two people reorder and trim different cuts at once', () => {
    const { docs, sync } = peers(2)
    const s = scenes(4)
    const [a, b] = docs as [Y.Doc, Y.Doc]
    const filmA = docFilm(a, VIDEO, s).cuts
    moveCut(a, VIDEO, filmA, filmA[0]!.id, 3)
    const filmB = docFilm(b, VIDEO, s).cuts
    editCut(b, VIDEO, filmB[1]!, { inMs: 1_000, outMs: 3_000 })
    sync()
    for (const doc of docs) {
      const film = docFilm(doc, VIDEO, s).cuts
      expect(ids(film)).toEqual([1, 2, 3, 0].map((i) => defaultCutId(s[i]!.nodeId)))
      expect(film[0]).toMatchObject({ inMs: 1_000, outMs: 3_000 })
    }
  })

  it('removes a cut from the film, not the scene, and puts it back', () => {
    const doc = new Y.Doc()
    const s = scenes(3)
    const film = docFilm(doc, VIDEO, s).cuts
    editCut(doc, VIDEO, film[1]!, { removed: true })
    const after = docFilm(doc, VIDEO, s)
    expect(ids(after.cuts)).toEqual([film[0]!.id, film[2]!.id])
    expect(ids(after.removed)).toEqual([film[1]!.id])
    editCut(doc, VIDEO, after.removed[0]!, { removed: false })
    expect(ids(docFilm(doc, VIDEO, s).cuts)).toEqual(ids(film))
  })

  it('splits a clip at a point: the parts meet in the clip, the narration stays on the first', () => {
    const doc = new Y.Doc()
    const s = scenes(3)
    const film = docFilm(doc, VIDEO, s).cuts
    splitCut(doc, VIDEO, {
      film,
      cut: film[1]!,
      atMs: 2_000,
      lengthMs: 5_000,
      clipMs: 5_000,
      newId: 'split-1',
    })
    const after = docFilm(doc, VIDEO, s).cuts
    expect(ids(after)).toEqual([film[0]!.id, film[1]!.id, 'split-1', film[2]!.id])
    expect(after[1]).toMatchObject({ outMs: 2_000, narrated: true })
    expect(after[2]).toMatchObject({
      inMs: 2_000,
      outMs: 5_000,
      narrated: false,
      transition: 'cut',
    })
  })

  it('splits a still into two lengths', () => {
    const doc = new Y.Doc()
    const s = scenes(1)
    const [cut] = docFilm(doc, VIDEO, s).cuts
    splitCut(doc, VIDEO, {
      film: docFilm(doc, VIDEO, s).cuts,
      cut: cut!,
      atMs: 1_500,
      lengthMs: 4_000,
      clipMs: null,
      newId: 'split-2',
    })
    const after = docFilm(doc, VIDEO, s).cuts
    expect(after.map((c) => c.holdMs)).toEqual([1_500, 2_500])
  })

  it('stores a register per field, not a JSON string, and drops a deleted video’s', () => {
    const doc = new Y.Doc()
    const s = scenes(2)
    editCut(doc, VIDEO, docFilm(doc, VIDEO, s).cuts[0]!, { holdMs: 4_000 })
    editTimelineSettings(doc, VIDEO, { captionStyle: 'bold', titleText: 'Hello', titleMs: 2_000 })
    const map = getTimelinesMap(doc)
    expect(map.get(cutFieldKey(VIDEO, defaultCutId(s[0]!.nodeId), 'holdMs'))).toBe(4_000)
    expect(readTimeline(map.entries(), VIDEO).settings).toMatchObject({
      captionStyle: 'bold',
      titleText: 'Hello',
      titleMs: 2_000,
    })
    expect(readTimeline(map.entries(), 'video-2-b').cuts).toEqual([])
    removeTimelines(doc, [VIDEO])
    expect(map.size).toBe(0)
  })

  it('keeps both edits when two people make their first edits of one timeline at once', () => {
    const { docs, sync } = peers(2)
    const s = scenes(3)
    const [a, b] = docs as [Y.Doc, Y.Doc]
    editTimelineSettings(a, VIDEO, { titleText: 'From A' })
    editTimelineSettings(b, VIDEO, { endText: 'From B' })
    moveCut(a, VIDEO, docFilm(a, VIDEO, s).cuts, defaultCutId(s[0]!.nodeId), 2)
    moveCut(b, VIDEO, docFilm(b, VIDEO, s).cuts, defaultCutId(s[2]!.nodeId), 0)
    sync()
    for (const doc of docs) {
      const film = docFilm(doc, VIDEO, s)
      expect(ids(film.cuts)).toEqual([2, 1, 0].map((i) => defaultCutId(s[i]!.nodeId)))
      expect(film.settings).toMatchObject({ titleText: 'From A', endText: 'From B' })
    }
  })

  it('lands a cut exactly where it is dropped between two cuts that share an order', () => {
    const { docs, sync } = peers(2)
    const s = scenes(4)
    const [a, b] = docs as [Y.Doc, Y.Doc]
    // Both move a different cut to the front at once: the two share the first order key.
    moveCut(a, VIDEO, docFilm(a, VIDEO, s).cuts, defaultCutId(s[2]!.nodeId), 0)
    moveCut(b, VIDEO, docFilm(b, VIDEO, s).cuts, defaultCutId(s[3]!.nodeId), 0)
    sync()
    const film = docFilm(a, VIDEO, s).cuts
    expect(film[0]!.place).toBe(film[1]!.place)
    moveCut(a, VIDEO, film, defaultCutId(s[0]!.nodeId), 1)
    const after = ids(docFilm(a, VIDEO, s).cuts)
    expect(after[1]).toBe(defaultCutId(s[0]!.nodeId))
    expect(after.slice(0, 1).concat(after.slice(2))).toEqual(
      ids(film).filter((id) => id !== defaultCutId(s[0]!.nodeId)),
    )
  })
})

type Op =
  | { kind: 'move'; cut: number; to: number }
  | { kind: 'trim'; cut: number; inMs: number; outMs: number }
  | { kind: 'hold'; cut: number; holdMs: number }
  | { kind: 'remove'; cut: number; removed: boolean }
  | { kind: 'split'; cut: number; at: number }
  | { kind: 'transition'; cut: number; transition: 'cut' | 'crossfade' | 'dip' | 'wipe' | 'slide' }
  | { kind: 'settings'; musicVolume: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('move' as const), cut: fc.nat(9), to: fc.nat(9) }),
  fc.record({
    kind: fc.constant('trim' as const),
    cut: fc.nat(9),
    inMs: fc.nat(2_000),
    outMs: fc.integer({ min: 2_001, max: 5_000 }),
  }),
  fc.record({ kind: fc.constant('hold' as const), cut: fc.nat(9), holdMs: fc.nat(8_000) }),
  fc.record({ kind: fc.constant('remove' as const), cut: fc.nat(9), removed: fc.boolean() }),
  fc.record({
    kind: fc.constant('split' as const),
    cut: fc.nat(9),
    at: fc.integer({ min: 100, max: 1_900 }),
  }),
  fc.record({
    kind: fc.constant('transition' as const),
    cut: fc.nat(9),
    transition: fc.constantFrom('cut', 'crossfade', 'dip', 'wipe', 'slide'),
  }),
  fc.record({
    kind: fc.constant('settings' as const),
    musicVolume: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
)

function apply(doc: Y.Doc, s: VideoScene[], o: Op, tag: string): void {
  const { cuts, removed } = docFilm(doc, VIDEO, s)
  const all = [...cuts, ...removed]
  if (o.kind === 'settings') return editTimelineSettings(doc, VIDEO, { musicVolume: o.musicVolume })
  const cut = all[o.cut % all.length]!
  if (o.kind === 'move') {
    if (!cut.removed) moveCut(doc, VIDEO, cuts, cut.id, o.to % cuts.length)
  } else if (o.kind === 'trim') editCut(doc, VIDEO, cut, { inMs: o.inMs, outMs: o.outMs })
  else if (o.kind === 'hold') editCut(doc, VIDEO, cut, { holdMs: o.holdMs })
  else if (o.kind === 'remove') editCut(doc, VIDEO, cut, { removed: o.removed })
  else if (o.kind === 'transition') editCut(doc, VIDEO, cut, { transition: o.transition })
  else if (!cut.removed) {
    splitCut(doc, VIDEO, {
      film: cuts,
      cut,
      atMs: o.at,
      lengthMs: 2_000,
      clipMs: cut.scene.clip ? 5_000 : null,
      newId: tag,
    })
  }
}

describe('concurrent timeline edits (property)', () => {
  it('converge on every client, with every scene of the graph in the timeline once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.array(op, { maxLength: 6 }), { minLength: 2, maxLength: 3 }),
        fc.array(fc.array(op, { maxLength: 4 }), { minLength: 2, maxLength: 3 }),
        (sceneCount, round1, round2) => {
          const s = scenes(sceneCount)
          const { docs, sync } = peers(round1.length)
          // Two rounds of concurrent edits, each followed by a sync (clients see each other).
          round1.forEach((ops, client) =>
            ops.forEach((o, i) => apply(docs[client]!, s, o, `split-a${client}-${i}`)),
          )
          sync()
          round2.forEach((ops, client) =>
            ops.forEach((o, i) =>
              apply(docs[client % docs.length]!, s, o, `split-b${client}-${i}`),
            ),
          )
          sync()
          const films = docs.map((d) => docFilm(d, VIDEO, s))
          const first = films[0]!
          for (const film of films) {
            expect(ids(film.cuts)).toEqual(ids(first.cuts))
            expect(ids(film.removed)).toEqual(ids(first.removed))
            expect(film.settings).toEqual(first.settings)
          }
          const every = [...ids(first.cuts), ...ids(first.removed)]
          expect(new Set(every).size).toBe(every.length)
          for (const scene of s) {
            expect(every).toContain(defaultCutId(scene.nodeId))
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
