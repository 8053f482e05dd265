import type { GenerateScriptInput, Scene } from '@reelgraph/shared'
import type { ProviderInfo, TextProvider } from './types.ts'

/**
 * The builtin text provider: offline, deterministic, no model (ARCHITECTURE "AI providers").
 * Scripts are drafted from templates shaped by format, style and tone; scenes come from
 * segmenting the script text into exactly the asked number of parts.
 */
export function createBuiltinTextProvider(): TextProvider {
  const info: ProviderInfo = { id: 'builtin', name: 'Offline drafts (built in)', offline: true }
  return {
    info,
    generateScript: (input) => Promise.resolve(draftScript(input)),
    generateScenes: ({ script, sceneCount }) => Promise.resolve(segmentScript(script, sceneCount)),
  }
}

/** The longest subject phrase woven into sentences; longer topics are cut at a word. */
const SUBJECT_MAX_CHARS = 80

type Style = GenerateScriptInput['style']
type Tone = GenerateScriptInput['tone']

/** Wording by style: how we greet, address and sign off. */
const STYLE_WORDS: Record<Style, { open: string; you: string; close: string; aside: string }> = {
  Professional: {
    open: 'In this video, we examine',
    you: 'you',
    close: 'Thank you for watching. Subscribe for more clear, practical briefings.',
    aside: 'In practical terms,',
  },
  Casual: {
    open: "So today we're diving into",
    you: 'you',
    close: "That's it for today. If this helped, hit like and we'll catch you in the next one.",
    aside: 'Honestly,',
  },
  Friendly: {
    open: "Hi there! Let's explore",
    you: 'you',
    close: 'Thanks so much for spending this time with us. See you soon, friend!',
    aside: 'Here is the nice part:',
  },
}

/** Wording by tone: emphasis and the kind of claim we make. */
const TONE_WORDS: Record<Tone, { hook: string; stress: string; point: string }> = {
  Conversational: {
    hook: 'Have you ever wondered about {s}?',
    stress: 'pretty',
    point: 'think of it like this:',
  },
  Authoritative: {
    hook: 'Here is what you need to know about {s}.',
    stress: 'clearly',
    point: 'the key fact is this:',
  },
  Enthusiastic: {
    hook: 'Get ready, because {s} is more fascinating than you think!',
    stress: 'amazingly',
    point: 'and this is the exciting part:',
  },
}

/** Section headings and bodies by format; `{s}` is the subject. */
const FORMAT_SECTIONS: Record<GenerateScriptInput['format'], [string, string[]][]> = {
  Explainer: [
    [
      'What it is',
      [
        '{s} can sound complicated at first.',
        'At its core, it comes down to a few ideas that fit together.',
        'Once you see those ideas, the rest follows naturally.',
      ],
    ],
    [
      'Why it matters',
      [
        '{s} shows up in more places than most people expect.',
        'It shapes decisions, costs and everyday habits.',
        'Understanding it helps {you} ask better questions.',
      ],
    ],
    [
      'How it works',
      [
        'First, there is a starting point: the situation before anything changes.',
        'Then a process kicks in, step by step, with each stage feeding the next.',
        'Finally, the result appears, and it is {stress} easy to recognise once you know what to look for.',
      ],
    ],
    [
      'A common misconception',
      [
        'Many people assume {s} is only for experts.',
        'In reality, the basics are within reach of anyone curious enough to look.',
        'The details matter, but the big picture is simple.',
      ],
    ],
  ],
  Tutorial: [
    [
      'What you will need',
      [
        'Before we start with {s}, gather what you need and set aside a little time.',
        'Nothing here requires special training.',
        'A clear goal and a bit of patience go a long way.',
      ],
    ],
    [
      'Step one: prepare',
      [
        'Start by looking at where you are today.',
        'Write down what you want to achieve with {s}.',
        'This makes every later step easier to check.',
      ],
    ],
    [
      'Step two: do the core work',
      [
        'Now work through the main task one piece at a time.',
        'Keep each change small so you can see its effect.',
        'If something looks wrong, stop and fix it before moving on.',
      ],
    ],
    [
      'Step three: check and refine',
      [
        'Review the result against the goal you wrote down.',
        'Adjust what is off, and keep what works.',
        'This loop is where {s} really starts to click.',
      ],
    ],
    [
      'Mistakes to avoid',
      [
        'Do not rush the preparation.',
        'Do not change everything at once.',
        'And do not skip the final check, because that is where the quality comes from.',
      ],
    ],
  ],
  Story: [
    [
      'The setting',
      [
        "Picture an ordinary morning, when {s} was the last thing on anyone's mind.",
        'Everything seemed settled and familiar.',
        'But a small detail was about to change that.',
      ],
    ],
    [
      'The challenge',
      [
        'A problem appeared that nobody could ignore.',
        'The usual answers did not work, and time was running out.',
        'Our main character had to decide what to do next.',
      ],
    ],
    [
      'The turning point',
      [
        'Then came an idea: look at {s} from a completely different angle.',
        'It was risky, and not everyone agreed.',
        'Still, it was the first real step forward.',
      ],
    ],
    [
      'The resolution',
      [
        'Bit by bit, the new approach paid off.',
        'What had looked impossible became {stress} manageable.',
        'And the people involved were changed by the journey.',
      ],
    ],
  ],
}

