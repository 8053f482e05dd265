import { describe, expect, it } from 'vitest'
import { captionEvents, spokenWord } from './captions.ts'
import { estimateWordTimings } from './subtitles/estimate.ts'

const TEXT =
  'The river wakes before the town does, and the ferry hums across the water. ' +
  'Children wave from the bridge while the market opens its shutters one by one.'
const words = estimateWordTimings(TEXT, { startMs: 0, endMs: 9_000 })
const all = (events: ReturnType<typeof captionEvents>) =>
  events.flatMap((e) => e.lines.flat().map((w) => w.text))

describe('captionEvents (issue 24 item 2)', () => {
  it('keeps every word once, in order, in every style', () => {
    for (const style of ['classic', 'word-highlight', 'bold'] as const) {
      const events = captionEvents(words, { style, maxWords: 7, endLimitMs: 9_000 })
      expect(all(events)).toEqual(words.map((w) => w.text))
      for (const [i, e] of events.entries()) {
        expect(e.endMs).toBeGreaterThan(e.startMs)
        expect(e.endMs).toBeLessThanOrEqual(events[i + 1]?.startMs ?? 9_000)
      }
    }
  })

  it('shows one to three words in "Bold short-form", breaking at punctuation', () => {
    const events = captionEvents(words, { style: 'bold', maxWords: 7, endLimitMs: 9_000 })
    for (const e of events) {
      expect(e.lines).toHaveLength(1)
      expect(e.lines[0]!.length).toBeGreaterThanOrEqual(1)
      expect(e.lines[0]!.length).toBeLessThanOrEqual(3)
    }
    expect(events.some((e) => e.lines[0]!.at(-1)!.text === 'does,')).toBe(true)
  })

  it('keeps lines within the most words a line may hold, two lines at a time', () => {
    const events = captionEvents(words, { style: 'classic', maxWords: 3, endLimitMs: 9_000 })
    for (const e of events) {
      expect(e.lines.length).toBeLessThanOrEqual(2)
      for (const line of e.lines) expect(line.length).toBeLessThanOrEqual(3)
    }
  })

  it('lights the word last started, and none before the first', () => {
    const [event] = captionEvents(words, {
      style: 'word-highlight',
      maxWords: 7,
      endLimitMs: 9_000,
    })
    const flat = event!.lines.flat()
    expect(spokenWord(event!, flat[0]!.startMs - 1)).toBe(-1)
    expect(spokenWord(event!, flat[1]!.startMs)).toBe(1)
    expect(spokenWord(event!, (flat[2]!.startMs + flat[2]!.endMs) / 2)).toBe(2)
  })
})
