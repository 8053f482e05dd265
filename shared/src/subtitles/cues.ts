import type { Cue, WordTiming } from './types.ts'
import { endsPhrase, endsSentence, startsClause } from './words.ts'

/** Issue 13 item 2: at most 42 characters a line (the usual broadcast and streaming limit). */
export const SUBTITLE_MAX_LINE_CHARS = 42
/** Issue 13 item 2: at most two lines a cue. */
export const SUBTITLE_MAX_LINES = 2
/** Issue 13 item 2: a cue stays at least 1 s, long enough to be read. */
export const SUBTITLE_MIN_CUE_MS = 1_000
/** Issue 13 item 2: a cue stays at most 7 s, after which a reader rereads it. */
export const SUBTITLE_MAX_CUE_MS = 7_000
/** A silence between two words at least this long splits like a comma does. */
export const SUBTITLE_PAUSE_SPLIT_MS = 400

/**
 * How `cuesFromWords` lays out cues. Every field is optional; the defaults are the
 * `SUBTITLE_*` constants. Times in milliseconds, lengths in characters (Unicode code points).
 * @see issue 13 item 2
 */
export interface CueOptions {
  /** Longest line, default 42. A single word longer than this gets a line of its own. */
  maxLineChars?: number
  /** Lines a cue may have: 1 or 2, default 2. */
  maxLines?: 1 | 2
  /** Shortest cue, default 1000 ms (see `cuesFromWords` for when it cannot hold). */
  minDurationMs?: number
  /** Longest cue, default 7000 ms. */
  maxDurationMs?: number
  /** No cue ends after this time, e.g. the narration's `durationMs`. Default: no limit. */
  endLimitMs?: number
  /** A silence between words at least this long is a split point like a comma, default 400 ms. */
  pauseSplitMs?: number
}

interface Settings {
  maxLineChars: number
  maxLines: number
  minMs: number
  maxMs: number
  limitMs: number
  pauseMs: number
}

/** A cue being built: its words and the time it is shown. */
interface Draft {
  words: WordTiming[]
  startMs: number
  endMs: number
}

/**
 * Cues for one narration from its word timings (issue 13 item 2). Words are kept whole and in
 * order, each in exactly one cue; a cue's lines are its words joined by single spaces.
 *
 * - Words are grouped by sentence, and a sentence too long for one cue is split in two where it
 *   reads best: after sentence punctuation, then after a comma, semicolon, colon, dash or a
 *   pause of `pauseSplitMs`, then before a conjunction (`and`, `but`, `because`, `which`...),
 *   then anywhere between words, each time preferring the split nearest the middle; the halves
 *   are split again until each fits: at most `maxLines` lines of at most `maxLineChars`, and at
 *   most `maxDurationMs` from its first word's start to its last word's end.
 * - A cue shows from its first word's start to its last word's end, never longer than
 *   `maxDurationMs`. A cue shorter than `minDurationMs` is lengthened into the silence after it
 *   (then before it), else merged with a neighbour when the result still fits, else given time
 *   by its neighbours down to their own `minDurationMs`. If one is still shorter (words
 *   timed at one instant leave it no time at all) and there is `minDurationMs` for every cue
 *   before `endLimitMs`, the cues are spread so that each has it, each moved as little as
 *   that needs. A cue stays shorter than `minDurationMs` only when it already fills all the
 *   time between its neighbours (from the previous cue's end, or 0, to the next cue's start,
 *   or `endLimitMs`).
 * - Cues never overlap; times are whole milliseconds.
 *
 * Words whose times go backwards are moved forward (a word starts no earlier than the previous
 * one ends); times are clamped to `[0, endLimitMs]`. Empty words are skipped; a word should
 * contain no whitespace.
 *
 * @param words the narration's words in spoken order (`Narration.words`, or
 *   `estimateWordTimings` when the provider gave none)
 * @returns the cues in time order; `[]` for no words
 * @throws RangeError when a time is not a finite number or an option is out of range
 * @see issue 13 item 2
 */
