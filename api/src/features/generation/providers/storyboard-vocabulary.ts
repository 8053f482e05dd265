import { cutAtWord } from './builtin-topic.ts'
import { isStopWord, singularForms, type TextWord, wordsOf } from './english-words.ts'
import { type EmojiIcon, keywordIndex } from './storyboard-keywords.ts'

/**
 * How the builtin image provider reads a shot (issue 20 item 4): the framing (wide, medium,
 * close-up, detail), the light (time of day and warm or cold), the nouns that pick the
 * illustrations, and the scene's title. The words are those `describeShot` writes and those
 * people type into an image prompt; what is not recognised falls back to a medium shot in
 * daylight with a neutral subject.
 *
 * The illustrations come from the whole Fluent Emoji set (issue 42 item 6): a word picks the
 * icon its name or its keywords name (`storyboard-keywords.ts`); the table below adds words
 * the keywords lack ("presenter" is a teacher, "city" its buildings) and says how its
 * illustrations are placed (role, scale, by the sea), which icons outside it get from their
 * keywords (`traitsOf`).
 */

/** The shot's framing, which decides the scale and placement of the illustrations. */
export type Framing = 'wide' | 'medium' | 'close-up' | 'detail'
/** The time of day the light words name, which picks the sky. */
export type TimeOfDay = 'day' | 'dawn' | 'sunset' | 'night'
/** Warm or cold light words tint the palette. */
export type Temperature = 'neutral' | 'warm' | 'cold'

/**
 * Where an illustration goes: `subject` stands in the foreground, `afloat` sits on the water
 * (and makes the ground water), `scenery` stands on the horizon behind the subjects, `sky`
 * floats above it.
 */
export type Role = 'subject' | 'afloat' | 'scenery' | 'sky'

/** One entry of the vocabulary: the words for a thing, and how it is drawn. */
export interface Noun {
  /** Whole words, as a regular-expression alternation ("ships?|vessels?"), case-insensitive. */
  words: string
  role: Role
  /** Illustrations (names in the storyboard art); the seed picks one. */
  art: readonly string[]
  /** Used instead of `art` in a close-up or detail: a face rather than a whole figure. */
  closeArt?: readonly string[]
  /** Size relative to the others of its role: tall things are drawn taller. Default 1. */
  scale?: number
  /** Never mirrored (it carries writing, a map or a clock face). */
  fixed?: boolean
  /** It belongs by the sea: the ground becomes water. */
  sea?: boolean
  /** It gives light: drawn above the night's shade, not dimmed by it. */
  glows?: boolean
}

function noun(role: Role, words: string, art: readonly string[], more: Partial<Noun> = {}): Noun {
  return { role, words, art, ...more }
}

/**
 * The vocabulary, most specific first: a match claims its words, so "ship's wheel" is the
 * wheel, not a ship. Its words are tried after the icons' whole names and before their other
 * names and keywords; an icon it lists keeps its role, scale and the rest wherever it is
 * picked. Every art name must exist in the storyboard art (a test checks).
 */
