import type { FilmCut, TimelineSettings, TransitionType } from './timeline.ts'

/**
 * How long each cut of a timeline plays and where it starts (issue 24 item 1): one pure plan
 * that the canvas's timeline panel, its in-page preview and the renderer all use, so the ruler,
 * the preview and the MP4 agree to the frame.
 */

/** Frames per second of every render (media's presets all use it). */
export const FILM_FPS = 30
/** Silence before a cut's narration, in ms, when its transition in is short. */
export const NARRATION_LEAD_IN_MS = 600
/** Silence after a cut's narration, in ms, when its transition out is short. */
export const NARRATION_TAIL_MS = 700
/** The breath between a transition's end and the voice, in ms. */
export const TRANSITION_BREATH_MS = 100
/** The beat between the voice's end and the next transition, in ms. */
export const TRANSITION_BEAT_MS = 200
/** Shortest narrated cut, in ms (a scene without narration shows its picture this long). */
export const MIN_SCENE_MS = 2_000
/** Shortest cut that carries no narration (a split's second part), in ms. */
export const MIN_CUT_MS = 500
/** The transition into the end card. */
export const END_CARD_TRANSITION: { type: TransitionType; ms: number } = {
  type: 'crossfade',
  ms: 500,
}

/** What the plan needs of a cut's media. */
export interface CutMedia {
  /** The clip's length in ms, or null for a still. */
  clipMs: number | null
  /** The narration's length in ms (0: none, or not the narrated cut). */
  narrationMs: number
}

/** Where a cut's narration sits and how short the cut may be. */
export interface CutBounds {
  /** The shortest the cut may be, in ms: its narration with its padding, or the minimum. */
  minMs: number
  /** The narration's start from the cut's start, in ms (0 without narration). */
  narrationOffsetMs: number
}

/**
 * How short a cut may be (the edge the timeline shows: never shorter than its narration) and
 * where its voice starts: after the transition in and a breath (at least
 * {@link NARRATION_LEAD_IN_MS}), and ending before the transition out and a beat (at least
 * {@link NARRATION_TAIL_MS}).
 * @param transitionInMs, transitionOutMs the requested transitions around the cut, in ms
 */
export function cutBounds(
  cut: Pick<FilmCut, 'narrated'>,
  narrationMs: number,
  transitionInMs: number,
  transitionOutMs: number,
): CutBounds {
  if (!cut.narrated) return { minMs: MIN_CUT_MS, narrationOffsetMs: 0 }
  if (narrationMs <= 0) return { minMs: MIN_SCENE_MS, narrationOffsetMs: 0 }
  const lead = Math.max(NARRATION_LEAD_IN_MS, transitionInMs + TRANSITION_BREATH_MS)
  const tail = Math.max(NARRATION_TAIL_MS, transitionOutMs + TRANSITION_BEAT_MS)
  return { minMs: Math.max(MIN_SCENE_MS, lead + narrationMs + tail), narrationOffsetMs: lead }
}

/**
 * The part of a clip a cut asks for, in ms of the clip: from its in point to its out point
 * (0: the clip's end, or, for the narrated cut, as long as the narration needs).
 * @returns null for a still.
 */
export function clipSpan(
  cut: Pick<FilmCut, 'inMs' | 'outMs' | 'narrated'>,
  media: CutMedia,
): { inMs: number; outMs: number | null } | null {
  if (media.clipMs === null) return null
  const inMs = Math.min(cut.inMs, Math.max(0, media.clipMs - 1))
  if (cut.outMs > 0) return { inMs, outMs: Math.max(inMs + 1, Math.min(cut.outMs, media.clipMs)) }
  return { inMs, outMs: cut.narrated && media.narrationMs > 0 ? null : media.clipMs }
}

/** One piece of the film: a card or a cut, with its place in frames. */
export interface PlannedCut {
  /** The cut's id; `title` and `end` for the cards. */
  id: string
  kind: 'title' | 'cut' | 'end'
  /** The film cut (scene, fields), for `kind: 'cut'`. */
  cut: FilmCut | null
  /** First frame where it shows (its transition in starts here). */
  startFrame: number
  /** Frames it shows, transitions included. */
  frames: number
  /** The transition from the piece before into this one (0 frames: none, or a plain cut). */
  transitionIn: { type: TransitionType; frames: number }
  /** Where its narration starts, in frames from `startFrame`; null without narration. */
  narrationFrame: number | null
  /** Its narration's length in ms (0 without). */
  narrationMs: number
  /** The part of the clip shown (ms of the clip), or null for a still or a card. */
  clip: { inMs: number; outMs: number | null } | null
}