export function cuesFromWords(words: readonly WordTiming[], options: CueOptions = {}): Cue[] {
  const settings = resolve(options)
  const clean = sanitize(words, settings)
  if (clean.length === 0) return []
  const groups = sentences(clean, settings).flatMap((sentence) => split(sentence, settings))
  let drafts: Draft[] = groups.map((group) => ({
    words: group,
    startMs: group[0]!.startMs,
    endMs: Math.min(group.at(-1)!.endMs, group[0]!.startMs + settings.maxMs),
  }))
  extendIntoSilence(drafts, settings)
  drafts = mergeShort(drafts, settings)
  extendIntoSilence(drafts, settings)
  borrowFromNeighbours(drafts, settings)
  spreadToMinimum(drafts, settings)
  return drafts.map((draft) => ({
    startMs: draft.startMs,
    endMs: draft.endMs,
    lines: layout(draft.words, settings) ?? [draft.words.map((w) => w.text).join(' ')],
  }))
}

/**
 * The cues of one scene moved onto the video's timeline: every time plus `offsetMs` (the
 * scene's start in the video, milliseconds). Returns new cues; the input is not changed.
 * A video's subtitles are `scenes.flatMap((s) => shiftCues(s.cues, s.startMs))`, given each
 * scene's cues were made with `endLimitMs` at most the scene's length so scenes do not overlap.
 * @throws RangeError when `offsetMs` is not finite or a shifted time would be negative
 * @see issue 13 item 2
 */
export function shiftCues(cues: readonly Cue[], offsetMs: number): Cue[] {
  if (!Number.isFinite(offsetMs)) throw new RangeError(`offsetMs must be finite, got ${offsetMs}`)
  const offset = Math.round(offsetMs)
  return cues.map((cue) => {
    const startMs = cue.startMs + offset
    if (startMs < 0) {
      throw new RangeError(`shifting by ${offsetMs} ms moves a cue before the video's start`)
    }
    return { startMs, endMs: cue.endMs + offset, lines: [...cue.lines] }
  })
}

function resolve(options: CueOptions): Settings {
  const settings: Settings = {
    maxLineChars: options.maxLineChars ?? SUBTITLE_MAX_LINE_CHARS,
    maxLines: options.maxLines ?? SUBTITLE_MAX_LINES,
    minMs: Math.round(options.minDurationMs ?? SUBTITLE_MIN_CUE_MS),
    maxMs: Math.round(options.maxDurationMs ?? SUBTITLE_MAX_CUE_MS),
    limitMs:
      options.endLimitMs === undefined ? Number.POSITIVE_INFINITY : Math.round(options.endLimitMs),
    pauseMs: options.pauseSplitMs ?? SUBTITLE_PAUSE_SPLIT_MS,
  }
  if (!Number.isInteger(settings.maxLineChars) || settings.maxLineChars < 1) {
    throw new RangeError('maxLineChars must be a whole number of at least 1')
  }
  if (settings.maxLines !== 1 && settings.maxLines !== 2) {
    throw new RangeError('maxLines must be 1 or 2')
  }
  if (!(settings.minMs >= 0 && settings.maxMs >= Math.max(settings.minMs, 1))) {
    throw new RangeError('need 0 <= minDurationMs <= maxDurationMs and maxDurationMs >= 1')
  }
  if (Number.isNaN(settings.limitMs) || settings.limitMs < 0) {
    throw new RangeError('endLimitMs must be a number of at least 0')
  }
  if (!(settings.pauseMs > 0)) throw new RangeError('pauseSplitMs must be more than 0')
  return settings
}

/** Whole milliseconds, never backwards, within `[0, limitMs]`, empty words dropped. */
function sanitize(words: readonly WordTiming[], settings: Settings): WordTiming[] {
  const clean: WordTiming[] = []
  let previousEnd = 0
  for (const word of words) {
    if (!Number.isFinite(word.startMs) || !Number.isFinite(word.endMs)) {
      throw new RangeError(`word "${word.text}" has a time that is not a finite number`)
    }
    const text = word.text.trim().replace(/\s+/gu, ' ')
    if (text === '') continue
    const startMs = Math.min(Math.max(Math.round(word.startMs), previousEnd), settings.limitMs)
    const endMs = Math.min(Math.max(Math.round(word.endMs), startMs), settings.limitMs)
    clean.push({ text, startMs, endMs })
    previousEnd = endMs
  }
  return clean
}