/** Drafts a script of a few hundred words; the same input always gives the same script. */
export function draftScript(input: GenerateScriptInput): string {
  const subject = subjectOf(input.topic)
  const style = STYLE_WORDS[input.style]
  const tone = TONE_WORDS[input.tone]
  const fill = (text: string) =>
    text
      .replaceAll('{s}', subject)
      .replaceAll('{you}', style.you)
      .replaceAll('{stress}', tone.stress)
  const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

  const title = `${titleCase(subject)}: ${input.format === 'Tutorial' ? 'A Step-by-Step Guide' : input.format === 'Story' ? 'A Story' : 'Explained'}`
  const hook = `${fill(tone.hook)} ${style.open} ${subject}, and by the end ${style.you} will see it in a new light.`
  const sections = FORMAT_SECTIONS[input.format]
  // A deterministic pick per topic keeps drafts for different topics from reading identically.
  const rotate = hash(input.topic) % sections.length
  const body = sections.map(([heading, sentences], index) => {
    const lines = sentences.map((s) => sentenceCase(fill(s)))
    if (index === rotate)
      lines.splice(1, 0, `${style.aside} ${tone.point} ${subject} rewards attention.`)
    return `${heading}\n${lines.join(' ')}`
  })
  const recap =
    input.format === 'Story'
      ? `The lesson\nStories like this remind us that ${subject} is about people as much as ideas. ${style.close}`
      : `Recap\nSo that is ${subject}: what it is, why it matters and how to put it to work. ${style.close}`
  return [title, `Hook\n${hook}`, ...body, recap].join('\n\n')
}

/** Splits `script` into exactly `sceneCount` scenes, each with narration and visuals. */
export function segmentScript(script: string, sceneCount: number): Scene[] {
  const count = Math.max(1, Math.floor(sceneCount))
  let units = sentencesOf(script)
  if (units.length === 0) units = [script.trim() || 'Untitled']
  units = splitUntil(units, count)
  const groups = units.length >= count ? partition(units, count) : reuse(units, count)
  return groups.map((group, index) => ({
    narration: group.text,
    visuals: visualsFor(group.text, index, count, group.continued),
  }))
}

/** A heading: a short line without closing punctuation, e.g. "Step one: prepare". */
const HEADING_MAX_WORDS = 8

function sentencesOf(script: string): string[] {
  const paragraphs = script
    .split(/\n\s*\n|\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
  const content = paragraphs.filter((p) => !isHeading(p))
  const source = content.length > 0 ? content : paragraphs
  // Split after closing punctuation followed by a space, so no character is lost ("3.14", "...").
  return source.flatMap((p) =>
    p
      .split(/(?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？])/)
      .map((sentence) => sentence.trim())
      .filter(Boolean),
  )
}