// prettier-ignore
export const NOUNS: readonly Noun[] = [
  //   role     words (whole words, any case)   illustrations (the seed picks one)   more
  noun('subject', "ship'?s wheels?|ship wheels?|helms?|steering wheels?", ['ships-wheel'], { sea: true }),
  noun('subject', 'lighthouses?|beacons?', ['lighthouse'], { scale: 1.35, sea: true }),
  noun('afloat',  'sailboats?|sailing boats?|yachts?|sails?', ['sailboat']),
  noun('afloat',  'ships?|vessels?|freighters?|liners?|steamers?|cargo', ['ship', 'passenger-ship']),
  noun('afloat',  'boats?|ferry|ferries|harbou?rs?|ports?', ['motor-boat', 'ferry']),
  noun('afloat',  'canoes?|kayaks?|rowing', ['canoe']),
  noun('afloat',  'whales?', ['spouting-whale']),
  noun('afloat',  'dolphins?', ['dolphin']),
  noun('afloat',  'fish|fishes|fishing', ['tropical-fish', 'fish']),
  noun('subject', 'presenters?|hosts?|narrators?|speakers?|teachers?|lecturers?|presentation', ['teacher'], { scale: 1.1 }),
  noun('subject', 'scientists?|researchers?|laborator(?:y|ies)|labs?|experiments?', ['scientist']),
  noun('subject', 'doctors?|nurses?|clinics?|patients?|health|medicine', ['health-worker']),
  noun('subject', 'cooks?|chefs?|bakers?|cooking|kitchens?|recipes?', ['cook']),
  noun('subject', 'farmers?|farms?|harvest\\w*|crops?', ['farmer']),
  noun('subject', 'students?|pupils?|classrooms?|lessons?', ['student']),
  noun('subject', 'child|children|kids?', ['child']),
  noun('subject', 'keepers?|sailors?|captains?|crew|person|people|man|men|woman|women|someone|visitors?|workers?|crowds?|hands?|faces?|portrait', ['person-standing', 'person-walking'], { closeArt: ['person'] }),
  noun('subject', 'bees?|honeybees?|hives?|nectar|pollen', ['honeybee']),
  noun('subject', 'butterfl(?:y|ies)', ['butterfly']),
  noun('subject', 'dogs?|pupp(?:y|ies)', ['dog']),
  noun('subject', 'cats?|kittens?', ['cat']),
  noun('subject', 'horses?', ['horse']),
  noun('subject', 'cows?|cattle', ['cow']),
  noun('subject', 'flowers?|gardens?|meadows?|blossoms?|petals?', ['sunflower', 'tulip', 'blossom']),
  noun('subject', 'seeds?|seedlings?|sprouts?|plants?', ['seedling']),
  noun('subject', 'computers?|screens?|desks?|software|code|coding|digital|internet|apps?|data', ['desktop-computer', 'laptop']),
  noun('subject', 'phones?|smartphones?', ['mobile-phone'], { fixed: true }),
  noun('subject', 'charts?|graphs?|statistics|growth|econom\\w*', ['bar-chart', 'chart-increasing'], { fixed: true }),
  noun('subject', 'money|coins?|prices?|costs?|budgets?|savings?', ['coin', 'money-bag']),
  noun('subject', 'books?|library|libraries|reading|stories|story', ['books', 'open-book']),
  noun('subject', 'ideas?|inventions?|electricity|lamps?|light ?bulbs?', ['light-bulb']),
  noun('subject', 'globe|world|earth|countries|travel\\w*', ['globe-showing-europe-africa'], { fixed: true }),
  noun('subject', 'maps?|routes?|navigation|navigat\\w*', ['world-map', 'compass'], { fixed: true }),
  noun('subject', 'compass\\w*', ['compass'], { fixed: true }),
  noun('subject', 'anchors?', ['anchor'], { sea: true }),
  noun('subject', 'clocks?|hourglass\\w*|deadlines?', ['mantelpiece-clock', 'hourglass-done'], { fixed: true }),
  noun('subject', 'histor(?:y|ies|ical)|ancient|archives?|scrolls?', ['scroll']),
  noun('subject', 'music|jazz|songs?|bands?|musicians?|saxophones?', ['saxophone', 'musical-notes']),
  noun('subject', 'guitars?', ['guitar']),
  noun('subject', 'pianos?|keyboards?', ['musical-keyboard']),
  noun('subject', 'trumpets?', ['trumpet']),
  noun('subject', 'cameras?|films?|movies?|cinema|videos?', ['movie-camera', 'clapper-board']),
  noun('subject', 'robots?|machines?|engines?|gears?|mechanis\\w*', ['robot', 'gear']),
  noun('subject', 'tools?|workshops?|repairs?', ['hammer-and-wrench']),
  noun('subject', 'dna|genes?|genetic\\w*|cells?|microscopes?', ['dna', 'microscope']),
  noun('subject', 'telescopes?|astronom\\w*', ['telescope']),
  noun('subject', 'rockets?|launch\\w*|spaceships?', ['rocket']),
  noun('subject', 'cars?|traffic|roads?|driv\\w*', ['automobile']),
  noun('subject', 'trains?|railways?|locomotives?', ['locomotive']),
  noun('subject', 'bikes?|bicycles?|cycling', ['bicycle']),
  noun('subject', 'bread|food|meals?|baking|bakery', ['bread']),
  noun('subject', 'fires?|campfires?|flames?|burn\\w*', ['fire']),
  noun('subject', 'tents?|camp\\w*', ['tent']),
  noun('scenery', 'castles?|kingdoms?|medieval', ['castle'], { scale: 1.2 }),
  noun('scenery', 'cit(?:y|ies)|streets?|downtown|skylines?|buildings?|urban|offices?|towns?', ['office-building', 'classical-building', 'department-store'], { scale: 1.3 }),
  noun('scenery', 'markets?|marketplaces?|shops?|stores?', ['convenience-store'], { fixed: true }),
  noun('scenery', 'schools?|universit(?:y|ies)|campus', ['school']),
  noun('scenery', 'hospitals?', ['hospital']),
  noun('scenery', 'factor(?:y|ies)|industr\\w*', ['factory']),
  noun('scenery', 'houses?|homes?|villages?|neighbou?rhoods?', ['house', 'houses']),
  noun('scenery', 'huts?|cabins?', ['hut']),
  noun('scenery', 'churches?|temples?', ['church']),
  noun('scenery', 'islands?|tropical', ['desert-island', 'palm-tree']),
  noun('scenery', 'volcano(?:e?s)?', ['volcano'], { scale: 1.3 }),
  noun('scenery', 'mountains?|hills?|peaks?|valleys?|alps', ['mountain', 'snow-capped-mountain'], { scale: 1.4 }),
  noun('scenery', 'forests?|woods?|woodlands?|trees?|jungles?|leaves|soil|park|fields?|countryside', ['deciduous-tree', 'evergreen-tree'], { scale: 1.2 }),
  noun('scenery', 'rocks?|cliffs?|stones?|boulders?', ['rock']),
  noun('sky',     'moon|moonlight|moonlit', ['crescent-moon'], { glows: true }),
  noun('sky',     'sun|sunshine|sunny|solar', ['sun'], { glows: true }),
  noun('sky',     'stars?|galax\\w*|space|planets?|orbits?', ['ringed-planet', 'glowing-star'], { glows: true }),
  noun('sky',     'thunder\\w*|lightning|storms?|stormy', ['cloud-with-lightning-and-rain', 'cloud-with-lightning']),
  noun('sky',     'clouds?|cloudy|weather', ['cloud']),
  noun('sky',     'rain|rainy|showers?', ['cloud-with-rain']),
  noun('sky',     'snow\\w*|winter', ['snowflake']),
  noun('sky',     'rainbows?', ['rainbow']),
  noun('sky',     'birds?|gulls?|seagulls?|flocks?', ['bird']),
  noun('sky',     'planes?|airplanes?|aircraft|flights?|flying|airports?', ['airplane']),
]