function sentences(words: WordTiming[], settings: Settings): WordTiming[][] {
  const result: WordTiming[][] = []
  let current: WordTiming[] = []
  words.forEach((word, i) => {
    current.push(word)
    const next = words[i + 1]
    if (!next || endsSentence(word.text) || next.startMs - word.endMs >= settings.maxMs) {
      result.push(current)
      current = []
    }
  })
  return result
}

/** How well a text reads split between `words[k - 1]` and `words[k]`: 3 best, 0 worst. */
function strength(words: readonly WordTiming[], k: number, settings: Settings): number {
  const before = words[k - 1]!
  const after = words[k]!
  if (endsSentence(before.text)) return 3
  if (endsPhrase(before.text) || after.startMs - before.endMs >= settings.pauseMs) return 2
  if (startsClause(after.text)) return 1
  return 0
}

/** Characters as a reader counts them (code points, so an emoji is one). */
function chars(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

/** How uneven a split into texts of `a` and `b` characters is: 0 even, near 1 lopsided. */
function imbalance(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(a + b, 1)
}

/** A boundary's strength always outweighs balance: one level is worth more than any imbalance. */
const STRENGTH_WEIGHT = 10
const IMBALANCE_WEIGHT = 8

/** The cue's lines, or null when its words do not fit in `maxLines` of `maxLineChars`. */
function layout(words: readonly WordTiming[], settings: Settings): string[] | null {
  const texts = words.map((w) => w.text)
  const whole = texts.join(' ')
  if (texts.length === 1 || chars(whole) <= settings.maxLineChars) return [whole]
  if (settings.maxLines < 2) return null
  let best: string[] | null = null
  let bestScore = Number.NEGATIVE_INFINITY
  for (let k = 1; k < texts.length; k++) {
    const first = texts.slice(0, k).join(' ')
    const second = texts.slice(k).join(' ')
    const a = chars(first)
    const b = chars(second)
    if (a > settings.maxLineChars || b > settings.maxLineChars) continue
    const score =
      strength(words, k, settings) * STRENGTH_WEIGHT - imbalance(a, b) * IMBALANCE_WEIGHT
    if (score > bestScore) {
      bestScore = score
      best = [first, second]
    }
  }
  return best
}

function spanMs(words: readonly WordTiming[]): number {
  return words.at(-1)!.endMs - words[0]!.startMs
}

function fits(words: readonly WordTiming[], settings: Settings): boolean {
  if (words.length === 1) return true
  return spanMs(words) <= settings.maxMs && layout(words, settings) !== null
}

/** Splits a sentence in two at its best point, again and again, until every part fits. */
function split(words: WordTiming[], settings: Settings): WordTiming[][] {
  if (fits(words, settings)) return [words]
  const lengths = words.map((w) => chars(w.text))
  const total = lengths.reduce((sum, n) => sum + n, 0) + words.length - 1
  const candidates: number[] = []
  for (let k = 1; k < words.length; k++) candidates.push(k)
  // Prefer splits that leave both parts long enough to be read.
  const roomy = candidates.filter(
    (k) => spanMs(words.slice(0, k)) >= settings.minMs && spanMs(words.slice(k)) >= settings.minMs,
  )
  let best = 1
  let bestScore = Number.NEGATIVE_INFINITY
  for (const k of roomy.length > 0 ? roomy : candidates) {
    const before = lengths.slice(0, k).reduce((sum, n) => sum + n, 0) + k - 1
    const score =
      strength(words, k, settings) * STRENGTH_WEIGHT -
      imbalance(before, total - before - 1) * IMBALANCE_WEIGHT
    if (score > bestScore) {
      bestScore = score
      best = k
    }
  }
  return [...split(words.slice(0, best), settings), ...split(words.slice(best), settings)]
}

function duration(draft: Draft): number {
  return draft.endMs - draft.startMs
}

/** Short cues take the silence after them, then before them, up to `minMs`. */
function extendIntoSilence(drafts: Draft[], settings: Settings): void {
  drafts.forEach((draft, i) => {
    if (duration(draft) >= settings.minMs) return
    const nextStart = drafts[i + 1]?.startMs ?? settings.limitMs
    draft.endMs = Math.max(draft.endMs, Math.min(draft.startMs + settings.minMs, nextStart))
    if (duration(draft) >= settings.minMs) return
    const previousEnd = drafts[i - 1]?.endMs ?? 0
    draft.startMs = Math.min(draft.startMs, Math.max(draft.endMs - settings.minMs, previousEnd))
  })
}

/** Short cues join a neighbour when the two still fit in one cue. */
function mergeShort(drafts: Draft[], settings: Settings): Draft[] {
  const result = [...drafts]
  let i = 0
  while (i < result.length) {
    const draft = result[i]!
    if (duration(draft) >= settings.minMs) {
      i++
      continue
    }
    const options = [i - 1, i]
      .filter((first) => first >= 0 && first + 1 < result.length)
      .map((first) => {
        const a = result[first]!
        const b = result[first + 1]!
        const merged: Draft = {
          words: [...a.words, ...b.words],
          startMs: a.startMs,
          endMs: b.endMs,
        }
        const boundary = strength(merged.words, a.words.length, settings)
        return { first, merged, boundary }
      })
      .filter(
        ({ merged }) =>
          duration(merged) <= settings.maxMs && layout(merged.words, settings) !== null,
      )
      .sort((x, y) => x.boundary - y.boundary || duration(x.merged) - duration(y.merged))
    const chosen = options[0]
    if (!chosen) {
      i++
      continue
    }
    result.splice(chosen.first, 2, chosen.merged)
    i = chosen.first
  }
  return result
}

/** A cue still short takes time from its neighbours, leaving each at least `minMs`. */
function borrowFromNeighbours(drafts: Draft[], settings: Settings): void {
  drafts.forEach((draft, i) => {
    let need = settings.minMs - duration(draft)
    if (need <= 0) return
    const previous = drafts[i - 1]
    if (previous && previous.endMs === draft.startMs) {
      const take = Math.min(need, Math.max(0, duration(previous) - settings.minMs))
      previous.endMs -= take
      draft.startMs -= take
      need -= take
    }
    const next = drafts[i + 1]
    if (need > 0 && next && next.startMs === draft.endMs) {
      const take = Math.min(need, Math.max(0, duration(next) - settings.minMs))
      next.startMs += take
      draft.endMs += take
    }
  })
}

/**
 * When a cue is still shorter than `minMs` and there is `minMs` for every cue before the
 * limit, gives each cue at least `minMs`: in order, a cue starts no earlier than the one
 * before it ends and no later than leaves `minMs` for itself and each cue after it, and ends
 * at least `minMs` after its start (at most `maxMs`). Neighbours lending time
 * (`borrowFromNeighbours`) cannot do it when they are short themselves, as cues of words
 * timed at one instant are.
 */
function spreadToMinimum(drafts: Draft[], settings: Settings): void {
  const { minMs, maxMs, limitMs } = settings
  if (drafts.every((draft) => duration(draft) >= minMs)) return
  if (limitMs < drafts.length * minMs) return
  let previousEnd = 0
  drafts.forEach((draft, i) => {
    const room = (drafts.length - i) * minMs
    draft.startMs = Math.max(previousEnd, Math.min(draft.startMs, limitMs - room))
    draft.endMs = Math.min(
      Math.max(draft.endMs, draft.startMs + minMs),
      draft.startMs + maxMs,
      limitMs - room + minMs,
    )
    previousEnd = draft.endMs
  })
}