/** The film laid out. */
export interface FilmPlan {
  fps: number
  totalFrames: number
  durationMs: number
  /** Title card, cuts, end card, in order. */
  pieces: PlannedCut[]
}

const toFrames = (ms: number, fps: number) => Math.ceil((ms * fps) / 1000 - 1e-9)

/**
 * Lays the film out (pure): the title card (when `titleMs` > 0), the cuts in order, the end
 * card (when `endMs` > 0). Each cut lasts what it asks for (a still's `holdMs`, a clip's out
 * minus in point) but never less than {@link cutBounds}; each transition overlaps the two
 * pieces it joins and is shortened so that every piece shows at least one frame on its own
 * (a plain `cut` has none). `media` gives each cut's clip and narration lengths, by cut id.
 * @throws RangeError when there is nothing to show.
 */
export function planFilm(
  cuts: readonly FilmCut[],
  settings: Pick<TimelineSettings, 'titleMs' | 'endMs'>,
  media: (cut: FilmCut) => CutMedia,
  fps = FILM_FPS,
): FilmPlan {
  interface Draft {
    id: string
    kind: PlannedCut['kind']
    cut: FilmCut | null
    ms: number
    inType: TransitionType
    inMs: number
    narrationOffsetMs: number
    narrationMs: number
    clip: PlannedCut['clip']
  }
  const drafts: Draft[] = []
  const transitionOf = (cut: FilmCut | undefined, index: number) =>
    !cut || (index === 0 && settings.titleMs <= 0) || cut.transition === 'cut'
      ? 0
      : cut.transitionMs
  if (settings.titleMs > 0) {
    drafts.push({
      id: 'title',
      kind: 'title',
      cut: null,
      ms: settings.titleMs,
      inType: 'cut',
      inMs: 0,
      narrationOffsetMs: 0,
      narrationMs: 0,
      clip: null,
    })
  }
  cuts.forEach((cut, index) => {
    const m = media(cut)
    const inMs = transitionOf(cut, index)
    const outMs =
      index + 1 < cuts.length
        ? transitionOf(cuts[index + 1], index + 1)
        : settings.endMs > 0
          ? END_CARD_TRANSITION.ms
          : 0
    const narrationMs = cut.narrated ? m.narrationMs : 0
    const bounds = cutBounds(cut, narrationMs, inMs, outMs)
    const clip = clipSpan(cut, { ...m, narrationMs })
    const asked = clip ? (clip.outMs === null ? 0 : clip.outMs - clip.inMs) : cut.holdMs
    drafts.push({
      id: cut.id,
      kind: 'cut',
      cut,
      ms: Math.max(asked, bounds.minMs),
      inType: cut.transition,
      inMs,
      narrationOffsetMs: bounds.narrationOffsetMs,
      narrationMs,
      clip,
    })
  })
  if (settings.endMs > 0) {
    drafts.push({
      id: 'end',
      kind: 'end',
      cut: null,
      ms: settings.endMs,
      inType: END_CARD_TRANSITION.type,
      inMs: drafts.length > 0 ? END_CARD_TRANSITION.ms : 0,
      narrationOffsetMs: 0,
      narrationMs: 0,
      clip: null,
    })
  }
  if (drafts.length === 0) throw new RangeError('A film needs at least one cut or card')

  const pieces: PlannedCut[] = []
  let startFrame = 0
  drafts.forEach((d, index) => {
    const frames = Math.max(1, toFrames(d.ms, fps))
    const prev = pieces[index - 1]
    const wanted = index === 0 ? 0 : toFrames(d.inMs, fps)
    const fit = prev ? Math.floor((Math.min(prev.frames, frames) - 1) / 2) : 0
    const inFrames = Math.max(0, Math.min(wanted, fit))
    startFrame = prev ? prev.startFrame + prev.frames - inFrames : 0
    pieces.push({
      id: d.id,
      kind: d.kind,
      cut: d.cut,
      startFrame,
      frames,
      transitionIn: { type: inFrames > 0 ? d.inType : 'cut', frames: inFrames },
      narrationFrame: d.narrationMs > 0 ? Math.round((d.narrationOffsetMs * fps) / 1000) : null,
      narrationMs: d.narrationMs,
      clip: d.clip,
    })
  })
  const last = pieces.at(-1)!
  const totalFrames = last.startFrame + last.frames
  return { fps, totalFrames, durationMs: (totalFrames * 1000) / fps, pieces }
}
