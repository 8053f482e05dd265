import {
  builtinSpokenBudget,
  narrationBudget,
  SCRIPT_FORMATS,
  SCRIPT_STYLES,
  SCRIPT_TONES,
  sceneCountRange,
  spokenSeconds,
  TARGET_LENGTH_TOLERANCE,
  TARGET_SECONDS_MAX,
  TARGET_SECONDS_MIN,
} from '@reelgraph/shared'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { createSpeechProvider, stopEspeak } from '@reelgraph/media'
import { fitDraft, rankedDraft, wordCount } from './builtin-length.ts'
import { draftScript, segmentScript } from './builtin-text.ts'

const voice = createSpeechProvider({ provider: 'builtin' })
const signal = new AbortController().signal
afterAll(() => stopEspeak())

/** What a draft narrates: every paragraph's lines after its heading (the title and the
 * headings are never spoken, as `segmentScript` reads a draft). */
function narration(script: string): string {
  const [, ...paragraphs] = script.split('\n\n')
  return paragraphs.map((p) => p.split('\n').slice(1).join(' ')).join(' ')
}
const narratedWords = (script: string) => wordCount(narration(script))
const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+/).filter(Boolean)
/** How long the builtin voice takes to say a draft, by the writer's own measure. */
const estimatedSeconds = (script: string) =>
  sentencesOf(narration(script)).reduce((sum, sentence) => sum + spokenSeconds(sentence), 0)

const topics = [
  'How honeybees make honey',
  'Why is the sky blue?',
  'sourdough bread',
  'the history of lighthouses',
]

