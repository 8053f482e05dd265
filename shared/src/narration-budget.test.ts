import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  BUILTIN_VOICE_TIMING,
  builtinSpokenBudget,
  NARRATION_WORDS_PER_SECOND,
  narrationBudget,
  sceneCountRange,
  scenePausesSeconds,
  spokenSeconds,
  targetLengthProblem,
} from './narration-budget.ts'
import { TARGET_LENGTH_TOLERANCE, TARGET_SECONDS_MAX, TARGET_SECONDS_MIN } from './target-length.ts'
import type { FilmCut } from './timeline.ts'
import { planFilm } from './timeline-plan.ts'

/** A default cut of scene `index`, as a Video node without a timeline has. */
function cut(index: number): FilmCut {
  const id = `scene-${index}`
  return {
    id,
    sceneId: id,
    order: `a${index}`,
    place: `a${index}`,
    inMs: 0,
    outMs: 0,
    holdMs: 0,
    transition: 'crossfade',
    transitionMs: 500,
    removed: false,
    narrated: true,
    scene: {
      nodeId: id,
      sceneNumber: String(index + 1),
      narration: 'x',
      imageUrl: '/a.png',
      clip: null,
    },
  }
}

/** How long the render's plan makes a video whose scenes share `narrationSeconds` evenly. */
function plannedSeconds(narrationSeconds: number, sceneCount: number): number {
  const cuts = Array.from({ length: sceneCount }, (_, i) => cut(i))
  const each = (narrationSeconds * 1000) / sceneCount
  return (
    planFilm(cuts, { titleMs: 0, endMs: 0 }, () => ({ clipMs: null, narrationMs: each }))
      .durationMs / 1000
  )
}

describe('narration budget (issue 42 item 1)', () => {
  it('takes each scene’s pauses off the target, less the crossfades between scenes', () => {
    expect(scenePausesSeconds(1)).toBeCloseTo(1.3)
    expect(scenePausesSeconds(3)).toBeCloseTo(2.9)
    expect(scenePausesSeconds(6)).toBeCloseTo(5.3)
  })

  it('gives one scene of a 30-second video about 29 s of words, six scenes about 4 s each', () => {
    const one = narrationBudget({ targetSeconds: 30, sceneCount: 1 })
    expect(one.seconds).toBeCloseTo(28.7)
    expect(one.words).toBe(Math.round(28.7 * NARRATION_WORDS_PER_SECOND))
    const six = narrationBudget({ targetSeconds: 30, sceneCount: 6 })
    expect(six.seconds / 6).toBeCloseTo(4.12, 1)
    // The scenes divide the script: six scenes never make it longer than one.
    expect(six.words).toBeLessThan(one.words)
    // A script generated alone is planned for the text node's default split, 6 scenes.
    expect(narrationBudget({ targetSeconds: 30 })).toEqual(six)
  })

  it('scales the words with the target', () => {
    const words = [15, 30, 60, 90, 600].map(
      (t) => narrationBudget({ targetSeconds: t, sceneCount: 4 }).words,
    )
    expect(words).toEqual([...words].sort((a, b) => a - b))
    expect(words[4]! / words[1]!).toBeGreaterThan(20)
  })

  it('plans a film as long as its target, for every length and scene count it has room for', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: TARGET_SECONDS_MIN, max: TARGET_SECONDS_MAX }),
        fc.integer({ min: 1, max: 25 }),
        (targetSeconds, asked) => {
          const { min, max } = sceneCountRange(targetSeconds)
          const sceneCount = Math.min(max, Math.max(min, asked))
          expect(targetLengthProblem({ targetSeconds, sceneCount })).toBeNull()
          const budget = narrationBudget({ targetSeconds, sceneCount })
          expect(budget.sceneCount).toBe(sceneCount)
          const seconds = plannedSeconds(budget.seconds, sceneCount)
          // Off by whole frames only: at most a frame (1/30 s) per scene, well inside ±15 %.
          expect(Math.abs(seconds - targetSeconds)).toBeLessThanOrEqual(sceneCount / 30 + 1e-9)
          expect(Math.abs(seconds - targetSeconds) / targetSeconds).toBeLessThan(
            TARGET_LENGTH_TOLERANCE / 5,
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('times the builtin voice by characters and pauses, and counts a scene’s end as no pause', () => {
    const { msPerCharacter, msPerPhrasePause, msPerSentencePause, msPerPiece } =
      BUILTIN_VOICE_TIMING
    expect(spokenSeconds('Hello there.')).toBeCloseTo(
      (13 * msPerCharacter + msPerSentencePause) / 1000,
    )
    expect(spokenSeconds('Hello, there.') - spokenSeconds('Hello  there.')).toBeCloseTo(
      msPerPhrasePause / 1000,
    )
    expect(spokenSeconds('Hello. There.') - spokenSeconds('Hello, There.')).toBeCloseTo(
      (msPerSentencePause - msPerPhrasePause) / 1000,
    )
    // Longer sentences take longer; a sentence of ten words about three seconds.
    expect(
      spokenSeconds('The ideas behind it show up in more places than expected.'),
    ).toBeGreaterThan(2.5)
    expect(spokenSeconds('The ideas behind it show up in more places than expected.')).toBeLessThan(
      4,
    )
    const budget = narrationBudget({ targetSeconds: 30, sceneCount: 3 })
    expect(builtinSpokenBudget(budget) - budget.seconds).toBeCloseTo(
      (3 * (msPerSentencePause + msPerCharacter - msPerPiece)) / 1000,
    )
  })

  it('says in words when a length has no room for the scenes, or too much for them', () => {
    expect(sceneCountRange(10)).toEqual({ min: 1, max: 5 })
    expect(sceneCountRange(15)).toEqual({ min: 1, max: 8 })
    expect(sceneCountRange(30)).toEqual({ min: 1, max: 16 })
    expect(sceneCountRange(60)).toEqual({ min: 1, max: 25 })
    expect(sceneCountRange(600)).toEqual({ min: 4, max: 25 })
    expect(targetLengthProblem({ targetSeconds: 30, sceneCount: 16 })).toBeNull()
    expect(targetLengthProblem({ targetSeconds: 15, sceneCount: 9 })).toBe(
      'A 15 s video has room for at most 8 scenes: each scene needs a pause before and after its words. Choose fewer scenes or a longer length.',
    )
    expect(targetLengthProblem({ targetSeconds: 600, sceneCount: 3 })).toBe(
      'A 10 min video needs at least 4 scenes: a scene can narrate at most 3 minutes. Choose more scenes or a shorter length.',
    )
  })
})
