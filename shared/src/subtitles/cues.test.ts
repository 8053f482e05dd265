import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type CueOptions,
  cuesFromWords,
  shiftCues,
  SUBTITLE_MAX_CUE_MS,
  SUBTITLE_MAX_LINE_CHARS,
  SUBTITLE_MIN_CUE_MS,
} from './cues.ts'
import { toSrt, toVtt } from './format.ts'
import type { Cue, WordTiming } from './types.ts'

/** Words spoken one after another, each `wordMs` long with `gapMs` between them. */
function timed(text: string, wordMs = 300, gapMs = 50): WordTiming[] {
  let at = 0
  return text
    .split(' ')
    .filter(Boolean)
    .map((word) => {
      const timing = { text: word, startMs: at, endMs: at + wordMs }
      at += wordMs + gapMs
      return timing
    })
}

const texts = (cues: Cue[]) => cues.map((cue) => cue.lines.join(' / '))

describe('cuesFromWords', () => {
  it('puts a short sentence in one cue timed by its words', () => {
    const cues = cuesFromWords(timed('Tides rise and fall twice a day.'))
    expect(cues).toEqual([
      { startMs: 0, endMs: 7 * 350 - 50, lines: ['Tides rise and fall twice a day.'] },
    ])
  })

  it('gives each sentence its own cue', () => {
    const cues = cuesFromWords(timed('The moon pulls the sea. The sun helps a little.'))
    expect(texts(cues)).toEqual(['The moon pulls the sea.', 'The sun helps a little.'])
  })

  it('splits a long sentence at its comma rather than in the middle', () => {
    const cues = cuesFromWords(
      timed(
        'When the moon is overhead and the sea is calm, the water climbs the beach slowly for about six hours before it turns.',
      ),
    )
    expect(texts(cues)[0]).toBe('When the moon is overhead / and the sea is calm,')
    expect(texts(cues).join(' ')).not.toContain('calm, / the')
  })

  it('splits before a conjunction when there is no punctuation', () => {
    const cues = cuesFromWords(
      timed(
        'The water climbs the beach for about six hours because the moon pulls the ocean toward itself all day long',
      ),
    )
    expect(cues.length).toBeGreaterThan(1)
    expect(cues[1]!.lines[0]).toMatch(/^because /)
  })

  it('breaks the two lines of a cue at a phrase boundary', () => {
    const [cue] = cuesFromWords(timed('Every day, the tide comes in and goes out again.'))
    expect(cue!.lines).toEqual(['Every day,', 'the tide comes in and goes out again.'])
  })

  it('keeps lines within 42 characters and never splits a word', () => {
    const words = timed(
      'Oceanographers measure extraordinarily complicated tidal oscillations continuously throughout the Mediterranean.',
    )
    const cues = cuesFromWords(words)
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2)
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(SUBTITLE_MAX_LINE_CHARS)
    }
    expect(cues.flatMap((cue) => cue.lines.join(' ').split(' '))).toEqual(words.map((w) => w.text))
  })

  it('gives a word longer than a line a line of its own', () => {
    const long = 'Pneumonoultramicroscopicsilicovolcanoconiosis-like'
    const cues = cuesFromWords(timed(`A ${long} word.`))
    expect(cues.flatMap((cue) => cue.lines)).toContain(long)
  })

  it('splits a sentence spoken for more than 7 s', () => {
    const words = timed('one two three four five six seven eight nine ten', 600, 400)
    const cues = cuesFromWords(words)
    expect(cues.length).toBe(2)
    for (const cue of cues) expect(cue.endMs - cue.startMs).toBeLessThanOrEqual(SUBTITLE_MAX_CUE_MS)
  })

  it('cuts a single word spoken for more than 7 s to 7 s', () => {
    const cues = cuesFromWords([{ text: 'Ommmm', startMs: 500, endMs: 9_500 }])
    expect(cues).toEqual([{ startMs: 500, endMs: 7_500, lines: ['Ommmm'] }])
  })

  it('lengthens a short cue into the silence after it', () => {
    const cues = cuesFromWords([
      { text: 'Yes.', startMs: 0, endMs: 300 },
      { text: 'The', startMs: 3_000, endMs: 3_200 },
      { text: 'end.', startMs: 3_200, endMs: 3_600 },
    ])
    expect(cues).toEqual([
      { startMs: 0, endMs: 1_000, lines: ['Yes.'] },
      { startMs: 3_000, endMs: 4_000, lines: ['The end.'] },
    ])
  })

  it('merges a short cue with its neighbour when there is no silence to take', () => {
    const cues = cuesFromWords([
      { text: 'Yes.', startMs: 0, endMs: 300 },
      { text: 'It', startMs: 300, endMs: 500 },
      { text: 'works.', startMs: 500, endMs: 1_500 },
    ])
    expect(cues).toEqual([{ startMs: 0, endMs: 1_500, lines: ['Yes. It works.'] }])
  })

  it('borrows time from full neighbours for a short cue boxed in between them', () => {
    const full = 'word '.repeat(8).trim() // 39 characters
    const words = [
      ...timed(`${full} ${full}.`, 400, 0),
      { text: 'Ok.', startMs: 6_400, endMs: 6_700 },
      ...timed(`${full} ${full}.`, 400, 0).map((w) => ({
        ...w,
        startMs: w.startMs + 6_700,
        endMs: w.endMs + 6_700,
      })),
    ]
    const cues = cuesFromWords(words)
    expect(texts(cues)[1]).toBe('Ok.')
    expect(cues[1]!.endMs - cues[1]!.startMs).toBe(SUBTITLE_MIN_CUE_MS)
    expect(cues[0]!.endMs).toBe(cues[1]!.startMs)
    expect(cues[1]!.endMs).toBe(cues[2]!.startMs)
  })

  it('spreads cues of words timed at one instant so each shows, when there is time for all', () => {
    // The property test's counterexample: three cues' worth of words, all but the last timed
    // at 0 (a provider's glitch). The neighbours are short too, so none can lend time; the
    // silence after the last cue makes room.
    const words = [
      { text: 'aAAAaAaAaAaAaaaAAaAAaaAaAaaAaa;', startMs: 0, endMs: 0 },
      { text: 'AaaaAAAaAaaAaAaaaaaAaaAaaAAAaA', startMs: 0, endMs: 0 },
      { text: 'AaaaaAAaAaaAaAAaAAaaaAAAAaAAaA', startMs: 0, endMs: 0 },
      { text: 'A."', startMs: 0, endMs: 0 },
      { text: 'éAaAaéé?', startMs: 12, endMs: 1_536 },
    ]
    const cues = cuesFromWords(words, { endLimitMs: 3_000 })
    expect(cues.map((c) => [c.startMs, c.endMs])).toEqual([
      [0, 1_000],
      [1_000, 2_000],
      [2_000, 3_000],
    ])
    // With less than a minimum for each, they stay as the neighbours left them.
    const tight = cuesFromWords(words, { endLimitMs: 2_999 })
    expect(tight.map((c) => [c.startMs, c.endMs])).toEqual([
      [0, 0],
      [0, 536],
      [536, 1_536],
    ])
  })

  it('ends no cue after endLimitMs', () => {
    const cues = cuesFromWords(timed('Short.'), { endLimitMs: 600 })
    expect(cues).toEqual([{ startMs: 0, endMs: 600, lines: ['Short.'] }])
  })

  it('puts one line per cue with maxLines 1', () => {
    const cues = cuesFromWords(timed('Every day, the tide comes in and goes out again.'), {
      maxLines: 1,
    })
    expect(cues.map((cue) => cue.lines.length)).toEqual([1, 1])
  })

  it('moves words whose times go backwards forward, and skips empty words', () => {
    const cues = cuesFromWords([
      { text: 'One', startMs: 1_000, endMs: 1_400 },
      { text: '  ', startMs: 1_400, endMs: 1_500 },
      { text: 'two.', startMs: 1_200, endMs: 1_300 },
    ])
    expect(cues).toEqual([{ startMs: 1_000, endMs: 2_000, lines: ['One two.'] }])
  })

  it('returns no cues for no words and refuses bad input', () => {
    expect(cuesFromWords([])).toEqual([])
    expect(() => cuesFromWords([{ text: 'x', startMs: Number.NaN, endMs: 1 }])).toThrow(RangeError)
    expect(() => cuesFromWords(timed('x'), { minDurationMs: 8_000 })).toThrow(RangeError)
    expect(() => cuesFromWords(timed('x'), { maxLineChars: 0 })).toThrow(RangeError)
  })
})

