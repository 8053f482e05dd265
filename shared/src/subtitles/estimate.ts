import type { WordTiming } from './types.ts'
import { endsPhrase, endsSentence, splitWords } from './words.ts'

/** The pause after a comma, semicolon, colon or dash, counted as this many syllables. */
export const ESTIMATE_PHRASE_PAUSE_SYLLABLES = 1
/** The pause after a sentence, counted as this many syllables. */
export const ESTIMATE_SENTENCE_PAUSE_SYLLABLES = 2

const VOWEL_GROUPS = /[aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœąęėįųūāēīōůěаеёиоуыэюяіїєαεηιουω]+/gu
/** Scripts where one character is about one syllable. */
const SYLLABIC_CHARACTERS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu

/**
 * About how many syllables a written word takes to say: vowel groups for alphabetic words
 * (a final silent `e` not counted), one per character for Chinese, Japanese and Korean, one
 * per digit for numbers, one for a symbol that is read aloud (`&`, `%`, `+`); at least 1 for any word with letters,
 * digits or symbols, 0 for bare punctuation.
 * @see issue 13 item 2
 */
export function estimateSyllables(word: string): number {
  const lower = word.toLowerCase()
  const syllabic = lower.match(SYLLABIC_CHARACTERS)?.length ?? 0
  const digits = lower.match(/\p{Nd}/gu)?.length ?? 0
  const letters = lower.replace(/[^\p{L}]/gu, '')
  let vowels = letters.match(VOWEL_GROUPS)?.length ?? 0
  if (vowels > 1 && /[^aeiouy]e$/u.test(letters) && !/le$/u.test(letters)) vowels--
  const spoken = syllabic + digits + vowels
  if (spoken > 0) return spoken
  if (letters !== '' || /[\p{S}&%@#]/u.test(lower)) return 1
  return 0
}

/**
 * Word timings estimated from the text alone, for providers that give audio without them
 * (OpenAI). Each word gets time in proportion to its syllables (`estimateSyllables`), with a
 * pause after phrase punctuation (`ESTIMATE_PHRASE_PAUSE_SYLLABLES`) and after a sentence
 * (`ESTIMATE_SENTENCE_PAUSE_SYLLABLES`) that belongs to no word; the whole is scaled to fill
 * `span` exactly, so the speaking rate is the audio's real rate. Pass the span where the audio
 * is not silent (`voicedSpan` in `media/src/speech/pcm.ts`) for the best fit.
 *
 * @param span milliseconds, `startMs <= endMs`: the first word starts at `startMs`, the last
 *   ends at `endMs`
 * @returns one timing per `splitWords(text)` word, in order; `[]` for a blank text
 * @throws RangeError when the span is not finite or ends before it starts
 * @see issue 13 item 2
 */
export function estimateWordTimings(
  text: string,
  span: { startMs: number; endMs: number },
): WordTiming[] {
  const { startMs, endMs } = span
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs || startMs < 0) {
    throw new RangeError(`need 0 <= startMs <= endMs, got ${startMs} to ${endMs}`)
  }
  const words = splitWords(text)
  if (words.length === 0) return []
  // Every word counts at least a little, so bare punctuation still gets a moment.
  const weights = words.map((word) => Math.max(estimateSyllables(word), 0.25))
  const pauses = words.map((word, i): number =>
    i === words.length - 1
      ? 0
      : endsSentence(word)
        ? ESTIMATE_SENTENCE_PAUSE_SYLLABLES
        : endsPhrase(word)
          ? ESTIMATE_PHRASE_PAUSE_SYLLABLES
          : 0,
  )
  const units = weights.reduce((sum, w) => sum + w, 0) + pauses.reduce((sum, p) => sum + p, 0)
  const msPerUnit = (endMs - startMs) / units
  const timings: WordTiming[] = []
  let at = 0
  words.forEach((word, i) => {
    const wordStart = startMs + at * msPerUnit
    at += weights[i]!
    timings.push({ text: word, startMs: wordStart, endMs: startMs + at * msPerUnit })
    at += pauses[i]!
  })
  // Floating point must not push the last word past the span.
  timings.at(-1)!.endMs = endMs
  return timings
}

/**
 * A narration's length before it is spoken, in ms (the timeline's estimate, issue 24): its
 * syllables and pauses at {@link ESTIMATE_MS_PER_SYLLABLE}, the rate of a calm narrator.
 * @returns 0 for a blank text
 */
export function estimateNarrationMs(text: string): number {
  const words = splitWords(text)
  let units = 0
  words.forEach((word, i) => {
    units += Math.max(estimateSyllables(word), 0.25)
    if (i < words.length - 1) {
      units += endsSentence(word)
        ? ESTIMATE_SENTENCE_PAUSE_SYLLABLES
        : endsPhrase(word)
          ? ESTIMATE_PHRASE_PAUSE_SYLLABLES
          : 0
    }
  })
  return Math.round(units * ESTIMATE_MS_PER_SYLLABLE)
}

/**
 * Speaking time of one syllable in {@link estimateNarrationMs}, in ms: about 4 syllables a
 * second, 150 words a minute of English narration.
 */
export const ESTIMATE_MS_PER_SYLLABLE = 250
