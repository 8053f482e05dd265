import {
  builtinSpokenBudget,
  type GenerateScriptInput,
  narrationBudget,
  type Scene,
  spokenSeconds,
  TARGET_SECONDS_DEFAULT,
} from '@reelgraph/shared'
import { fitDraft, MORE_SECTIONS, rankedDraft, SHORT_CLOSES } from './builtin-length.ts'
import { topicPhrases } from './builtin-topic.ts'
import { describeShot, thingsNamed, titleLine } from './builtin-visuals.ts'
import { writersLines } from './builtin-writer-words.ts'
import { seededRandom } from './seeded-random.ts'
import type { ProviderInfo, TextProvider } from './types.ts'

/**
 * The builtin text provider: offline, no model (ARCHITECTURE "AI providers"). Scripts are
 * drafted from templates shaped by format, style and tone around the topic read as English
 * (`builtin-topic.ts`); scenes come from segmenting the script text into exactly the asked
 * number of parts, each with a shot drawn from its narration (`builtin-visuals.ts`). The
 * request's `seed` picks the wording and the shots, so each regeneration reads differently
 * and the same seed gives the same draft (issue 14 item 10).
 */
export function createBuiltinTextProvider(): TextProvider {
  const info: ProviderInfo = { id: 'builtin', name: 'Offline drafts (built in)', offline: true }
  return {
    info,
    generateScript: (input) => Promise.resolve(draftScript(input)),
    generateScenes: ({ script, sceneCount, seed }) =>
      Promise.resolve(segmentScript(script, sceneCount, seed)),
  }
}

type Style = GenerateScriptInput['style']
type Tone = GenerateScriptInput['tone']

/** Wording by style: how we open and sign off, and the aside's lead-in (variants per draft). */
const STYLE_WORDS: Record<Style, { open: string[]; close: string[]; aside: string[] }> = {
  Professional: {
    open: ['In this video, we examine', 'Over the next few minutes, we look closely at'],
    close: [
      'Thank you for watching. Subscribe for more clear, practical briefings.',
      'Thank you for your time. More concise briefings are on the way.',
    ],
    aside: ['In practical terms,', 'Put simply,'],
  },
  Casual: {
    open: ["So today we're diving into", "Today we're taking a relaxed look at"],
    close: [
      "That's it for today. If this helped, hit like and we'll catch you in the next one.",
      "And that's a wrap. Drop a comment with what you'd like next, and see you soon.",
    ],
    aside: ['Honestly,', 'Here is the thing:'],
  },
  Friendly: {
    open: ["Hi there! Let's explore", 'Hello, friend! Together we will explore'],
    close: [
      'Thanks so much for spending this time with us. See you soon, friend!',
      'It was lovely having you here. Take care, and see you next time!',
    ],
    aside: ['Here is the nice part:', 'And here is something lovely:'],
  },
}

/**
 * Wording by tone: the hook (`{a}` is the topic after "about"), the follow-up to a topic
 * asked as a question, the emphasis word and the aside's claim. Variants per draft.
 */
const TONE_WORDS: Record<
  Tone,
  { hook: string[]; answer: string[]; stress: string; point: string[] }
> = {
  Conversational: {
    hook: [
      'Have you ever wondered about {a}?',
      'Ever stopped to think about {a}?',
      "Let's talk about {a}.",
    ],
    answer: ["Let's find out together.", 'It is a fair question, so let us take it slowly.'],
    stress: 'pretty',
    point: ['think of it like this:', 'picture it this way:'],
  },
  Authoritative: {
    hook: [
      'Here is what you need to know about {a}.',
      'This is a clear, factual look at {a}.',
      "Let's set the record straight on {a}.",
    ],
    answer: ['Here is the answer, step by step.', 'The evidence gives a clear answer.'],
    stress: 'clearly',
    point: ['the key fact is this:', 'what matters most is this:'],
  },
  Enthusiastic: {
    hook: [
      'Get ready, because there is more to {a} than you think!',
      'You are going to love this look at {a}!',
      'Buckle up for a tour of {a}!',
    ],
    answer: [
      'The answer is more fascinating than you think!',
      'Get ready for a surprising answer!',
    ],
    stress: 'amazingly',
    point: ['and this is the exciting part:', 'and here comes the best bit:'],
  },
}