describe('shiftCues', () => {
  it('moves a scene’s cues onto the video timeline', () => {
    const cues: Cue[] = [
      { startMs: 0, endMs: 1_000, lines: ['a'] },
      { startMs: 1_500, endMs: 3_000, lines: ['b', 'c'] },
    ]
    expect(shiftCues(cues, 12_000)).toEqual([
      { startMs: 12_000, endMs: 13_000, lines: ['a'] },
      { startMs: 13_500, endMs: 15_000, lines: ['b', 'c'] },
    ])
    expect(cues[0]!.startMs).toBe(0)
  })

  it('refuses an offset that moves a cue before 0', () => {
    expect(() => shiftCues([{ startMs: 100, endMs: 1_200, lines: ['a'] }], -200)).toThrow(
      RangeError,
    )
    expect(() => shiftCues([], Number.NaN)).toThrow(RangeError)
  })
})

// Property tests: random narrations, each word with a duration and the silence before it.
const CONJUNCTIONS = ['and', 'but', 'because', 'which', 'so', 'or']
const PUNCTUATION = ['', '', '', '', ',', '.', '?', '!', ';', ':', '—', '."']
const wordText = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z'’é]{1,14}$/) },
  { weight: 2, arbitrary: fc.constantFrom(...CONJUNCTIONS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z]{30,50}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,6}%?$/) },
)
const spoken = fc.record({
  text: fc.tuple(wordText, fc.constantFrom(...PUNCTUATION)).map(([w, p]) => w + p),
  durationMs: fc.integer({ min: 0, max: 2_500 }),
  gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200 }), fc.integer({ max: 9_000 })),
})
const narration = fc.array(spoken, { minLength: 0, maxLength: 120 }).map((items) => {
  let at = 0
  return items.map(({ text, durationMs, gapMs }) => {
    const startMs = at + Math.max(gapMs, 0)
    at = startMs + durationMs
    return { text, startMs, endMs: at }
  })
})
const cueOptions: fc.Arbitrary<CueOptions> = fc.record(
  {
    maxLineChars: fc.integer({ min: 20, max: 60 }),
    maxLines: fc.constantFrom(1 as const, 2 as const),
    minDurationMs: fc.integer({ min: 500, max: 1_500 }),
    maxDurationMs: fc.integer({ min: 3_000, max: 9_000 }),
  },
  { requiredKeys: [] },
)

