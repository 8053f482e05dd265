import { z } from 'zod'

/**
 * A video's target length (issue 42 item 1): the Script Generator and "Make video" take the
 * number of seconds the video should last, the script is written for it, and the rendered
 * video lands within {@link TARGET_LENGTH_TOLERANCE} of it. The spec sets no length; these
 * limits are chosen here. How a length becomes a word budget is `narration-budget.ts`.
 * Imports nothing of ours, so node definitions can use it.
 */

/** The shortest target, in seconds: a hook and a closing line, the least a video can say. */
export const TARGET_SECONDS_MIN = 10
/**
 * The longest target, in seconds: 10 minutes, a long explainer. Longer scripts would not fit
 * the 25 scenes' narration (a scene's narration is spoken in one piece of at most 4,096
 * characters, media's `SPEECH_TEXT_MAX_CHARS`).
 */
export const TARGET_SECONDS_MAX = 600
/**
 * The target of a new Script Generator, and of one saved before targets existed, in seconds:
 * a minute, the usual short explainer (the builtin script used to run about 75 to 90 seconds
 * whatever was asked; model scripts were asked for 250 to 400 words).
 */
export const TARGET_SECONDS_DEFAULT = 60
/** The lengths offered in the "Length" choice, in seconds; any other is "Custom". */
export const TARGET_SECONDS_PRESETS = [15, 30, 60, 90] as const
/** How far a rendered video may land from its target: ±15 % (issue 42 item 1). */
export const TARGET_LENGTH_TOLERANCE = 0.15

const wholeSeconds = `The length must be a whole number of seconds from ${TARGET_SECONDS_MIN} to ${TARGET_SECONDS_MAX}.`

/**
 * A target length: whole seconds from {@link TARGET_SECONDS_MIN} (10) to
 * {@link TARGET_SECONDS_MAX} (600), refused with a message that says which.
 */
export const targetSecondsSchema = z
  .number({ error: wholeSeconds })
  .int(wholeSeconds)
  .min(
    TARGET_SECONDS_MIN,
    `The length must be at least ${TARGET_SECONDS_MIN} seconds: a shorter video has no room for its words.`,
  )
  .max(
    TARGET_SECONDS_MAX,
    `The length can be at most ${TARGET_SECONDS_MAX} seconds (${TARGET_SECONDS_MAX / 60} minutes).`,
  )
  .meta({ description: 'The video’s target length in seconds (10 to 600).' })

/**
 * A length in words a person reads: "45 s", "1 min", "1 min 30 s", "10 min".
 * @param seconds whole seconds
 */
export function formatTargetLength(seconds: number): string {
  const minutes = Math.floor(seconds / 60)
  const rest = seconds % 60
  if (minutes === 0) return `${rest} s`
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`
}