describe('builtin drafts as long as their target (issue 42 item 1)', () => {
  it('narrates for the target less its scenes’ pauses, for every format, length and scene count', () => {
    for (const format of SCRIPT_FORMATS) {
      for (const [i, topic] of topics.entries()) {
        for (const targetSeconds of [10, 15, 30, 60, 90, 180, 300, 600]) {
          const { min, max } = sceneCountRange(targetSeconds)
          for (const sceneCount of new Set([min, Math.min(max, 6), max])) {
            const script = draftScript({
              topic,
              format,
              style: SCRIPT_STYLES[i % 3]!,
              tone: SCRIPT_TONES[(i + 1) % 3]!,
              seed: i,
              targetSeconds,
              sceneCount,
            })
            const budget = builtinSpokenBudget(narrationBudget({ targetSeconds, sceneCount }))
            // Within 2 % of the budget, or 1.6 s for the shorter (half a long sentence).
            expect(
              Math.abs(estimatedSeconds(script) - budget),
              `${format} ${targetSeconds} s ${sceneCount}`,
            ).toBeLessThanOrEqual(Math.max(1.6, 0.02 * budget))
          }
        }
      }
    }
  })

  it('is as long as that when the builtin voice speaks it, scene by scene', async () => {
    const cases = [
      [15, 1],
      [30, 1],
      [30, 3],
      [60, 6],
      [90, 3],
    ] as const
    for (const [i, [targetSeconds, sceneCount]] of cases.entries()) {
      const script = draftScript({
        topic: topics[i % topics.length]!,
        format: SCRIPT_FORMATS[i % 3]!,
        style: SCRIPT_STYLES[(i + 1) % 3]!,
        tone: SCRIPT_TONES[(i + 2) % 3]!,
        seed: i,
        targetSeconds,
        sceneCount,
      })
      let spokenMs = 0
      for (const scene of segmentScript(script, sceneCount, i)) {
        spokenMs += (await voice.synthesize({ text: scene.narration }, signal)).durationMs
      }
      const budget = narrationBudget({ targetSeconds, sceneCount }).seconds
      // The render adds the pauses exactly (shared's tests), so this is the video's error.
      expect(
        Math.abs(spokenMs / 1000 - budget) / targetSeconds,
        `${targetSeconds} s in ${sceneCount}: ${spokenMs} ms for ${budget} s`,
      ).toBeLessThanOrEqual(TARGET_LENGTH_TOLERANCE)
    }
  }, 60_000)

  it('scales the words with the target: a longer video always has more to say', () => {
    const input = {
      topic: 'How tides turn',
      style: 'Casual',
      tone: 'Enthusiastic',
      format: 'Explainer',
    } as const
    const lengths = [15, 30, 60, 90, 180, 600]
    const words = lengths.map((targetSeconds) =>
      narratedWords(draftScript({ ...input, seed: 7, targetSeconds, sceneCount: 4 })),
    )
    for (let i = 1; i < words.length; i++) expect(words[i]!).toBeGreaterThan(words[i - 1]!)
    // Twice the time, about twice the words; forty times the time, dozens of times the words.
    expect(words[2]! / words[1]!).toBeGreaterThan(1.8)
    expect(words[5]! / words[0]!).toBeGreaterThan(30)
  })

  it('divides the script among the scenes instead of stretching it', () => {
    const input = {
      topic: 'How honeybees make honey',
      style: 'Friendly',
      tone: 'Conversational',
      format: 'Explainer',
      seed: 2,
      targetSeconds: 30,
    } as const
    // One scene narrates about 28.7 s of a 30 s video; six scenes share about 24.7 s, about
    // 4 s each, as the pauses around each scene take the rest.
    const one = estimatedSeconds(draftScript({ ...input, sceneCount: 1 }))
    const six = estimatedSeconds(draftScript({ ...input, sceneCount: 6 }))
    const spoken = (sceneCount: number) =>
      builtinSpokenBudget(narrationBudget({ targetSeconds: 30, sceneCount }))
    expect(spoken(1) - 28.7).toBeLessThan(0.5)
    expect(spoken(6) - 24.7).toBeLessThan(2.5)
    expect(Math.abs(one - spoken(1))).toBeLessThanOrEqual(1.5)
    expect(Math.abs(six - spoken(6))).toBeLessThanOrEqual(1.5)
    expect(six).toBeLessThan(one)
  })

  it('keeps the opening line and the sign-off of the shortest video, and says nothing twice in two minutes', () => {
    const script = draftScript({
      topic: 'Volcanoes',
      style: 'Professional',
      tone: 'Authoritative',
      format: 'Tutorial',
      seed: 1,
      targetSeconds: 10,
      sceneCount: 1,
    })
    const paragraphs = script.split('\n\n')
    expect(paragraphs[1]).toMatch(/^Hook\n.*volcanoes/i)
    expect(paragraphs.at(-1)).toMatch(/^Recap\n.*(Thank you|briefings)/)
    expect(narratedWords(script)).toBeLessThanOrEqual(30)
    const minutes = draftScript({
      topic: 'Volcanoes',
      style: 'Professional',
      tone: 'Authoritative',
      format: 'Tutorial',
      seed: 1,
      targetSeconds: 120,
      sceneCount: 6,
    })
    expect(minutes).not.toContain('Once more')
    const sentences = minutes
      .split('\n')
      .filter((line) => /[.!?]$/.test(line))
      .join(' ')
      .split(/(?<=[.!?])\s+/)
    expect(new Set(sentences).size).toBe(sentences.length)
  })

  it('goes over its sections once more only for the longest videos, the recap still last', () => {
    const script = draftScript({
      topic: 'Volcanoes',
      style: 'Casual',
      tone: 'Conversational',
      format: 'Story',
      seed: 4,
      targetSeconds: TARGET_SECONDS_MAX,
      sceneCount: 6,
    })
    expect(script).toMatch(/\n\nOnce more\nLet's go over volcanoes once more\. /i)
    expect(script.split('\n\n').at(-1)).toMatch(/^The lesson\n/)
  })
})

describe('fitDraft', () => {
  const parts = {
    opening: { text: 'Open one two three.', shorter: 'Open.' },
    intro: { text: 'Intro one two three four.', shorter: 'Intro one.' },
    sections: [
      ['A', ['A1 one two.', 'A2 one two.', 'A3 one two.']],
      ['B', ['B1 one two.', 'B2 one two.', 'B3 one two.']],
    ] as const,
    aside: { text: 'Aside one two.', section: 1 },
    more: [['M', ['M1 one two.', 'M2 one two.']]] as const,
    recap: {
      heading: 'Recap',
      summary: 'Summary one two.',
      close: 'Close one two three.',
      shorterClose: 'Bye.',
    },
    again: 'Again.',
  }
  const draft = rankedDraft(parts)
  const narrated = (paragraphs: string[]) => paragraphs.map((p) => p.split('\n')[1]!).join(' ')

  it('keeps every section a run from its start, the format’s sections before any more, within the budget', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), (words) => {
        const text = narrated(fitDraft(draft, words))
        const count = wordCount(text)
        expect(text).toMatch(/^Open/)
        expect(text).toMatch(/(Close one two three|Bye)\.$/)
        // Less over than a sentence (3 words here), unless the opening and sign-off alone are.
        expect(count).toBeLessThanOrEqual(Math.max(words + 3, 2))
        const firstPass = text.split('Again.')[0]!
        for (const letter of ['A', 'B', 'M']) {
          const kept = [...firstPass.matchAll(new RegExp(`${letter}(\\d)`, 'g'))].map((m) =>
            Number(m[1]),
          )
          expect(kept).toEqual(kept.map((_, i) => i + 1))
        }
        // A later part only once the one before is whole, but for the fit's last few moves.
        const core = ['Intro one two three four.', 'A3 one two.', 'B3 one two.', 'Aside', 'Summary']
        const later = (text.match(/M\d|Again/g) ?? []).length
        if (core.some((line) => !text.includes(line))) expect(later).toBeLessThanOrEqual(3)
      }),
    )
  })

  it('uses the short sign-off when that is all there is room for, and the full one otherwise', () => {
    expect(narrated(fitDraft(draft, 3))).toBe('Open. Bye.')
    expect(narrated(fitDraft(draft, 8))).toBe('Open one two three. Close one two three.')
  })

  it('fills the target exactly when the sentences allow it', () => {
    for (const words of [TARGET_SECONDS_MIN, 20, 30]) {
      expect(Math.abs(wordCount(narrated(fitDraft(draft, words))) - words)).toBeLessThanOrEqual(2)
    }
  })
})
