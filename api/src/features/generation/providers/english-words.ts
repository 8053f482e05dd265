/**
 * Plain English word handling for the offline drafts (issue 42 item 6): the words of a
 * prompt or a topic, their singular forms, and the words that name no thing (function words,
 * and the common verbs and fillers a topic or a shot description wraps its things in).
 */

/** A word of a text and where it starts, in characters. */
export interface TextWord {
  /** Lower case, a possessive "'s" and outer apostrophes removed ("ship's" -> "ship"). */
  word: string
  /** As written, punctuation inside kept ("Ship's"). */
  raw: string
  at: number
}

/** Letters (any script) and digits, with apostrophes or hyphens inside. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu

/** The words of `text` in order; hyphenated words are one word ("close-up"). */
export function wordsOf(text: string): TextWord[] {
  const words: TextWord[] = []
  for (const match of text.matchAll(WORD)) {
    const raw = match[0]
    const word = raw.toLowerCase().replace(/’/g, "'").replace(/'s$/, '')
    words.push({ word, raw, at: match.index })
  }
  return words
}

/** Plurals that no rule makes. */
const IRREGULAR: Readonly<Record<string, string>> = {
  children: 'child',
  men: 'man',
  women: 'woman',
  people: 'person',
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  feet: 'foot',
  oxen: 'ox',
  dice: 'die',
  octopi: 'octopus',
  cacti: 'cactus',
  fungi: 'fungus',
}

/** Words ending in "s" that are already singular (or have no singular). */
const SINGULAR_ENDINGS = /(?:ss|us|is|ics|ous|news|series|species)$/

/**
 * The forms `word` may be the plural of, most likely first, ending with `word` itself:
 * "honeybees" -> honeybee; "foxes" -> fox, foxe; "knives" -> knif, knife, knive; "puppies" ->
 * puppy; "volcanoes" -> volcano, volcanoe; "horses" -> hors, horse. A caller keeps the first
 * form it knows, so wrong guesses ("hors") cost nothing. Lower-case input.
 */
export function singularForms(word: string): string[] {
  const forms: string[] = []
  const irregular = IRREGULAR[word]
  if (irregular) forms.push(irregular)
  if (word.length > 3 && word.endsWith('s') && !SINGULAR_ENDINGS.test(word)) {
    if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`)
    if (word.endsWith('ves')) forms.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`)
    if (/(?:s|x|z|ch|sh|o)es$/.test(word)) forms.push(word.slice(0, -2))
    forms.push(word.slice(0, -1))
  }
  forms.push(word)
  return [...new Set(forms)]
}

/**
 * Words that name no thing to draw: articles, pronouns, prepositions, conjunctions, question
 * words, auxiliaries, the verbs and adverbs topics and shot descriptions use around their
 * things ("How honeybees *make* honey", "Why lighthouses *still matter*"), and the colours,
 * sizes and other adjectives that Fluent Emoji names use as modifiers ("red" of red-apple,
 * "soft" of soft-ice-cream), so "a red bicycle" draws no apple.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above across after again against all almost along also although always am among an
  and another any anyone anything are around as at away back be because been before behind being
  below beneath beside between beyond both but by can cannot could did do does doing done down
  during each either else enough even ever every everyone everything few for from further get
  gets getting got had has have having he her here hers herself him himself his how however i if
  in inside instead into is it its itself just least less let lets like many may me might more
  most much must my myself near neither never no nor not nothing now of off often on once one
  only onto or other others our ours ourselves out outside over own per perhaps quite rather
  really same several shall she should since so some someone something sometimes soon still such
  than that the their theirs them themselves then there these they this those though through
  throughout thus till to together too toward towards under unless until up upon us very via
  was we well were what whatever when where whether which while who whom whose why will with
  within without would yet you your yours yourself yourselves

  able actually add adds almost already another basic basics become becomes began begin begins
  best better big bring brings came change changes choose choosing come comes common complete
  could create creates day days different do does easy every explain explained explaining
  explains fact facts find finds first form forms found get give gives go goes going good great
  guide happen happens happened help helps idea ideas important inside introduction keep keeps
  kind kinds know known last learn learning left less life live lives look looks lot lots made
  make makes making matter matters mean means need needs new next old part parts 
  really right say says secret secrets see seen set show shows simple small start starts
  step steps take takes tell tells thing things think tip tips top true truth try turn
  turns understand understanding use used uses using way ways whole why work works
  wrong year years

  air pass passes passed follow follows followed move moves moved carry carries carried hold
  holds held stand stands stood sit sits sat lie lies rise rises rose reach reaches reached
  gather gathers gathered grow grows grew stay stays wait waits feel feels felt seem seems

  big small large little tiny huge old young long short high low full empty open closed
  dark bright light heavy fast slow soft hard quiet loud happy sad hot cold warm cool dry wet
  red orange yellow green blue purple pink brown black white grey gray gold golden silver`
    .split(/\s+/)
    .filter(Boolean),
)

/** Whether `word` (lower case) names no thing: a stop word, a number or a single letter. */
export function isStopWord(word: string): boolean {
  return word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word)
}
