/**
 * The topic of an offline draft, read as English (issue 14 item 10): a title, and a phrase
 * that fits after "about" in a sentence, whatever shape the person typed it in:
 *
 * - a noun phrase ("Quantum computing", "the history of jazz"): used as typed, an article
 *   or determiner at its start lower-cased;
 * - an indirect question ("How honeybees make honey?", "How do bees make honey"): the
 *   clause "how honeybees make honey" (a "do"/"did" after the question word dropped), so
 *   "Have you ever wondered about how honeybees make honey?" reads right;
 * - a direct question ("Why is the sky blue?", "Can cats see in the dark?"): kept as the
 *   question, asked once, and afterwards called "this question".
 */

/** How the topic is used in the draft. */
export interface TopicPhrases {
  /** Title Case, without closing punctuation except a direct question's "?". */
  title: string
  /** The words after "about", "into", "explore": a noun phrase or an indirect question. */
  about: string
  /** A direct question, asked as it is ("Why is the sky blue?"); null for the other shapes. */
  question: string | null
  /** The shape the topic was read as. */
  kind: 'noun-phrase' | 'clause' | 'question'
}

/** The longest topic woven into sentences; longer topics are cut at a word. */
const TOPIC_MAX_CHARS = 80

const QUESTION_WORDS = new Set([
  'how',
  'why',
  'what',
  'when',
  'where',
  'who',
  'which',
  'whose',
  'whom',
])
const AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  'should',
  'shall',
  'may',
  'might',
  'must',
  'has',
  'have',
  'had',
])
/** Auxiliaries that an indirect question simply drops ("how do bees..." -> "how bees..."). */
const DROPPED_AUXILIARIES = new Set(['do', 'did'])
/** Words lower-cased at the start of a phrase used inside a sentence. */
const LEADING_FUNCTION_WORDS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'our',
  'your',
  'my',
  'its',
  'their',
  'some',
  'every',
  'all',
  'to',
  ...QUESTION_WORDS,
])
/** Words a title keeps in lower case unless first or last (Chicago style, short list). */
const TITLE_SMALL_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'nor',
  'of',
  'in',
  'on',
  'to',
  'for',
  'at',
  'by',
  'as',
  'from',
  'with',
  'vs',
])

/** The topic's title and sentence phrases. */
export function topicPhrases(topic: string): TopicPhrases {
  const clean = cutAtWord(
    topic
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.!?…:;,]+$/, ''),
    TOPIC_MAX_CHARS,
  )
  const words = clean.split(' ').filter(Boolean)
  if (words.length === 0) {
    return { title: 'This Topic', about: 'this topic', question: null, kind: 'noun-phrase' }
  }
  const first = words[0]!.toLowerCase()
  const second = words[1]?.toLowerCase()
  if (QUESTION_WORDS.has(first) && second !== undefined && AUXILIARIES.has(second)) {
    if (DROPPED_AUXILIARIES.has(second) && words.length > 3) {
      const clause = [first, ...words.slice(2)].join(' ')
      return { title: titleCase(clause), about: clause, question: null, kind: 'clause' }
    }
    return directQuestion(words)
  }
  if (QUESTION_WORDS.has(first) && words.length > 1) {
    const clause = [first, ...words.slice(1)].join(' ')
    return { title: titleCase(clause), about: clause, question: null, kind: 'clause' }
  }
  if (AUXILIARIES.has(first) && words.length > 2) return directQuestion(words)
  const about = LEADING_FUNCTION_WORDS.has(first) ? [first, ...words.slice(1)].join(' ') : clean
  return { title: titleCase(about), about, question: null, kind: 'noun-phrase' }
}

function directQuestion(words: string[]): TopicPhrases {
  const text = words.join(' ')
  const question = `${text.charAt(0).toUpperCase()}${text.slice(1)}?`
  return { title: `${titleCase(text)}?`, about: 'this question', question, kind: 'question' }
}

/**
 * Title Case: each word capitalised except short function words inside the title; words
 * with capitals of their own ("NASA", "iPhone") stay as typed.
 */
export function titleCase(text: string): string {
  const words = text.split(' ')
  return words
    .map((word, index) => {
      if (/\p{Lu}/u.test(word.slice(1)) || /^\p{Ll}+\p{Lu}/u.test(word)) return word
      const lower = word.toLowerCase()
      const inside = index > 0 && index < words.length - 1
      if (inside && TITLE_SMALL_WORDS.has(lower)) return lower
      return lower.replace(/^(\P{L}*)(\p{L})/u, (_, lead: string, letter: string) =>
        lead.concat(letter.toUpperCase()),
      )
    })
    .join(' ')
}

/** `text` cut to at most `max` characters at a word, with "…" when cut. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text
  const head = text.slice(0, max)
  const space = head.lastIndexOf(' ')
  return `${(space > max / 2 ? head.slice(0, space) : head).trim()}…`
}
