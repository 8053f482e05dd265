import {
  clipSpan,
  type CutEdit,
  cutBounds,
  type FilmPlan,
  MAX_CUT_MS,
  type PlannedCut,
} from '@reelgraph/shared'

/**
 * The timeline panel's track laid out from the film plan (issue 24 item 1), pure: where each
 * piece sits in px, the ruler's ticks, and what a drag on the track means for the document
 * (a cut's new index, a trim's in and out points or a still's length).
 */

/** A piece's ms from its frames. */
export function framesToMs(frames: number, fps: number): number {
  return (frames * 1000) / fps
}

/** One piece (title card, cut, end card) on the track. */
export interface TrackBox {
  piece: PlannedCut
  /** Where it starts and how long it plays, in ms of the film (transitions included). */
  startMs: number
  lengthMs: number
  /**
   * Its box on the track, in px: from the middle of the transition into it to the middle of
   * the one out of it, so boxes tile the track without overlapping and each is as wide as
   * the time it has the screen.
   */
  left: number
  width: number
}

/** The track: its pieces, scale and length. */
export interface TrackLayout {
  pxPerMs: number
  durationMs: number
  widthPx: number
  boxes: TrackBox[]
}

/**
 * Lays the plan's pieces on a track `pxPerMs` px per ms ({@link fitScale} fills a width).
 */
export function layoutTrack(plan: FilmPlan, pxPerMs: number): TrackLayout {
  const ms = (frames: number) => framesToMs(frames, plan.fps)
  const boxes = plan.pieces.map((piece, i) => {
    const next = plan.pieces[i + 1]
    const startMs = ms(piece.startFrame)
    const lengthMs = ms(piece.frames)
    const from = startMs + ms(piece.transitionIn.frames) / 2
    const to = next ? ms(next.startFrame) + ms(next.transitionIn.frames) / 2 : startMs + lengthMs
    return { piece, startMs, lengthMs, left: from * pxPerMs, width: (to - from) * pxPerMs }
  })
  return { pxPerMs, durationMs: plan.durationMs, widthPx: plan.durationMs * pxPerMs, boxes }
}

/** The scale that fits `durationMs` into `widthPx` (at least a film of one second). */
export function fitScale(durationMs: number, widthPx: number): number {
  return Math.max(1, widthPx) / Math.max(1_000, durationMs)
}

/** The ruler's ticks: ms values at a round step at least `minGapPx` apart. */
export function rulerTicks(durationMs: number, pxPerMs: number, minGapPx = 56): number[] {
  const steps = [500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000]
  const step = steps.find((s) => s * pxPerMs >= minGapPx) ?? steps.at(-1)!
  const ticks: number[] = []
  for (let t = 0; t <= durationMs + 1e-6; t += step) ticks.push(t)
  return ticks
}

/** "1:05" for 65,000 ms; "0:04.2" with `tenths`. */
export function timeText(ms: number, tenths = false): string {
  const total = Math.max(0, ms) / 1000
  const minutes = Math.floor(total / 60)
  const seconds = total - minutes * 60
  const s = tenths
    ? seconds.toFixed(1).padStart(4, '0')
    : String(Math.floor(seconds)).padStart(2, '0')
  return `${minutes}:${s}`
}

/** "4.2 s": a cut's length as the track labels it. */
export function lengthText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

/**
 * Where a dragged cut lands: its index among the film's other cuts (shared `moveCut`'s `to`),
 * from the centre of its box where the pointer holds it.
 * @param boxes the track's cut boxes in film order (cards left out)
 */
export function dropIndex(boxes: readonly TrackBox[], draggedId: string, centrePx: number): number {
  return boxes.filter((b) => b.piece.id !== draggedId && b.left + b.width / 2 < centrePx).length
}

/** What a trim needs of a cut: as it was when the drag started. */
export interface TrimBase {
  piece: PlannedCut
  /** The clip's length in ms, or null for a still. */
  clipMs: number | null
  /** The shortest it may be ({@link minLengthMs}). */
  minMs: number
}

/**
 * The shortest piece `index` of `plan` may be (its narration with padding, else the
 * minimum: shared `cutBounds`), with the transitions the plan gave it: the edge the track
 * shows. 0 for a card.
 */
export function minLengthMs(plan: FilmPlan, index: number): number {
  const piece = plan.pieces[index]
  if (!piece?.cut) return 0
  const next = plan.pieces[index + 1]
  return cutBounds(
    piece.cut,
    piece.narrationMs,
    framesToMs(piece.transitionIn.frames, plan.fps),
    next ? framesToMs(next.transitionIn.frames, plan.fps) : 0,
  ).minMs
}

/**
 * The edit a drag of a cut's edge by `deltaMs` makes (issue 24 item 1): a still's length
 * (either edge), or a clip's in point (start edge) or out point (end edge), inside the clip
 * and never shorter than {@link minLengthMs} (a cut is never shorter than its narration).
 * @returns null for a card.
 */
export function trimEdit(
  base: TrimBase,
  edge: 'start' | 'end',
  deltaMs: number,
  fps: number,
): CutEdit | null {
  const { piece, clipMs, minMs } = base
  const cut = piece.cut
  if (!cut) return null
  const lengthMs = framesToMs(piece.frames, fps)
  if (clipMs === null) {
    const wanted = edge === 'end' ? lengthMs + deltaMs : lengthMs - deltaMs
    return { holdMs: Math.round(Math.min(MAX_CUT_MS, Math.max(minMs, wanted))) }
  }
  const span = clipSpan(cut, { clipMs, narrationMs: piece.narrationMs }) ?? {
    inMs: 0,
    outMs: clipMs,
  }
  const inMs = span.inMs
  const outMs = span.outMs ?? Math.min(clipMs, inMs + lengthMs)
  if (edge === 'end') {
    let out = Math.min(clipMs, Math.max(inMs + 1, outMs + deltaMs))
    if (out - inMs < minMs) out = Math.min(clipMs, inMs + minMs)
    return { outMs: Math.round(out) }
  }
  let next = Math.max(0, Math.min(outMs - 1, inMs + deltaMs))
  if (outMs - next < minMs) next = Math.max(0, outMs - minMs)
  return { inMs: Math.round(next), outMs: Math.round(outMs) }
}
