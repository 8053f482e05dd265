/**
 * The words of a narration as subtitles and word timings count them: runs of non-space
 * characters, punctuation attached (`"Hello, world."` -> `["Hello,", "world."]`).
 * @see issue 13 item 2
 */
export function splitWords(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== '')
}

/** Closing quotes and brackets that may follow a word's final punctuation. */
const CLOSERS = `"'”’»)\\]`

const SENTENCE_END = new RegExp(`[.!?…。！？][${CLOSERS}]*$`, 'u')
const PHRASE_END = new RegExp(`[,;:،、，；：][${CLOSERS}]*$`, 'u')
const DASHES = /^[—–-]+$|[—–]$/u

/** Whether a word ends a sentence (`.`, `!`, `?`, `…`, possibly followed by a quote). */
export function endsSentence(word: string): boolean {
  return SENTENCE_END.test(word)
}

/** Whether a word ends a phrase inside a sentence (`,`, `;`, `:`, or a dash). */
export function endsPhrase(word: string): boolean {
  return PHRASE_END.test(word) || DASHES.test(word)
}

/**
 * Words before which a sentence reads well split in two (English coordinating and common
 * subordinating conjunctions and relative pronouns).
 */
const CONJUNCTIONS = new Set([
  'and',
  'but',
  'or',
  'nor',
  'so',
  'yet',
  'because',
  'although',
  'though',
  'while',
  'whereas',
  'when',
  'whenever',
  'where',
  'which',
  'who',
  'whose',
  'that',
  'if',
  'unless',
  'until',
  'since',
  'after',
  'before',
  'then',
  'than',
  'as',
  'once',
])

/** Whether a sentence may be split just before this word (a conjunction). */
export function startsClause(word: string): boolean {
  return CONJUNCTIONS.has(
    word
      .toLowerCase()
      .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
      .trim(),
  )
}
