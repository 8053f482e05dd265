/**
 * One spoken word and when it is heard, in milliseconds from the start of its narration.
 * `text` is the word as written in the narration, punctuation attached (`"world,"`), never
 * containing whitespace. `startMs <= endMs`.
 * @see issue 13 item 1 (word timings) and item 2 (subtitles)
 */
export interface WordTiming {
  text: string
  startMs: number
  endMs: number
}

/**
 * One subtitle: one or two lines shown from `startMs` to `endMs` (milliseconds, whole
 * numbers, `startMs < endMs` for any real narration).
 * @see issue 13 item 2
 */
export interface Cue {
  startMs: number
  endMs: number
  /** One or two lines; the words of the cue in order, separated by single spaces. */
  lines: string[]
}
