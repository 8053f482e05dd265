import {
  type GenerateScriptInput,
  SCRIPT_FORMATS,
  SCRIPT_STYLES,
  SCRIPT_TONES,
  TARGET_SECONDS_MAX,
  TARGET_SECONDS_MIN,
} from '@reelgraph/shared'
import { wordsOf } from './english-words.ts'

/**
 * The builtin writer's own words (issue 42 item 6): every word its templates can put in a
 * draft: the words of its wording tables, and of a few drafts of a placeholder topic, short
 * and long, for the lines written out in its code ("and by the end you will see it in a new
 * light"), so a template added or reworded later is read too; a test checks 3,000 other
 * drafts. A sentence made only of these and of the topic's words is the writer's own line
 * ("They shape decisions, costs and everyday habits."): a shot never films its words, which
 * the topic did not bring (a lighthouse explainer is not set "in a lively marketplace"
 * because the template says "costs").
 */

/** The builtin writer: a draft for a topic, format, style, tone, length and seed. */
export type Drafter = (input: GenerateScriptInput & { seed?: number | undefined }) => string

/** A word no template uses, as the topic of the sample drafts. */
const PLACEHOLDER = 'zqxjvw'
/** The placeholder in each shape a topic is read as: a noun phrase, a clause, a question. */
const PLACEHOLDER_TOPICS = [PLACEHOLDER, `how ${PLACEHOLDER}`, `is ${PLACEHOLDER} ${PLACEHOLDER}?`]
/**
 * Lengths of the sample drafts, in seconds: the shortest uses the shorter wordings, the
 * longest every section of its format and the second pass over them.
 */
const SAMPLE_SECONDS = [TARGET_SECONDS_MIN, TARGET_SECONDS_MAX]

/** Every string in `value`: itself, or those in its array items or object values. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn)
  return []
}

/**
 * Every word (lower case, as `wordsOf` reads it) that `draft` writes around a topic: those of
 * `tables` (its wordings by style, tone and format, any nesting of arrays and records of
 * strings) and of one draft per format, topic shape and length (18 drafts).
 */
export function writerWords(draft: Drafter, tables: readonly unknown[]): Set<string> {
  const texts = stringsIn(tables)
  let seed = 0
  for (const format of SCRIPT_FORMATS) {
    for (const topic of PLACEHOLDER_TOPICS) {
      for (const targetSeconds of SAMPLE_SECONDS) {
        const style = SCRIPT_STYLES[seed % SCRIPT_STYLES.length]!
        const tone = SCRIPT_TONES[seed % SCRIPT_TONES.length]!
        texts.push(draft({ topic, format, style, tone, targetSeconds, seed: seed++ }))
      }
    }
  }
  const words = new Set<string>()
  for (const text of texts) for (const { word } of wordsOf(text)) words.add(word)
  words.delete(PLACEHOLDER)
  return words
}

/**
 * Whether a sentence is one of `draft`'s own lines (its wordings in `tables`), given the
 * topic (any text carrying its words, such as the script's title): every word of it is the
 * writer's or the topic's. The writer's words are read on the first call and kept.
 */
export function writersLines(
  draft: Drafter,
  tables: readonly unknown[],
): (sentence: string, topic: string) => boolean {
  let own: Set<string> | null = null
  return (sentence, topic) => {
    own ??= writerWords(draft, tables)
    const known = own
    const topicWords = new Set(wordsOf(topic).map(({ word }) => word))
    return wordsOf(sentence).every(({ word }) => known.has(word) || topicWords.has(word))
  }
}
