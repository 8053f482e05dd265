import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isStopWord, singularForms } from './english-words.ts'

/**
 * The keyword index of the offline storyboard (issue 42 item 6): from a word of a prompt to
 * the Fluent Emoji icons that draw it, over the whole installed set
 * (`@iconify-json/fluent-emoji-flat`, its `chars.json` and `metadata.json`), by the icons'
 * names and by their keywords from `emojilib` (MIT, Mu-An Chiou). Built once per process, on
 * first use, from about 0.5 MB of JSON.
 *
 * A word matches, best first: an icon's whole name ("honeybee", "tennis"); a word of a name
 * ("knife" in kitchen-knife, "soccer" in soccer-ball), the name's head noun before its other
 * words; a keyword ("bee" of honeybee, "marathon" of person-running), an early keyword before
 * a late one and a rare keyword before one that hundreds of icons share. A plural matches by
 * its singular (honeybees -> honeybee, foxes -> fox, knives -> knife).
 */

/** One icon the index can pick. */
export interface EmojiIcon {
  /** The icon's name in the set ("kitchen-knife"). */
  name: string
  /** Fluent Emoji's category ("Food & Drink"); our own illustrations say "Travel & Places". */
  category: string
  /** Its keywords, lower case, most telling first, without its name. */
  keywords: readonly string[]
}

/** How a word matched: the icon's whole name, a word of its name, or a keyword. */
export type MatchKind = 'name' | 'name-word' | 'keyword'

/** The icons that draw a word, best first (equally good ones, for the seed to pick among). */
export interface IconMatch {
  names: string[]
  kind: MatchKind
  /** Higher is better: 100 a whole name, 60-80 a word of a name, below 50 a keyword. */
  score: number
}

/** The index: the icons, and the lookups. */
export interface KeywordIndex {
  icons: ReadonlyMap<string, EmojiIcon>
  /** The icon whose whole name is `name` ("kitchen-knife", or an alias of our own art), or null. */
  iconNamed(name: string): string | null
  /** The icons for one word of a prompt (any case, plural or not); null for a stop word or none. */
  lookup(word: string): IconMatch | null
}

/**
 * Our own illustrations (`storyboard-art.ts`: Unicode has no lighthouse and no ship's wheel),
 * with their keywords and the other names they go by.
 */
export const OWN_ICONS: Readonly<Record<string, { keywords: string[]; aliases: string[] }>> = {
  lighthouse: { keywords: ['beacon', 'coast', 'lightkeeper'], aliases: [] },
  'ships-wheel': { keywords: ['helm', 'steering'], aliases: ['ship-wheel', 'steering-wheel'] },
}

/** Categories left out: signs, buttons, arrows, shapes and flags draw no scene. */
const LEFT_OUT_CATEGORIES = new Set(['Symbols', 'Flags'])
/** Clock faces (one per half hour) and skin-tone variants are left out too. */
const LEFT_OUT_NAMES = /-(?:oclock|thirty)$/
const SKIN_TONES = /^1f3f[b-f]$/
/** Words that join the parts of a name: "cloud-with-rain" has two head nouns, cloud and rain. */
const NAME_JOINERS = new Set([
  'with',
  'and',
  'of',
  'in',
  'on',
  'at',
  'behind',
  'over',
  'showing',
  'from',
  'for',
  'without',
  'under',
  'into',
])
/** Keywords that are not words ("🚓 cop", "8:00", "clock8"). */
const KEYWORD = /^[a-z][a-z'-]*[a-z]$/
/** Verb and adverb forms are matched by names only ("running" person-running), not keywords ("sweeping" broom). */
const NOT_A_KEYWORD_FORM = /(?:ing|ed|ly)$/
/** Shortest word looked up. */
const MIN_WORD_CHARS = 3

const SCORE_NAME = 100
const SCORE_HEAD_WORD = 80
const SCORE_NAME_WORD = 70
const SCORE_KEYWORD = 50
/** A longer name is a more particular thing: each extra word costs this much. */
const EXTRA_WORD_COST = 2
/** Keywords past this position of an icon's list all count as this far. */
const KEYWORD_POSITION_CAP = 12
/** Icons kept per match for the seed to pick among. */
const MAX_NAMES = 3
/**
 * Faces and hearts share keywords with things ("coffee" of brown-heart, "cat" of grinning-cat):
 * by keyword, they come after a thing.
 */
const FACE_CATEGORY = 'Smileys & Emotion'
const FACE_KEYWORD_COST = 8

interface NameWord {
  name: string
  head: boolean
  words: number
}

interface KeywordHit {
  name: string
  position: number
}

interface Tables {
  icons: Map<string, EmojiIcon>
  aliases: Map<string, string>
  nameWords: Map<string, NameWord[]>
  keywords: Map<string, KeywordHit[]>
}

const require = createRequire(import.meta.url)

function readJson<T>(specifier: string): T {
  return JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as T
}

/** The emoji for a `chars.json` key ("1f41d", "1f9d1-200d-1f3a8"), without variation selectors. */
function emojiOf(hexcodes: string): string {
  return String.fromCodePoint(...hexcodes.split('-').map((hex) => parseInt(hex, 16))).replace(
    /\uFE0F/g,
    '',
  )
}

function buildTables(): Tables {
  const chars = readJson<Record<string, string>>('@iconify-json/fluent-emoji-flat/chars.json')
  const metadata = readJson<{ categories: Record<string, string[]> }>(
    '@iconify-json/fluent-emoji-flat/metadata.json',
  )
  const emojilib = readJson<Record<string, string[]>>('emojilib')
  const keywordsByEmoji = new Map<string, string[]>()
  for (const [emoji, keywords] of Object.entries(emojilib)) {
    keywordsByEmoji.set(emoji.replace(/\uFE0F/g, ''), keywords)
  }
  const categoryOf = new Map<string, string>()
  for (const [category, names] of Object.entries(metadata.categories)) {
    for (const name of names) categoryOf.set(name, category)
  }

  const icons = new Map<string, EmojiIcon>()
  for (const [hexcodes, name] of Object.entries(chars)) {
    if (hexcodes.split('-').some((hex) => SKIN_TONES.test(hex))) continue
    const category = categoryOf.get(name) ?? 'Objects'
    if (LEFT_OUT_CATEGORIES.has(category) || LEFT_OUT_NAMES.test(name)) continue
    const own = name.replace(/-/g, '_')
    const keywords = (keywordsByEmoji.get(emojiOf(hexcodes)) ?? [])
      .map((keyword) => keyword.toLowerCase())
      .filter((keyword) => keyword !== own && KEYWORD.test(keyword))
    icons.set(name, { name, category, keywords: [...new Set(keywords)] })
  }
  const aliases = new Map<string, string>()
  for (const [name, own] of Object.entries(OWN_ICONS)) {
    icons.set(name, { name, category: 'Travel & Places', keywords: own.keywords })
    for (const alias of own.aliases) aliases.set(alias, name)
  }

  const nameWords = new Map<string, NameWord[]>()
  const keywords = new Map<string, KeywordHit[]>()
  const add = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key)
    if (list) list.push(value)
    else map.set(key, [value])
  }
  for (const icon of icons.values()) {
    const words = icon.name.split('-')
    words.forEach((word, i) => {
      if (NAME_JOINERS.has(word)) return
      const next = words[i + 1]
      const head = next === undefined || NAME_JOINERS.has(next)
      // A plural in a name ("skis", "books") is found by its singular too.
      const forms = new Set([word, singularForms(word)[0]!])
      for (const form of forms) add(nameWords, form, { name: icon.name, head, words: words.length })
    })
    icon.keywords.forEach((keyword, position) =>
      add(keywords, keyword, { name: icon.name, position }),
    )
  }
  return { icons, aliases, nameWords, keywords }
}