/** Words that make the ground water: the subjects then stand on a shore or float. */
const WATER_WORDS =
  /\b(?:seas?|oceans?|waves?|water|lakes?|rivers?|bays?|coasts?|shores?|harbou?rs?|tides?|surf|open water)\b/i

/** What stands in when no word of the vocabulary appears: a small landscape. */
export const FALLBACK_NOUNS: readonly Noun[] = [
  { words: '', role: 'scenery', art: ['mountain'], scale: 1.4 },
  { words: '', role: 'subject', art: ['deciduous-tree', 'evergreen-tree'] },
]

/** Trees that fill out a wide landscape on land when the prompt names little scenery. */
export const FILLER_SCENERY: Noun = {
  words: '',
  role: 'scenery',
  art: ['deciduous-tree', 'evergreen-tree'],
  scale: 1.1,
}

/** The sky the light adds when the prompt names none: the moon at night, a cloud or the sun by day. */
export const LIGHT_SKY: Readonly<Record<TimeOfDay, Noun | null>> = {
  night: { words: '', role: 'sky', art: ['crescent-moon'], glows: true },
  day: { words: '', role: 'sky', art: ['cloud', 'sun'] },
  dawn: null,
  sunset: null,
}

/** A wave, the subject of a close-up or detail of the sea when nothing else is named. */
export const WAVE_NOUN: Noun = { words: '', role: 'subject', art: ['water-wave'] }

