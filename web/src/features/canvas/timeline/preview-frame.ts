import {
  type CaptionEvent,
  captionEvents,
  type FilmPlan,
  type PlannedCut,
  spokenWord,
  type TimelineSettings,
  type WordTiming,
} from '@reelgraph/shared'
import { framesToMs } from './track-layout'

/**
 * What the in-page preview shows at one moment of the film (issue 24 items 1 and 2), pure,
 * from the same plan as the renderer (shared `planFilm`): the pieces on screen with the
 * transition between them approximated (crossfade and dip by opacity, wipe by a reveal,
 * slide by a shift), where each clip and narration is at that moment, and the caption.
 */

/** A piece on screen. */
export interface PreviewLayer {
  piece: PlannedCut
  opacity: number
  /** How much of its width shows from the left (a wipe), 0..1. */
  reveal: number
  /** Its shift, in widths of the frame (a slide): -1 left out, 0 in place, 1 right out. */
  shiftX: number
  /** Where its clip is, in ms of the clip; null for a still or a card. */
  clipMs: number | null
}

/** The preview at one moment. */
export interface PreviewFrame {
  /** Bottom first. */
  layers: PreviewLayer[]
  /** A black veil over them (dip to black), 0..1. */
  black: number
  /** The narration playing: its cut and where it is, in ms of the narration. */
  narration: { piece: PlannedCut; atMs: number } | null
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x))

function layer(piece: PlannedCut, atMs: number, fps: number): PreviewLayer {
  const local = atMs - framesToMs(piece.startFrame, fps)
  let clipMs: number | null = null
  if (piece.clip) {
    const end = piece.clip.outMs ?? Number.POSITIVE_INFINITY
    clipMs = Math.min(piece.clip.inMs + Math.max(0, local), end)
  }
  return { piece, opacity: 1, reveal: 1, shiftX: 0, clipMs }
}

/** The pieces on screen at `atMs` (ms of the film) and how they mix. */
export function previewFrame(plan: FilmPlan, atMs: number): PreviewFrame {
  const { fps } = plan
  const t = Math.min(Math.max(0, atMs), Math.max(0, plan.durationMs - 1))
  const index = plan.pieces.findLastIndex((p) => framesToMs(p.startFrame, fps) <= t)
  const current = plan.pieces[Math.max(0, index)]!
  const prev = index > 0 ? plan.pieces[index - 1] : undefined
  const narration = narrationAt(plan, t)
  const top = layer(current, t, fps)
  const transMs = framesToMs(current.transitionIn.frames, fps)
  const into = t - framesToMs(current.startFrame, fps)
  if (!prev || transMs <= 0 || into >= transMs) {
    return { layers: [top], black: 0, narration }
  }
  const p = clamp01(into / transMs)
  const under = layer(prev, t, fps)
  switch (current.transitionIn.type) {
    case 'crossfade':
      return { layers: [under, { ...top, opacity: p }], black: 0, narration }
    case 'dip':
      return p < 0.5
        ? { layers: [under], black: p * 2, narration }
        : { layers: [top], black: 2 - p * 2, narration }
    case 'wipe':
      return { layers: [under, { ...top, reveal: p }], black: 0, narration }
    case 'slide':
      return {
        layers: [
          { ...under, shiftX: -p },
          { ...top, shiftX: 1 - p },
        ],
        black: 0,
        narration,
      }
    default:
      return { layers: [top], black: 0, narration }
  }
}

/** The narration heard at `atMs` (ms of the film), if any. */
export function narrationAt(
  plan: FilmPlan,
  atMs: number,
): { piece: PlannedCut; atMs: number } | null {
  for (const piece of plan.pieces) {
    if (piece.narrationFrame === null || piece.narrationMs <= 0) continue
    const from = framesToMs(piece.startFrame + piece.narrationFrame, plan.fps)
    if (atMs >= from && atMs < from + piece.narrationMs) return { piece, atMs: atMs - from }
  }
  return null
}

/** A caption on screen: its lines of words, and the spoken word's index (-1: none lit). */
export interface ShownCaption {
  lines: string[][]
  spoken: number
}

/**
 * The caption on screen at narration time `atMs` in the timeline's caption style (shared
 * `captionEvents`: the renderer's own layout): Word highlight lights the spoken word; Bold
 * shows one to three words. Null between captions.
 */
export function captionAt(
  words: readonly WordTiming[],
  narrationMs: number,
  settings: Pick<TimelineSettings, 'captionStyle' | 'captionMaxWords'>,
  atMs: number,
  cache?: Map<readonly WordTiming[], CaptionEvent[]>,
): ShownCaption | null {
  let events = cache?.get(words)
  if (!events) {
    events = captionEvents(words, {
      style: settings.captionStyle,
      maxWords: settings.captionMaxWords,
      endLimitMs: narrationMs,
    })
    cache?.set(words, events)
  }
  const event = events.find((e) => atMs >= e.startMs && atMs < e.endMs)
  if (!event) return null
  return {
    lines: event.lines.map((line) => line.map((w) => w.text)),
    spoken: settings.captionStyle === 'word-highlight' ? spokenWord(event, atMs) : -1,
  }
}