interface Scored {
  name: string
  score: number
  words: number
}

/** The best icons among `scored`: the top score, fewer name words first, then by name. */
function best(scored: Scored[], kind: MatchKind): IconMatch | null {
  if (scored.length === 0) return null
  scored.sort((a, b) => b.score - a.score || a.words - b.words || a.name.localeCompare(b.name))
  const top = scored[0]!
  const names = scored
    .filter((s) => s.score === top.score && s.words === top.words)
    .slice(0, MAX_NAMES)
    .map((s) => s.name)
  return { names: [...new Set(names)], kind, score: top.score }
}

function matchForm(tables: Tables, form: string): IconMatch | null {
  if (tables.icons.has(form)) return { names: [form], kind: 'name', score: SCORE_NAME }
  const alias = tables.aliases.get(form)
  if (alias) return { names: [alias], kind: 'name', score: SCORE_NAME }
  const inNames = tables.nameWords.get(form)
  if (inNames) {
    return best(
      inNames.map(({ name, head, words }) => ({
        name,
        words,
        score: (head ? SCORE_HEAD_WORD : SCORE_NAME_WORD) - (words - 1) * EXTRA_WORD_COST,
      })),
      'name-word',
    )
  }
  if (NOT_A_KEYWORD_FORM.test(form)) return null
  const hits = tables.keywords.get(form)
  if (!hits) return null
  // A keyword many icons share ("animal", "food") says less about any one of them.
  const generic = Math.log2(hits.length)
  return best(
    hits.map(({ name, position }) => ({
      name,
      words: name.split('-').length,
      score:
        SCORE_KEYWORD -
        Math.min(position, KEYWORD_POSITION_CAP) -
        generic -
        (tables.icons.get(name)?.category === FACE_CATEGORY ? FACE_KEYWORD_COST : 0),
    })),
    'keyword',
  )
}

function createIndex(tables: Tables): KeywordIndex {
  const cache = new Map<string, IconMatch | null>()
  return {
    icons: tables.icons,
    iconNamed(name) {
      const lower = name.toLowerCase()
      if (tables.icons.has(lower)) return lower
      return tables.aliases.get(lower) ?? null
    },
    lookup(word) {
      const lower = word.toLowerCase()
      const cached = cache.get(lower)
      if (cached !== undefined) return cached
      let found: IconMatch | null = null
      if (lower.length >= MIN_WORD_CHARS && !isStopWord(lower)) {
        for (const form of singularForms(lower)) {
          if (isStopWord(form)) continue
          const match = matchForm(tables, form)
          if (match && (found === null || match.score > found.score)) found = match
        }
      }
      cache.set(lower, found)
      return found
    },
  }
}

let index: KeywordIndex | null = null

/**
 * The keyword index, built on the first call (reads the icon set's name lists and emojilib
 * synchronously, a few milliseconds) and kept for the process.
 * @throws when a package's data cannot be read (it is missing).
 */
export function keywordIndex(): KeywordIndex {
  index ??= createIndex(buildTables())
  return index
}
