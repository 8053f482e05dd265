import { cuesFromWords } from './subtitles/cues.ts'
import type { WordTiming } from './subtitles/types.ts'
import { endsPhrase, endsSentence } from './subtitles/words.ts'
import type { CaptionStyle } from './caption-style.ts'

/**
 * What a caption style shows when (issue 24 item 2), laid out once for the renderer's ASS
 * subtitles and the canvas's in-page preview, so both show the same words at the same time.
 * The SRT and VTT stay plain: they use `cuesFromWords` as they always did.
 */

/** A word of a caption line, with when it is spoken (ms from the narration's start). */
export type CaptionWord = WordTiming

/** One caption on screen: its lines of words, from `startMs` to `endMs` (narration ms). */
export interface CaptionEvent {
  startMs: number
  endMs: number
  lines: CaptionWord[][]
}

/** Most words a "Bold short-form" caption shows at once. */
export const BOLD_MAX_WORDS = 3

/** The words of each cue, in order (a cue's lines are its words joined by single spaces). */
function cueWords(words: readonly WordTiming[], lineWordCounts: number[][]): WordTiming[][][] {
  let next = 0
  return lineWordCounts.map((lines) =>
    lines.map((count) => {
      const line = words.slice(next, next + count)
      next += count
      return line
    }),
  )
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * The captions of one narration in style `style`:
 * - `classic` and `word-highlight`: the subtitle cues (at most two lines), each line cut to at
 *   most `maxWords` words, a cue whose lines grow past two shown as two captions one after the
 *   other; `word-highlight` lights the spoken word ({@link spokenWord});
 * - `bold`: one to three words at a time (fewer when `maxWords` is lower), ending at a
 *   sentence or phrase end when there is one, each shown until the next starts.
 * @param words the narration's word timings (its provider's, or the documented estimate)
 * @param endLimitMs no caption ends after this (the narration's length)
 */
export function captionEvents(
  words: readonly WordTiming[],
  { style, maxWords, endLimitMs }: { style: CaptionStyle; maxWords: number; endLimitMs: number },
): CaptionEvent[] {
  if (words.length === 0) return []
  if (style === 'bold') {
    const size = Math.max(1, Math.min(BOLD_MAX_WORDS, maxWords))
    const groups: WordTiming[][] = []
    let group: WordTiming[] = []
    for (const word of words) {
      group.push(word)
      if (group.length >= size || endsSentence(word.text) || endsPhrase(word.text)) {
        groups.push(group)
        group = []
      }
    }
    if (group.length > 0) groups.push(group)
    return groups.map((g, i) => ({
      startMs: g[0]!.startMs,
      endMs: Math.min(
        endLimitMs,
        groups[i + 1]?.[0]!.startMs ?? Math.max(g.at(-1)!.endMs, g[0]!.startMs + 1),
      ),
      lines: [g],
    }))
  }
  const cues = cuesFromWords([...words], { endLimitMs })
  const perCue = cueWords(
    words,
    cues.map((c) => c.lines.map((line) => line.split(' ').length)),
  )
  const events: CaptionEvent[] = []
  cues.forEach((cue, i) => {
    const lines = perCue[i]!.flatMap((line) => chunk(line, Math.max(1, maxWords)))
    const screens = chunk(lines, 2)
    screens.forEach((screen, j) => {
      const next = screens[j + 1]
      events.push({
        startMs: j === 0 ? cue.startMs : screen[0]![0]!.startMs,
        endMs: next ? next[0]![0]!.startMs : cue.endMs,
        lines: screen,
      })
    })
  })
  return events
}

/**
 * The word of `event` being spoken at `atMs` (narration ms): the last one that has started,
 * so the highlight stays on a word through the pause after it.
 * @returns its index in the event's words read line by line, or -1 before the first.
 */
export function spokenWord(event: CaptionEvent, atMs: number): number {
  let index = -1
  let i = 0
  for (const line of event.lines) {
    for (const word of line) {
      if (word.startMs <= atMs) index = i
      i++
    }
  }
  return index
}