/** Framing words; the one said first wins ("Wide shot ... the camera pushes in" is wide). */
const FRAMINGS: readonly [RegExp, Framing][] = [
  [/\b(?:extreme close-?ups?|detail(?:ed)? shots?|details? of|macro|insert shots?)\b/i, 'detail'],
  [
    /\b(?:medium close-?ups?|close-?ups?|closeups?|close shots?|portrait shots?|head shots?)\b/i,
    'close-up',
  ],
  [
    /\b(?:wide|establishing|aerial|panoram\w*|long shots?|landscape shots?|drone|bird'?s-eye)\b/i,
    'wide',
  ],
  [
    /\b(?:medium|mid shots?|tracking shots?|over-the-shoulder|push-in|two-shots?|cowboy shots?)\b/i,
    'medium',
  ],
]

/** Time-of-day words, in priority order: a night scene stays night whatever else is said. */
const TIMES: readonly [RegExp, TimeOfDay][] = [
  [/\b(?:night\w*|midnight|moonlit|moonlight|starlit|starry|nocturnal|after dark)\b/i, 'night'],
  [/\b(?:sunsets?|dusk|twilight|golden hour|evening|sundown)\b/i, 'sunset'],
  [/\b(?:dawn|sunrise|daybreak|first light|early morning)\b/i, 'dawn'],
]

/** Colour-temperature words; the one said first wins. */
const TEMPERATURES: readonly [RegExp, Temperature][] = [
  [
    /\b(?:warm\w*|golden|candle\w*|firelight|amber|cosy|cozy|afternoon|glowing|lamplight)\b/i,
    'warm',
  ],
  [
    /\b(?:cold|cool|chilly|icy|ice|frost\w*|winter\w*|snow\w*|overcast|grey|gray|fog\w*|mist\w*|blue light)\b/i,
    'cold',
  ],
]

/** The longest title, in characters: a title reads at a glance, the narration says the rest. */
export const TITLE_MAX_CHARS = 42

/** A noun found in the prompt, with where it was said. */
export interface NounMatch {
  noun: Noun
  /** Character offset of the first mention. */
  at: number
  /** The words of the first mention, as written ("honeybees", "kitchen knives"). */
  said: string
}

/** What the builtin image provider draws for a prompt. */
export interface ShotReading {
  framing: Framing
  time: TimeOfDay
  temperature: Temperature
  /** Whether the ground is water: the prompt names the sea, or something afloat or by it. */
  water: boolean
  /** The recognised nouns in the order they were first said, each once. */
  nouns: NounMatch[]
  /** The scene's title (one short line), or null for an empty prompt. */
  title: string | null
}

function firstMatch<T>(
  text: string,
  table: readonly [RegExp, T][],
): { value: T; at: number } | null {
  let best: { value: T; at: number } | null = null
  for (const [pattern, value] of table) {
    const found = pattern.exec(text)
    if (found && (best === null || found.index < best.at)) best = { value, at: found.index }
  }
  return best
}

/**
 * Words that say how a shot is filmed, never what is in it: they pick the framing and the
 * light, and draw nothing ("soft" is no soft-ice-cream, "eye level" no eye). Shot
 * descriptions (`describeShot`) use only these and the things they show.
 */
export const SHOT_WORDS: ReadonlySet<string> = new Set(
  `shot shots wide establishing closing opening medium close-up close-ups closeup tracking
  over-the-shoulder push-in pull-out detail extreme slow handheld angle angles eye level
  slightly above below eye-level aerial panorama panoramic drone static sweeping
  light lighting lit soft natural afternoon bright even gentle side backlit
  continuing previous moment camera filmed framing framed frame view scene background
  foreground cinematic focus lens composition style mood atmosphere`
    .split(/\s+/)
    .filter(Boolean),
)

/** Phrases of a shot description that name no thing: "at eye level", "the camera". */
const SHOT_PHRASES = /\b(?:at eye level|eye-level|the camera|bird'?s-eye)\b/gi

/** `text` with every match of `patterns` replaced by spaces, so offsets stay where they were. */
function blank(text: string, patterns: readonly RegExp[]): string {
  let out = text
  for (const pattern of patterns) {
    const global = new RegExp(
      pattern.source,
      pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
    )
    out = out.replace(global, (found) => ' '.repeat(found.length))
  }
  return out
}

/** Whether nothing but spaces or hyphens stands between the words of `run` in `text`. */
function adjacent(text: string, run: readonly TextWord[]): boolean {
  for (let j = 1; j < run.length; j++) {
    const before = run[j - 1]!
    if (!/^[\s-]*$/.test(text.slice(before.at + before.raw.length, run[j]!.at))) return false
  }
  return true
}

/** Longest run of words tried as one icon name ("hot air balloon" -> hot-air-balloon). */
const MAX_NAME_WORDS = 4

/** Name words of icons that stand in the sky. */
const SKY_WORDS = new Set([
  'cloud',
  'sun',
  'moon',
  'star',
  'comet',
  'rainbow',
  'snowflake',
  'tornado',
  'cyclone',
  'fog',
  'lightning',
  'voltage',
  'planet',
  'wind',
  'kite',
  'helicopter',
  'parachute',
  'balloon',
  'saucer',
  'satellite',
])
/** Name words of icons that give light. */
const GLOWING_WORDS = new Set([
  'sun',
  'star',
  'moon',
  'comet',
  'fire',
  'candle',
  'bulb',
  'lantern',
  'lightning',
  'voltage',
])
/** Name words of icons that carry writing, a map or a face of numbers: never mirrored. */
const FIXED_WORDS = new Set([
  'clock',
  'chart',
  'map',
  'calendar',
  'newspaper',
  'scroll',
  'page',
  'card',
  'ticket',
  'receipt',
  'label',
  'globe',
  'book',
])

/**
 * How an icon the vocabulary does not list is drawn, from its name and keywords: weather and
 * things of the sky up there; places and buildings on the horizon; boats and sea creatures
 * on the water; everything else in front.
 */
export function traitsOf(icon: EmojiIcon): Omit<Noun, 'words' | 'art'> {
  const words = icon.name.split('-')
  const keywords = new Set(icon.keywords)
  const place = icon.category === 'Travel & Places'
  const animal = icon.category === 'Animals & Nature'
  const sea = keywords.has('sea') || keywords.has('ocean')
  let role: Role = 'subject'
  if (words.some((word) => SKY_WORDS.has(word)) && icon.category !== 'Smileys & Emotion')
    role = 'sky'
  else if (
    place &&
    (keywords.has('photo') || keywords.has('building') || keywords.has('buildings'))
  )
    role = 'scenery'
  else if ((place && (keywords.has('boat') || keywords.has('ship'))) || (animal && sea))
    role = 'afloat'
  return {
    role,
    ...(role === 'scenery' ? { scale: 1.2 } : {}),
    ...(sea && role !== 'afloat' ? { sea: true } : {}),
    ...(words.some((word) => FIXED_WORDS.has(word)) ? { fixed: true } : {}),
    ...(words.some((word) => GLOWING_WORDS.has(word)) ? { glows: true } : {}),
  }
}

/**
 * The noun that draws `names` (icons the index picked for `word`): the vocabulary's entry
 * that lists the first one, with its placement (and its whole entry when the icon is the
 * entry's close-up, "person"), else the icon's own traits.
 */
function nounForIcons(names: string[], word: string): Noun {
  const first = names[0]!
  const listed = NOUNS.find((noun) => noun.art.includes(first) || noun.closeArt?.includes(first))
  if (listed) return listed.art.includes(first) ? { ...listed, art: names } : listed
  const icon = keywordIndex().icons.get(first)
  return { words: word, art: names, ...(icon ? traitsOf(icon) : { role: 'subject' }) }
}

const compiled = new Map<Noun, RegExp>()
function nounPattern(noun: Noun): RegExp {
  let pattern = compiled.get(noun)
  if (!pattern) {
    pattern = new RegExp(`\\b(?:${noun.words})\\b`, 'gi')
    compiled.set(noun, pattern)
  }
  return pattern
}

/**
 * The things `text` names, in the order they are first said, each once, from the whole
 * Fluent Emoji set (issue 42 item 6). The words that say how the shot is filmed, its time of
 * day and the sea (which the background draws) are left out; then, each match claiming its
 * words so a later one cannot match inside it:
 *
 * 1. runs of words that are an icon's whole name, longest first ("kitchen knives",
 *    "soccer ball", "honeybees", "ship's wheel");
 * 2. the vocabulary's words, most specific first ("presenter", "city", "flowers");
 * 3. any other word, by the keyword index: a word of an icon's name, then a keyword.
 */
export function findNouns(text: string): NounMatch[] {
  const index = keywordIndex()
  const free = blank(text, [SHOT_PHRASES, ...TIMES.map(([pattern]) => pattern)])
  const claimed: [number, number][] = []
  // Each illustration once: in the place of its first mention, in the words of its best
  // (first found) one ("a medieval castle" is said "castle").
  const found = new Map<string, NounMatch>()
  const isClaimed = (start: number, end: number) => claimed.some(([a, b]) => start < b && end > a)
  const add = (noun: Noun, start: number, end: number) => {
    claimed.push([start, end])
    const key = noun.art[0]!
    const earlier = found.get(key)
    if (earlier) earlier.at = Math.min(earlier.at, start)
    else found.set(key, { noun, at: start, said: text.slice(start, end) })
  }
  const words = wordsOf(free).filter(({ word }) => !SHOT_WORDS.has(word))

  // 1. Whole icon names, longest runs first.
  for (let length = MAX_NAME_WORDS; length >= 1; length--) {
    for (let i = 0; i + length <= words.length; i++) {
      const run = words.slice(i, i + length)
      const start = run[0]!.at
      const last = run[length - 1]!
      const end = last.at + last.raw.length
      if (isClaimed(start, end)) continue
      if (!adjacent(free, run)) continue
      if (length === 1 && isStopWord(last.word)) continue
      const head = run.slice(0, -1).map((w) => w.word)
      const name = singularForms(last.word)
        .map((form) => index.iconNamed([...head, form].join('-')))
        .find((hit) => hit !== null)
      if (name) add(nounForIcons([name], last.word), start, end)
    }
  }

  // 2. The vocabulary's words.
  for (const noun of NOUNS) {
    for (const match of free.matchAll(nounPattern(noun))) {
      const start = match.index
      const end = start + match[0].length
      if (isClaimed(start, end)) continue
      add(noun, start, end)
    }
  }

  // 3. Every other word, by its names and keywords; the sea is drawn by the ground instead.
  for (const { word, raw, at } of words) {
    const end = at + raw.length
    if (isClaimed(at, end) || WATER_WORDS.test(raw)) continue
    const match = index.lookup(word)
    if (match) add(nounForIcons(match.names, word), at, end)
  }
  return [...found.values()].sort((a, b) => a.at - b.at)
}

/** Camera words a title leaves out ("Close-up of", "Wide shot:"): they describe the shot, not the scene. */
const CAMERA_LEAD =
  /^(?:(?:a|an|the)\s+)?(?:(?:slow|closing|opening|static|handheld|sweeping|extreme|wide)\s+)*(?:establishing|medium close-?up|medium|close-?up|closeup|detail|tracking|aerial|over-the-shoulder|push-in|long|insert|wide)(?:\s+(?:shot|view))?(?:\s+of\b|\s*[:,])?\s*/i

/** A first clause shorter than this many words is not a title on its own ("At night,"). */
const TITLE_MIN_CLAUSE_WORDS = 3

/**
 * The scene's title: a title the prompt quotes ("a screen showing the title "…""), else the
 * action after the shot's description (what follows its last colon), else the prompt's first
 * clause without the camera words; one line of at most {@link TITLE_MAX_CHARS} characters,
 * cut at a word.
 */
export function sceneTitle(prompt: string): string | null {
  const text = prompt.replace(/\s+/g, ' ').trim()
  const quoted = /["“]([^"”]{2,80})["”]/.exec(text)
  let title: string
  if (quoted) {
    title = quoted[1]!
  } else {
    const colon = text.lastIndexOf(': ')
    const action = colon > 0 && colon < text.length - 3 ? text.slice(colon + 2) : text
    const sentence = action.replace(CAMERA_LEAD, '').split(/(?<=[.!?])\s|;\s/)[0] || action
    const clause = sentence.split(', ')[0]!
    title = clause.split(' ').length >= TITLE_MIN_CLAUSE_WORDS ? clause : sentence
  }
  title = title.replace(/[.!?;:,…]+$/, '').trim()
  if (title === '') return null
  return cutAtWord(title.charAt(0).toUpperCase() + title.slice(1), TITLE_MAX_CHARS)
}

/** Reads framing, light, nouns and title from a prompt (the scene's visual instructions). */
export function readShot(prompt: string): ShotReading {
  const nouns = findNouns(prompt)
  return {
    framing: firstMatch(prompt, FRAMINGS)?.value ?? 'medium',
    time: TIMES.find(([pattern]) => pattern.test(prompt))?.[1] ?? 'day',
    temperature: firstMatch(prompt, TEMPERATURES)?.value ?? 'neutral',
    water:
      WATER_WORDS.test(prompt) ||
      nouns.some(({ noun }) => noun.sea === true || noun.role === 'afloat'),
    nouns,
    title: sceneTitle(prompt),
  }
}