/**
 * Section headings and bodies by format. `{a}` is the topic as it reads after "about"
 * (never the subject of a verb, so plural and question-shaped topics stay grammatical).
 */
const FORMAT_SECTIONS: Record<GenerateScriptInput['format'], [string, string[]][]> = {
  Explainer: [
    [
      'What it is',
      [
        'At first, {a} can sound complicated.',
        'At its core, it comes down to a few ideas that fit together.',
        'Once you see those ideas, the rest follows naturally.',
      ],
    ],
    [
      'Why it matters',
      [
        'The ideas behind {a} show up in more places than most people expect.',
        'They shape decisions, costs and everyday habits.',
        'Understanding them helps you ask better questions.',
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
        'Many people assume that only experts can follow {a}.',
        'In reality, the basics are within reach of anyone curious enough to look.',
        'The details matter, but the big picture is simple.',
      ],
    ],
  ],
  Tutorial: [
    [
      'What you will need',
      [
        'Before we start on {a}, gather what you need and set aside a little time.',
        'Nothing here requires special training.',
        'A clear goal and a bit of patience go a long way.',
      ],
    ],
    [
      'Step one: prepare',
      [
        'Start by looking at where you are today.',
        'Write down what success would look like for you.',
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
        'This loop is where it all starts to click.',
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
        'Picture an ordinary morning, when nobody was thinking about {a}.',
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
        'Then came an idea: look at {a} from a completely different angle.',
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

/** The title's second part by format, for a topic that is not a direct question. */
const TITLE_SUFFIX: Record<GenerateScriptInput['format'], string> = {
  Explainer: 'Explained',
  Tutorial: 'A Step-by-Step Guide',
  Story: 'A Story',
}

/**
 * Drafts a script: a title from the topic, a hook, the format's sections and a recap, as long
 * as the target length's narration (issue 42 item 1: `narrationBudget` of `targetSeconds`,
 * default 60, and `sceneCount`; `builtin-length.ts` keeps the sentences the builtin voice
 * says in that time, and adds sections for a long video). `seed` picks among the wordings (issue 14 item
 * 10: another draft on each regeneration); the same input and seed always give the same
 * script. Without a seed, one is derived from the topic.
 */
export function draftScript(input: GenerateScriptInput & { seed?: number | undefined }): string {
  const topic = topicPhrases(input.topic)
  const random = seededRandom(input.seed ?? hash(input.topic))
  const style = STYLE_WORDS[input.style]
  const tone = TONE_WORDS[input.tone]
  const fill = (text: string) =>
    text.replaceAll('{a}', topic.about).replaceAll('{stress}', tone.stress)
  const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

  const title =
    topic.kind === 'question'
      ? topic.title
      : topic.kind === 'clause' && input.format === 'Explainer'
        ? topic.title
        : `${topic.title}: ${TITLE_SUFFIX[input.format]}`
  const opening = topic.question
    ? `${topic.question} ${random.pick(tone.answer)}`
    : sentenceCase(fill(random.pick(tone.hook)))
  const open = random.pick(style.open)
  const sections = FORMAT_SECTIONS[input.format]
  const asideAt = Math.floor(random.next() * sections.length)
  const aside = `${random.pick(style.aside)} ${random.pick(tone.point)} the closer you look at ${topic.about}, the more it makes sense.`
  const close = random.pick(style.close)
  const filled = (list: readonly (readonly [string, readonly string[]])[]) =>
    list.map(
      ([heading, sentences]) => [heading, sentences.map((s) => sentenceCase(fill(s)))] as const,
    )
  const story = input.format === 'Story'
  const draft = rankedDraft({
    opening: { text: opening, shorter: topic.question ?? undefined },
    intro: {
      text: `${open} ${topic.about}, and by the end you will see it in a new light.`,
      shorter: `${open} ${topic.about}.`,
    },
    sections: filled(sections),
    aside: { text: sentenceCase(aside), section: asideAt },
    more: filled(MORE_SECTIONS[input.format]),
    recap: {
      heading: story ? 'The lesson' : 'Recap',
      summary: story
        ? `Stories like this remind us that behind ${topic.about} there are always people.`
        : `That wraps up our look at ${topic.about}: what it is, why it matters and how to put it to work.`,
      close,
      shorterClose: SHORT_CLOSES[input.style],
    },
    again: `Let's go over ${topic.about} once more.`,
  })
  const budget = narrationBudget({
    targetSeconds: input.targetSeconds ?? TARGET_SECONDS_DEFAULT,
    sceneCount: input.sceneCount,
  })
  return [title, ...fitDraft(draft, builtinSpokenBudget(budget), spokenSeconds)].join('\n\n')
}

/**
 * Whether a sentence is one of this writer's own lines, given a text of the topic's words
 * (`builtin-writer-words.ts`; issue 42 item 6).
 */
export const writersLine = writersLines(draftScript, [
  STYLE_WORDS,
  TONE_WORDS,
  FORMAT_SECTIONS,
  MORE_SECTIONS,
  SHORT_CLOSES,
])

/**
 * Splits `script` into exactly `sceneCount` scenes, each with narration and visuals (a shot
 * drawn from the narration, `describeShot`, or of the things the topic names when the scene
 * is only the builtin writer's lines: issue 42 item 6). `seed` varies the shots between
 * drafts (issue 14 item 10); the same script, count and seed always give the same scenes.
 */
export function segmentScript(script: string, sceneCount: number, seed = hash(script)): Scene[] {
  const count = Math.max(1, Math.floor(sceneCount))
  const random = seededRandom(seed)
  const heading = titleOf(script)
  const title = heading === null ? null : titleLine(heading)
  // What the script says besides the builtin writer's own lines (issue 42 item 6): a shot
  // films that, or the things the topic names, never the templates' words.
  const topicWords = heading ?? ''
  const said = (text: string) =>
    sentencesIn(text)
      .filter((sentence) => !writersLine(sentence, topicWords))
      .join(' ')
  let units = sentencesOf(script)
  if (units.length === 0) units = [script.trim() || 'Untitled']
  const things = thingsNamed(title ?? '', said(units.join(' ')))
  units = splitUntil(units, count)
  const groups = units.length >= count ? partition(units, count) : reuse(units, count)
  return groups.map((group, index) => ({
    narration: group.text,
    visuals: describeShot(
      said(group.text),
      { index, count, continued: group.continued, title, things },
      random,
    ),
  }))
}

/** A heading: a short line without closing punctuation, e.g. "Step one: prepare". */
const HEADING_MAX_WORDS = 8

function sentencesOf(script: string): string[] {
  const paragraphs = script
    .split(/\n\s*\n|\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
  const content = paragraphs.filter((p, index) => !isHeading(p) && !(index === 0 && isTitle(p)))
  const source = content.length > 0 ? content : paragraphs
  return source.flatMap(sentencesIn)
}

/** The sentences of a paragraph. */
function sentencesIn(paragraph: string): string[] {
  // Split after closing punctuation followed by a space, so no character is lost ("3.14", "...").
  return paragraph
    .split(/(?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？])/)
    .map((sentence) => sentence.trim())
    .filter(Boolean)
}

/** The script's title: its first line when that is a heading, without a format suffix. */
function titleOf(script: string): string | null {
  const first = script.trim().split(/\r?\n/)[0]?.trim() ?? ''
  if (first === '' || !isTitle(first) || first.split(' ').length < 2) return null
  return first.replace(/: (Explained|A Step-by-Step Guide|A Story)$/, '')
}

/** The longest first line read as the script's title (never narrated). */
const TITLE_MAX_WORDS = 20

/** A first line without closing punctuation, e.g. "How Honey Bees Tell Each Other Where Flowers Are". */
function isTitle(line: string): boolean {
  return !/[.!?…"”。！？]$/.test(line) && line.split(' ').length <= TITLE_MAX_WORDS
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

/** FNV-1a: a small, stable string hash for deterministic choices. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}