function isHeading(line: string): boolean {
  return !/[.!?…"”。！？]$/.test(line) && line.split(' ').length <= HEADING_MAX_WORDS
}

/** Splits the longest unit at a word near its middle until there are `count` units or none can split. */
function splitUntil(units: string[], count: number): string[] {
  const result = [...units]
  while (result.length < count) {
    // The longest unit that still has two words; a single long word cannot split.
    let longest = -1
    for (let i = 0; i < result.length; i++) {
      if (!splittable(result[i]!)) continue
      if (longest < 0 || result[i]!.length > result[longest]!.length) longest = i
    }
    if (longest < 0) break
    const parts = splitNearMiddle(result[longest]!)
    if (!parts) break
    result.splice(longest, 1, ...parts)
  }
  return result
}

/**
 * A run of text without spaces longer than this is split by characters: scripts in
 * languages written without spaces (Chinese, Japanese, Thai) would otherwise be one word.
 */
const UNSPACED_SPLIT_CHARS = 24
/** Chinese, Japanese and Korean characters: each carries meaning, so short runs split too. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/
const CJK_SPLIT_CHARS = 3

function unspacedLimit(text: string): number {
  return CJK.test(text) ? CJK_SPLIT_CHARS : UNSPACED_SPLIT_CHARS
}

function splittable(text: string): boolean {
  return text.includes(' ') || Array.from(text).length > unspacedLimit(text)
}

function splitNearMiddle(text: string): [string, string] | null {
  const words = text.split(' ')
  if (words.length < 2) {
    const chars = Array.from(text)
    if (chars.length <= unspacedLimit(text)) return null
    const half = Math.ceil(chars.length / 2)
    return [chars.slice(0, half).join(''), chars.slice(half).join('')]
  }
  const middle = text.length / 2
  // Prefer a clause break (comma, semicolon, colon, dash) near the middle, else any space.
  let best = -1
  let bestScore = Infinity
  let offset = 0
  for (let i = 0; i < words.length - 1; i++) {
    offset += words[i]!.length + 1
    const clause = /[,;:—–-]$/.test(words[i]!) ? 0.6 : 1
    const score = Math.abs(offset - middle) * clause
    if (score < bestScore) {
      bestScore = score
      best = i
    }
  }
  return [words.slice(0, best + 1).join(' '), words.slice(best + 1).join(' ')]
}

interface Group {
  text: string
  continued: boolean
}

/** Contiguous groups of roughly equal length, every group non-empty. */
function partition(units: string[], count: number): Group[] {
  const groups: Group[] = []
  let remainingLength = units.reduce((sum, u) => sum + u.length, 0)
  let i = 0
  for (let g = 0; g < count; g++) {
    const groupsLeft = count - g
    if (groupsLeft === 1) {
      groups.push({ text: units.slice(i).join(' '), continued: false })
      break
    }
    const target = remainingLength / groupsLeft
    const start = i
    let length = units[i]!.length
    i++
    while (
      units.length - i > groupsLeft - 1 &&
      Math.abs(length + units[i]!.length - target) <= Math.abs(length - target)
    ) {
      length += units[i]!.length
      i++
    }
    remainingLength -= length
    groups.push({ text: units.slice(start, i).join(' '), continued: false })
  }
  return groups
}

/** Fewer units than scenes (a one-word script): spread them and continue the last one. */
function reuse(units: string[], count: number): Group[] {
  const unitAt = (index: number) => Math.floor((index * units.length) / count)
  return Array.from({ length: count }, (_, index) => ({
    text: units[unitAt(index)]!,
    continued: index > 0 && unitAt(index) === unitAt(index - 1),
  }))
}

const SHOTS = [
  'Medium shot',
  'Close-up',
  'Tracking shot',
  'Over-the-shoulder shot',
  'Aerial view',
  'Detail shot',
]

/** Words that say nothing about what to film. */
const STOPWORDS = new Set(
  'about above after again against also among another because been before being below between both came come could does doing down during each even every from further have having here into just like made make many more most much must never next only other ours over same should since some such than that their them then there these they thing things this those through under until upon very want well were what when where which while will with within without would your yours youre dont cant really today video watching'.split(
    ' ',
  ),
)
const KEYWORD_COUNT = 4
const CAPTION_MAX_CHARS = 60

function visualsFor(narration: string, index: number, count: number, continued: boolean): string {
  const shot =
    index === 0
      ? 'Wide establishing shot'
      : index === count - 1 && count > 1
        ? 'Closing wide shot'
        : SHOTS[(index - 1) % SHOTS.length]!
  const keywords = keywordsOf(narration)
  const subject = keywords.length > 0 ? keywords.join(', ') : 'the presenter speaking to camera'
  const caption = cut(narration, CAPTION_MAX_CHARS).replace(/[.!?,;:]+$/, '')
  const lead = continued ? `${shot}, continuing the previous moment` : shot
  return `${lead}: ${subject}. Clean, well-lit composition; on-screen caption "${caption}".`
}

function keywordsOf(text: string): string[] {
  const counts = new Map<string, { word: string; count: number; first: number }>()
  const words = text.match(/[\p{L}][\p{L}'’-]*/gu) ?? []
  words.forEach((raw, position) => {
    const word = raw.replace(/['’]s$/, '')
    const key = word.toLowerCase().replace(/['’]/g, '')
    if (key.length < 4 || STOPWORDS.has(key)) return
    const entry = counts.get(key)
    if (entry) entry.count++
    else counts.set(key, { word: word.toLowerCase(), count: 1, first: position })
  })
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, KEYWORD_COUNT)
    .sort((a, b) => a.first - b.first)
    .map((e) => e.word)
}

function subjectOf(topic: string): string {
  const clean = topic
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?…:;,]+$/, '')
  return cut(clean, SUBJECT_MAX_CHARS) || 'this topic'
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text
  const head = text.slice(0, max)
  const space = head.lastIndexOf(' ')
  return `${(space > max / 2 ? head.slice(0, space) : head).trim()}…`
}

function titleCase(text: string): string {
  return text.replace(
    /(^|\s)(\p{Ll})/gu,
    (_, space: string, letter: string) => space + letter.toUpperCase(),
  )
}

/** FNV-1a: a small, stable string hash for deterministic choices. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}
