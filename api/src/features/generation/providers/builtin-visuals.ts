import { cutAtWord } from './builtin-topic.ts'
import type { SeededRandom } from './seeded-random.ts'

/**
 * A scene's visuals in the offline drafts (issue 14 item 10): a shot described the way a
 * storyboard does (framing, subject, setting, light), drawn from the scene's narration
 * instead of a list of its keywords. A concrete sentence ("Bees gather nectar from
 * flowers.") is filmed as it is said; an abstract one ("At its core, it comes down to a few
 * ideas.") becomes the presenter explaining it in front of a screen with the video's title.
 */

/** Where a scene sits in the video, and what the script is about. */
export interface ShotContext {
  index: number
  count: number
  /** The scene repeats the previous one's text (a script shorter than the scenes). */
  continued: boolean
  /** The script's title, when it has one ("How Honeybees Make Honey"). */
  title: string | null
  /** Where the whole script suggests filming (`settingFor` of it), when it suggests a place. */
  setting: string | null
}

const MIDDLE_FRAMINGS = [
  'Medium shot',
  'Close-up',
  'Tracking shot',
  'Over-the-shoulder shot',
  'Slow push-in',
  'Detail shot',
]
/** Framings for the presenter (a detail or tracking shot of a person explaining reads oddly). */
const PRESENTER_FRAMINGS = ['Medium shot', 'Medium close-up', 'Slow push-in', 'Close-up']
const ANGLES = ['at eye level', 'from a low angle', 'from slightly above', 'handheld']
const LIGHTS = [
  'soft natural light',
  'warm afternoon light',
  'bright, even light',
  'gentle side light',
]
/** The most words of narration a shot description quotes. */
const ACTION_MAX_WORDS = 16
/** The longest title a presenter shot's screen shows. */
const TITLE_MAX_CHARS = 60

/** A sentence opening with one of these is not something a camera can film directly. */
const ABSTRACT_OPENERS = new Set([
  'it',
  'this',
  'that',
  'these',
  'those',
  'they',
  'we',
  'you',
  'i',
  'there',
  'here',
  'our',
  'your',
  'what',
  'which',
  'once',
  'if',
  'when',
  'before',
  'after',
  'do',
  'now',
  'nothing',
  'everything',
  'something',
  'many',
  'most',
  'some',
  'stories',
  'thank',
  'thanks',
  "that's",
  "it's",
  "let's",
  "we'll",
  "you'll",
])
/** Openers that start a statement, so "they explain that ..." reads right. */
const STATEMENT_OPENERS = new Set(['it', 'this', 'these', 'those', 'they', 'we', 'there'])

/** Settings suggested by words in the narration or the title, first match wins. */
const SETTINGS: [RegExp, string][] = [
  [/\b(bees?|honey|hives?|flowers?|nectar|pollen|gardens?|meadows?)\b/i, 'in a flowering garden'],
  [/\b(ocean|seas?|rivers?|lakes?|water|rain|clouds?|waves?|coast)\b/i, 'by open water'],
  [
    /\b(space|stars?|planets?|orbits?|moon|galax\w*|rockets?)\b/i,
    'against a night sky full of stars',
  ],
  [/\b(forests?|trees?|plants?|leaves|soil|compost\w*)\b/i, 'in a green woodland'],
  [/\b(kitchen|cook\w*|bak\w*|bread|food|recipes?|meals?)\b/i, 'in a home kitchen'],
  [
    /\b(computers?|software|code|data|internet|apps?|screens?|digital)\b/i,
    'at a desk lit by screens',
  ],
  [/\b(city|cities|streets?|traffic|buildings?|urban)\b/i, 'on a busy city street'],
  [/\b(money|markets?|prices?|costs?|budget\w*|shops?)\b/i, 'in a lively marketplace'],
  [/\b(factory|machines?|engines?|tools?|workshop)\b/i, 'in a workshop'],
  [/\b(school|students?|class\w*|teachers?|learn\w*)\b/i, 'in a classroom'],
  [/\b(health|body|doctors?|hospital|medicine)\b/i, 'in a calm clinic'],
]

/** The shot for one scene; `random` varies framing, angle and light between drafts. */
export function describeShot(
  narration: string,
  context: ShotContext,
  random: SeededRandom,
): string {
  const action = mainClause(narration)
  const opener = (action.split(' ')[0] ?? '').toLowerCase()
  const presenter = action === '' || ABSTRACT_OPENERS.has(opener) || action.split(' ').length < 3
  const framing =
    context.index === 0
      ? 'Wide establishing shot'
      : context.index === context.count - 1 && context.count > 1
        ? 'Closing wide shot'
        : random.pick(presenter ? PRESENTER_FRAMINGS : MIDDLE_FRAMINGS)
  const lead = context.continued ? `${framing}, continuing the previous moment,` : framing
  const angle = random.pick(ANGLES)
  const light = random.pick(LIGHTS)
  const setting = settingFor(narration) ?? context.setting
  const end = action.endsWith('…') ? '' : '.'
  if (presenter) {
    const screen = context.title
      ? `a screen behind them showing the title "${cutAtWord(context.title, TITLE_MAX_CHARS)}"`
      : 'a simple illustration on a screen behind them'
    const says =
      action === '' ? '' : STATEMENT_OPENERS.has(opener) ? ` that ${action}` : `: ${action}`
    return `${lead} of the presenter ${setting ?? 'in a bright studio'}, ${screen}, filmed ${angle} in ${light}; they explain${says}${says === '' ? '.' : end}`
  }
  return `${lead} ${angle}, ${setting ?? 'in a setting that fits the story'}, in ${light}: ${action}${end}`
}

/**
 * The first sentence of the narration as a clause to film: a short lead-in before a comma
 * ("At its core,", "In reality,") dropped, closing punctuation dropped, at most
 * ACTION_MAX_WORDS words, the first word lower-cased when it is a common word (never a
 * name or "I").
 */
export function mainClause(narration: string): string {
  const first = narration.trim().split(/(?<=[.!?…])\s+/)[0] ?? ''
  let clause = first.replace(/[.!?…"”]+$/, '').trim()
  const lead = /^([^,;:]{1,40}),\s+(.+)$/.exec(clause)
  if (lead && lead[1]!.split(' ').length <= 4) clause = lead[2]!
  const words = clause.split(' ').filter(Boolean)
  if (words.length > ACTION_MAX_WORDS) {
    clause = words
      .slice(0, ACTION_MAX_WORDS)
      .join(' ')
      .replace(/[,;:]$/, '')
    clause = `${clause}…`
  }
  const head = (clause.split(' ')[0] ?? '').toLowerCase()
  return COMMON_OPENERS.has(head) ? clause.charAt(0).toLowerCase() + clause.slice(1) : clause
}

/** First words that are never names, so they are lower-cased inside a description. */
const COMMON_OPENERS = new Set([
  ...[...ABSTRACT_OPENERS].filter((word) => word !== 'i'),
  'the',
  'a',
  'an',
  'each',
  'every',
  'first',
  'then',
  'finally',
  'still',
  'and',
  'but',
  'so',
])

/** Where `text` suggests filming ("in a flowering garden"), or null. */
export function settingFor(text: string): string | null {
  for (const [pattern, setting] of SETTINGS) if (pattern.test(text)) return setting
  return null
}
