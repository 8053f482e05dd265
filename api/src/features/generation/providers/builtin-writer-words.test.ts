import {
  SCRIPT_FORMATS,
  SCRIPT_STYLES,
  SCRIPT_TONES,
  SCENE_COUNT_MAX,
  TARGET_SECONDS_MAX,
  TARGET_SECONDS_MIN,
} from '@reelgraph/shared'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { draftScript, writersLine } from './builtin-text.ts'
import { describeShot } from './builtin-visuals.ts'
import { seededRandom } from './seeded-random.ts'
import { findNouns } from './storyboard-vocabulary.ts'

/** Issue 42 item 6: the builtin writer's own words never reach a shot. */

describe("the builtin writer's own lines", () => {
  it('are every line of any draft, whatever its format, style, tone, length and seed', () => {
    const topic = fc.constantFrom('gribble', 'how gribble', 'is gribble gribble?', 'the gribble')
    fc.assert(
      fc.property(
        topic,
        fc.constantFrom(...SCRIPT_FORMATS),
        fc.constantFrom(...SCRIPT_STYLES),
        fc.constantFrom(...SCRIPT_TONES),
        fc.integer({ min: TARGET_SECONDS_MIN, max: TARGET_SECONDS_MAX }),
        fc.integer({ min: 1, max: SCENE_COUNT_MAX }),
        fc.integer({ min: 0, max: 100_000 }),
        (t, format, style, tone, targetSeconds, sceneCount, seed) => {
          const draft = draftScript({
            topic: t,
            format,
            style,
            tone,
            targetSeconds,
            sceneCount,
            seed,
          })
          const lines = draft.split(/(?<=[.!?…])\s+|\n+/).filter(Boolean)
          expect(lines.filter((line) => !writersLine(line, t))).toEqual([])
        },
      ),
      { numRuns: 3_000 },
    )
  })

  it('are told from lines someone wrote', () => {
    const title = 'Why Lighthouses Still Matter'
    expect(writersLine('They shape decisions, costs and everyday habits.', title)).toBe(true)
    expect(writersLine('Why lighthouses still matter, step by step.', title)).toBe(true)
    expect(writersLine('They shape decisions, costs and everyday habits.', 'gribble')).toBe(true)
    expect(writersLine('Keepers climbed the tower every night.', title)).toBe(false)
    expect(writersLine('Lighthouses guide ships past the rocks.', title)).toBe(false)
  })
})

describe('the words a shot is filmed in', () => {
  it('draw nothing in the storyboard: no eye for "eye level", no ice cream for "soft"', () => {
    for (let seed = 0; seed < 60; seed++) {
      for (const [index, continued] of [
        [0, false],
        [2, true],
        [3, false],
      ] as const) {
        const shot = describeShot(
          '',
          { index, count: 4, continued, title: null, things: [] },
          seededRandom(seed),
        )
        expect(findNouns(shot), shot).toEqual([])
      }
    }
  })
})