function checkCues(words: WordTiming[], cues: Cue[], options: CueOptions, limitMs: number) {
  const maxLineChars = options.maxLineChars ?? SUBTITLE_MAX_LINE_CHARS
  const maxLines = options.maxLines ?? 2
  const minMs = options.minDurationMs ?? SUBTITLE_MIN_CUE_MS
  const maxMs = options.maxDurationMs ?? SUBTITLE_MAX_CUE_MS
  // Every word appears once, in order, whole.
  expect(cues.flatMap((cue) => cue.lines.join(' ').split(' '))).toEqual(words.map((w) => w.text))
  cues.forEach((cue, i) => {
    expect(cue.lines.length).toBeGreaterThanOrEqual(1)
    expect(cue.lines.length).toBeLessThanOrEqual(maxLines)
    for (const line of cue.lines) {
      // Only a single word longer than a line may exceed it.
      if ([...line].length > maxLineChars) expect(line).not.toContain(' ')
    }
    expect(Number.isInteger(cue.startMs) && Number.isInteger(cue.endMs)).toBe(true)
    expect(cue.startMs).toBeGreaterThanOrEqual(0)
    expect(cue.endMs).toBeLessThanOrEqual(limitMs)
    const duration = cue.endMs - cue.startMs
    expect(duration).toBeLessThanOrEqual(maxMs)
    const previousEnd = cues[i - 1]?.endMs ?? 0
    const nextStart = cues[i + 1]?.startMs ?? limitMs
    // No overlap.
    expect(cue.startMs).toBeGreaterThanOrEqual(previousEnd)
    // Shorter than the minimum only when it fills all the time it could have.
    if (duration < minMs) {
      expect(cue.startMs).toBe(previousEnd)
      expect(cue.endMs).toBe(nextStart)
    }
  })
}

