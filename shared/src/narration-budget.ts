import { SCENE_COUNT_DEFAULT, SCENE_COUNT_MAX, SCENE_COUNT_MIN } from './constants.ts'
import { endsPhrase, endsSentence, splitWords } from './subtitles/words.ts'
import { formatTargetLength } from './target-length.ts'
import { DEFAULT_CUT } from './timeline.ts'
import { NARRATION_LEAD_IN_MS, NARRATION_TAIL_MS } from './timeline-plan.ts'

/**
 * How a target length (issue 42 item 1) becomes a script's length. A rendered video
 * lasts its narration plus, for each scene, a lead-in and a tail of silence, less the
 * crossfades that overlap neighbouring scenes (`planFilm`'s default film). So the script's
 * narration is the target less those pauses (in words: times the narrator's rate), and the
 * scene count divides it: one scene of a 30-second video narrates about 28.7 seconds, six
 * scenes about 4.1 seconds each.
 */

/**
 * Words a second a narrator speaks in a script, sentence pauses included: eSpeak NG, the
 * builtin voice (160 words a minute, media's `BUILTIN_WORDS_PER_MINUTE`), averaged 2.87 over
 * 24 builtin drafts of 8 topics (2.45 to 3.48 per draft: long words and commas slow it).
 * What a model is asked for in words; the builtin writer measures by {@link spokenSeconds}.
 */
export const NARRATION_WORDS_PER_SECOND = 2.87

/**
 * How long the builtin voice (eSpeak NG at 160 words a minute) takes to say a text, in ms:
 * per character (spaces and punctuation included), per pause at a comma, colon, semicolon or
 * dash inside a sentence, per pause between two sentences, and once per piece spoken (a
 * scene's narration). Fitted by least squares on 256 scenes of 96 builtin drafts of 16 topics
 * (1 to 6 scenes, 15 to 90 s); over a whole draft the fit is within ±7 % (sd 2 %), against
 * ±9 % for syllables (`estimateNarrationMs`) and ±20 % for a count of words.
 * `builtin-length.test.ts` in the api speaks drafts with the voice and keeps it honest.
 */
export const BUILTIN_VOICE_TIMING = {
  msPerCharacter: 53.7,
  msPerPhrasePause: 375,
  msPerSentencePause: 364,
  msPerPiece: 82,
} as const

/**
 * About how long the builtin voice takes to say `sentence` (or a few) and the pause after it,
 * in seconds ({@link BUILTIN_VOICE_TIMING}; the space before the next sentence counted). The builtin
 * writer measures its sentences by it: what a script's sentences add up to is its narration
 * plus, for each scene, a pause the voice does not make at a scene's end
 * ({@link builtinSpokenBudget}).
 */
export function spokenSeconds(sentence: string): number {
  const { msPerCharacter, msPerPhrasePause, msPerSentencePause } = BUILTIN_VOICE_TIMING
  const words = splitWords(sentence)
  let ms = (sentence.trim().length + 1) * msPerCharacter + msPerSentencePause
  words.forEach((word, i) => {
    if (i === words.length - 1) return
    if (endsSentence(word)) ms += msPerSentencePause
    else if (endsPhrase(word)) ms += msPerPhrasePause
  })
  return ms / 1000
}

/**
 * What a script's sentences may add up to by {@link spokenSeconds} for `budget`: its seconds,
 * plus what each scene's last sentence counts that the voice does not say (the pause after
 * it, and its space, less a piece's own time).
 */
export function builtinSpokenBudget(
  budget: Pick<NarrationBudget, 'seconds' | 'sceneCount'>,
): number {
  const { msPerCharacter, msPerSentencePause, msPerPiece } = BUILTIN_VOICE_TIMING
  return (
    budget.seconds + (budget.sceneCount * (msPerSentencePause + msPerCharacter - msPerPiece)) / 1000
  )
}

/**
 * The least narration a scene gets, in seconds: a short phrase. Fewer words than that would
 * make a scene of pauses, so a target has room for only so many scenes.
 */
export const SCENE_NARRATION_MIN_SECONDS = 1
/**
 * The most narration a scene gets, in seconds: 3 minutes, about 530 words, well under the
 * 4,096 characters a scene's narration is spoken in at once (media's `SPEECH_TEXT_MAX_CHARS`).
 */
export const SCENE_NARRATION_MAX_SECONDS = 180

/**
 * The seconds of a video that are not narration: each scene's lead-in and tail, less the
 * crossfades between scenes (they overlap two scenes).
 * @param sceneCount 1 or more
 */
export function scenePausesSeconds(sceneCount: number): number {
  const n = Math.max(1, Math.round(sceneCount))
  return (
    (n * (NARRATION_LEAD_IN_MS + NARRATION_TAIL_MS) - (n - 1) * DEFAULT_CUT.transitionMs) / 1000
  )
}

/** How many scenes a target length has room for: each at least a short phrase, at most 3 minutes. */
export function sceneCountRange(targetSeconds: number): { min: number; max: number } {
  const narration = (n: number) => targetSeconds - scenePausesSeconds(n)
  let min = SCENE_COUNT_MIN
  while (min < SCENE_COUNT_MAX && narration(min) > min * SCENE_NARRATION_MAX_SECONDS) min++
  let max = SCENE_COUNT_MAX
  while (max > min && narration(max) < max * SCENE_NARRATION_MIN_SECONDS) max--
  return { min, max }
}

/**
 * Why `sceneCount` scenes cannot make a video of `targetSeconds`, in words a person can act
 * on, or null when they can.
 */
export function targetLengthProblem(input: {
  targetSeconds: number
  sceneCount: number
}): string | null {
  const { targetSeconds, sceneCount } = input
  const { min, max } = sceneCountRange(targetSeconds)
  const length = `A ${formatTargetLength(targetSeconds)} video`
  if (sceneCount > max) {
    return `${length} has room for at most ${max} ${max === 1 ? 'scene' : 'scenes'}: each scene needs a pause before and after its words. Choose fewer scenes or a longer length.`
  }
  if (sceneCount < min) {
    return `${length} needs at least ${min} scenes: a scene can narrate at most ${SCENE_NARRATION_MAX_SECONDS / 60} minutes. Choose more scenes or a shorter length.`
  }
  return null
}

/** A script's length for a target: its narration in seconds and in words. */
export interface NarrationBudget {
  /** The scenes the script is planned for (the asked count, kept within the target's room). */
  sceneCount: number
  /** Seconds of narration: the target less the scenes' pauses. */
  seconds: number
  /** Words of narration at {@link NARRATION_WORDS_PER_SECOND}, at least one per scene. */
  words: number
}

/**
 * The narration a script for `targetSeconds` should have when split into `sceneCount` scenes
 * (absent: the text node's default, 6, as a script generated alone is split by default).
 * The count is kept within {@link sceneCountRange}, so every target has a budget.
 */
export function narrationBudget(input: {
  targetSeconds: number
  sceneCount?: number | undefined
}): NarrationBudget {
  const { min, max } = sceneCountRange(input.targetSeconds)
  const sceneCount = Math.min(
    max,
    Math.max(min, Math.round(input.sceneCount ?? SCENE_COUNT_DEFAULT)),
  )
  const seconds = Math.max(0, input.targetSeconds - scenePausesSeconds(sceneCount))
  const words = Math.max(sceneCount, Math.round(seconds * NARRATION_WORDS_PER_SECOND))
  return { sceneCount, seconds, words }
}
