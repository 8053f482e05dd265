import { findNouns } from './storyboard-vocabulary.ts'
import type { SeededRandom } from './seeded-random.ts'

/**
 * A scene's visuals in the offline drafts (issue 14 item 10, issue 42 item 6): a shot
 * described the way a storyboard does (framing, angle, light, what it shows), in the words
 * of the topic and of the script, never in the words of the writer's own templates. A
 * concrete sentence someone wrote ("Bees gather nectar from flowers.") is filmed as it is
 * said; an abstract one, or a scene made only of the builtin writer's lines ("At its core, it
 * comes down to a few ideas."), films the things the topic names ("honeybees and honey")
 * under the video's title. Besides those words a shot says only framing, angle and light
 * (`storyboard-vocabulary.ts` SHOT_WORDS), so the storyboard draws the topic's things.
 */

/** Where a scene sits in the video, and what the script is about. */
export interface ShotContext {
  index: number
  count: number
  /** The scene repeats the previous one's text (a script shorter than the scenes). */
  continued: boolean
  /**
   * The video's title as a line of the shot, lower case but for names ("how honeybees make
   * honey"; `titleLine`), or null when the script has none.
   */
  title: string | null
  /**
   * The things the topic and the script name, as they word them, in order ("honeybees",
   * "honey"; `thingsNamed`): a shot without an action of its own shows them.
   */
  things: readonly string[]
}

const MIDDLE_FRAMINGS = [
  'Medium shot',
  'Close-up',
  'Tracking shot',
  'Over-the-shoulder shot',
  'Slow push-in',
  'Detail shot',
]
/** Framings for a shot of the topic's things (over the shoulder of nobody reads oddly). */
const THING_FRAMINGS = ['Medium shot', 'Close-up', 'Slow push-in', 'Detail shot', 'Tracking shot']
const ANGLES = ['at eye level', 'from a low angle', 'from slightly above', 'handheld']
const LIGHTS = [
  'soft natural light',
  'warm afternoon light',
  'bright, even light',
  'gentle side light',
]
/** The most words of narration a shot description quotes. */
const ACTION_MAX_WORDS = 16
/** The most things one shot names: a storyboard frame draws at most three subjects. */
const THINGS_PER_SHOT = 3

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
/**
 * The shot for one scene. `narration` is what the scene says that the writer's templates did
 * not (all of it for a script someone wrote; '' for a scene of the builtin writer's own
 * lines); `random` varies framing, angle and light between drafts.
 */
export function describeShot(
  narration: string,
  context: ShotContext,
  random: SeededRandom,
): string {
  const action = mainClause(narration)
  const opener = (action.split(' ')[0] ?? '').toLowerCase()
  const abstract = action === '' || ABSTRACT_OPENERS.has(opener) || action.split(' ').length < 3
  const framing =
    context.index === 0
      ? 'Wide establishing shot'
      : context.index === context.count - 1 && context.count > 1
        ? 'Closing wide shot'
        : random.pick(abstract ? THING_FRAMINGS : MIDDLE_FRAMINGS)
  const lead = context.continued ? `${framing}, continuing the previous moment,` : framing
  const angle = random.pick(ANGLES)
  const light = random.pick(LIGHTS)
  const end = action.endsWith('…') ? '' : '.'
  if (!abstract) return `${lead} ${angle}, in ${light}: ${action}${end}`
  const things = thingsFor(context)
  const shot =
    things === ''
      ? `${lead} ${angle}`
      : [
          `${framing} of ${things}`,
          ...(context.continued ? ['continuing the previous moment'] : []),
          angle,
        ].join(', ')
  const title = context.title
  if (action !== '') return `${shot}, in ${light}: ${action}${end}`
  if (title === null) return `${shot}, in ${light}.`
  return `${shot}, in ${light}: ${title}${/[?…]$/.test(title) ? '' : '.'}`
}

/** The things a shot shows: the topic's, starting from a different one in each scene. */
function thingsFor(context: ShotContext): string {
  const { things, index } = context
  if (things.length === 0) return ''
  const start = index % things.length
  const shown = [...things.slice(start), ...things.slice(0, start)].slice(0, THINGS_PER_SHOT)
  const named = shown.map((thing) => `the ${thing}`)
  if (named.length === 1) return named[0]!
  return `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]!}`
}

/**
 * The script's title as a line of a shot: words capitalised only by Title Case lower-cased
 * ("How Honeybees Make Honey" -> "how honeybees make honey"), names and acronyms as written
 * ("NASA", "iPhone"), closing punctuation but a question mark dropped.
 */
export function titleLine(title: string): string {
  return title
    .replace(/[.!:;,]+$/, '')
    .split(' ')
    .map((word) => (/^\p{Lu}[\p{Ll}'’-]*\??$/u.test(word) ? word.toLowerCase() : word))
    .join(' ')
}

/** The most things a script's shots name, across its scenes. */
const THINGS_MAX = 6

/**
 * The things `texts` name that the storyboard can draw (`findNouns`), each as the text words
 * it, in order, each once, at most {@link THINGS_MAX}: "how honeybees make honey" ->
 * honeybees, honey; "how to sharpen kitchen knives" -> kitchen knives. A word capitalised
 * only at the start of a sentence is lower-cased ("Bees gather ..." -> bees).
 */
export function thingsNamed(...texts: string[]): string[] {
  const things = texts.flatMap((text) =>
    findNouns(text).map(({ said }) => (/^\p{Lu}\p{Ll}+$/u.test(said) ? said.toLowerCase() : said)),
  )
  return [...new Set(things)].slice(0, THINGS_MAX)
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