describe('cuesFromWords (properties)', () => {
  it('keeps every word once in order, within line and duration limits, without overlap', () => {
    fc.assert(
      fc.property(narration, cueOptions, (words, options) => {
        checkCues(words, cuesFromWords(words, options), options, Number.POSITIVE_INFINITY)
      }),
      { numRuns: 300 },
    )
  })

  it('ends no cue after endLimitMs, and every cue has time when there is a minimum for each', () => {
    fc.assert(
      fc.property(narration, fc.integer({ min: 0, max: 3_000 }), (words, tailMs) => {
        const limitMs = (words.at(-1)?.endMs ?? 0) + tailMs
        const cues = cuesFromWords(words, { endLimitMs: limitMs })
        checkCues(words, cues, {}, limitMs)
        // Time for every cue when there is a minimum's worth for each (with less, words
        // spoken at one instant can leave a later cue none).
        if (limitMs >= cues.length * SUBTITLE_MIN_CUE_MS) {
          for (const cue of cues) expect(cue.endMs).toBeGreaterThan(cue.startMs)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('writes SRT and WebVTT that read back to the same cues', () => {
    fc.assert(
      fc.property(narration, (words) => {
        const cues = cuesFromWords(words)
        const srtBlocks = toSrt(cues).split('\n\n').filter(Boolean)
        expect(srtBlocks.length).toBe(cues.length)
        srtBlocks.forEach((block, i) => {
          const [number, times, ...lines] = block.trimEnd().split('\n')
          expect(number).toBe(String(i + 1))
          expect(times).toMatch(/^\d{2,}:\d{2}:\d{2},\d{3} --> \d{2,}:\d{2}:\d{2},\d{3}$/)
          expect(lines).toEqual(cues[i]!.lines)
        })
        const vtt = toVtt(cues)
        expect(vtt.startsWith('WEBVTT\n\n') || cues.length === 0).toBe(true)
        const vttBlocks = vtt.split('\n\n').slice(1).filter(Boolean)
        expect(vttBlocks.length).toBe(cues.length)
        for (const block of vttBlocks) {
          expect(block.split('\n')[0]).toMatch(
            /^\d{2,}:\d{2}:\d{2}\.\d{3} --> \d{2,}:\d{2}:\d{2}\.\d{3}$/,
          )
        }
      }),
      { numRuns: 100 },
    )
  })

  it('shifts every cue by the offset and keeps durations', () => {
    fc.assert(
      fc.property(narration, fc.integer({ min: 0, max: 3_600_000 }), (words, offsetMs) => {
        const cues = cuesFromWords(words)
        const shifted = shiftCues(cues, offsetMs)
        shifted.forEach((cue, i) => {
          expect(cue.startMs).toBe(cues[i]!.startMs + offsetMs)
          expect(cue.endMs - cue.startMs).toBe(cues[i]!.endMs - cues[i]!.startMs)
          expect(cue.lines).toEqual(cues[i]!.lines)
        })
      }),
      { numRuns: 50 },
    )
  })
})
