import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ESTIMATE_MS_PER_SYLLABLE,
  estimateNarrationMs,
  estimateSyllables,
  estimateWordTimings,
} from './estimate.ts'
import { splitWords } from './words.ts'

describe('estimateSyllables', () => {
  it('counts vowel groups, digits and syllabic characters', () => {
    expect(estimateSyllables('cat')).toBe(1)
    expect(estimateSyllables('ocean,')).toBe(2)
    expect(estimateSyllables('make')).toBe(1)
    expect(estimateSyllables('table')).toBe(2)
    expect(estimateSyllables('1687.')).toBe(4)
    expect(estimateSyllables('潮汐')).toBe(2)
    expect(estimateSyllables('&')).toBe(1)
    expect(estimateSyllables('—')).toBe(0)
  })
})

describe('estimateWordTimings', () => {
  it('spreads the words over the span in proportion to their syllables', () => {
    const words = estimateWordTimings('cat banana', { startMs: 0, endMs: 4_000 })
    expect(words).toEqual([
      { text: 'cat', startMs: 0, endMs: 1_000 },
      { text: 'banana', startMs: 1_000, endMs: 4_000 },
    ])
  })

  it('leaves a pause after a comma and a longer one after a sentence', () => {
    const [a, b, c] = estimateWordTimings('cat, dog. cow', { startMs: 1_000, endMs: 7_000 })
    // 3 syllables + 1 (comma) + 2 (sentence) = 6 units of 1 s.
    expect(a).toEqual({ text: 'cat,', startMs: 1_000, endMs: 2_000 })
    expect(b).toEqual({ text: 'dog.', startMs: 3_000, endMs: 4_000 })
    expect(c).toEqual({ text: 'cow', startMs: 6_000, endMs: 7_000 })
  })

  it('returns nothing for a blank text and refuses a backwards span', () => {
    expect(estimateWordTimings('  \n ', { startMs: 0, endMs: 1_000 })).toEqual([])
    expect(() => estimateWordTimings('a', { startMs: 5, endMs: 1 })).toThrow(RangeError)
  })

  it('gives every word a time in order within the span (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[\p{L}\p{N}.,;!?&—'-]{1,12}$/u), { maxLength: 60 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        (tokens, startMs, lengthMs) => {
          const text = tokens.join(' ')
          const words = estimateWordTimings(text, { startMs, endMs: startMs + lengthMs })
          expect(words.map((w) => w.text)).toEqual(splitWords(text))
          let previousEnd = startMs
          for (const word of words) {
            expect(word.startMs).toBeGreaterThanOrEqual(previousEnd - 1e-6)
            expect(word.endMs).toBeGreaterThanOrEqual(word.startMs)
            previousEnd = word.endMs
          }
          if (words.length > 0) {
            expect(words[0]!.startMs).toBe(startMs)
            expect(words.at(-1)!.endMs).toBe(startMs + lengthMs)
          }
        },
      ),
    )
  })
})

describe('estimateNarrationMs', () => {
  it('grows with the syllables and pauses of the text, and is 0 for a blank one', () => {
    expect(estimateNarrationMs('   ')).toBe(0)
    // "Hello, world." = hel-lo (2) + pause (1) + world (1) = 4 units.
    expect(estimateNarrationMs('Hello, world.')).toBe(4 * ESTIMATE_MS_PER_SYLLABLE)
    expect(estimateNarrationMs('Hello, world. Again.')).toBeGreaterThan(
      estimateNarrationMs('Hello, world.') + 2 * ESTIMATE_MS_PER_SYLLABLE,
    )
  })
})
