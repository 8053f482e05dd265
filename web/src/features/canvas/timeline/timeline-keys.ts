import { FILM_FPS } from '@reelgraph/shared'

/**
 * The timeline panel's keyboard (issue 24 item 1), pure: which key does what. Space plays or
 * pauses; ←/→ step one frame (Shift: one second); Alt+←/→ moves the selected cut; J/K/L
 * shuttle (J back, K stop, L forward; pressing J or L again doubles the speed); Delete or
 * Backspace removes the selected cut from the film; Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and
 * Ctrl+Y redo (the document's per-user undo).
 */

/** What a key does in the timeline panel. */
export type TimelineKeyAction =
  | { type: 'toggle-play' }
  | { type: 'step'; ms: number }
  | { type: 'move-cut'; by: -1 | 1 }
  | { type: 'shuttle'; key: 'j' | 'k' | 'l' }
  | { type: 'remove-cut' }
  | { type: 'undo' }
  | { type: 'redo' }

/** The parts of a KeyboardEvent the map reads. */
export interface KeyPress {
  key: string
  shiftKey: boolean
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
}

/** One frame of the film, in ms. */
export const FRAME_MS = 1000 / FILM_FPS

/** The action of a key press, or null when the timeline leaves it alone. */
export function timelineKeyAction(press: KeyPress): TimelineKeyAction | null {
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key
  const command = press.ctrlKey || press.metaKey
  if (command) {
    if (press.altKey) return null
    if (key === 'z') return { type: press.shiftKey ? 'redo' : 'undo' }
    if (key === 'y' && press.ctrlKey) return { type: 'redo' }
    return null
  }
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const sign = key === 'ArrowLeft' ? -1 : 1
    if (press.altKey) return { type: 'move-cut', by: sign }
    return { type: 'step', ms: sign * (press.shiftKey ? 1000 : FRAME_MS) }
  }
  if (press.altKey) return null
  if (key === ' ') return { type: 'toggle-play' }
  if (key === 'j' || key === 'k' || key === 'l') return { type: 'shuttle', key }
  if (key === 'Delete' || key === 'Backspace') return { type: 'remove-cut' }
  return null
}

/** Fastest shuttle, in times real speed. */
export const MAX_SHUTTLE_RATE = 8

/**
 * The playback rate after a shuttle key: L plays forward (again: twice as fast, up to
 * {@link MAX_SHUTTLE_RATE}), J backward the same way, K stops.
 */
export function nextShuttleRate(rate: number, key: 'j' | 'k' | 'l'): number {
  if (key === 'k') return 0
  const sign = key === 'l' ? 1 : -1
  if (Math.sign(rate) !== sign) return sign
  return sign * Math.min(MAX_SHUTTLE_RATE, Math.abs(rate) * 2)
}
