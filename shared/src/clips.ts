import { z } from 'zod'
import { projectIdSchema } from './ids.ts'
import { MODEL_ID_PATTERN } from './catalog.ts'
import { IMAGE_SEED_MAX as SEED_MAX, PROMPT_MAX_LENGTH } from './constants.ts'
import { jobTargetSchema } from './jobs.ts'
import { VIDEO_PRESET_NAMES } from './nodes/video.ts'

/**
 * Generated clips (issue 22): the call that makes one from a prompt and, where the model
 * takes them, a start image and a last frame, and what it answers.
 */

/** An asset of the app (`/api/assets/<id>`): the only images a clip may start from. */
export const ASSET_URL_PATTERN = /^\/api\/assets\/[a-z2-7]{32}$/

/** Shortest and longest clip asked for, in seconds. */
export const CLIP_DURATION_MIN_SECONDS = 1
export const CLIP_DURATION_MAX_SECONDS = 20
/** The length a Video Generator starts with, in seconds. */
export const CLIP_DEFAULT_SECONDS = 5

const assetUrl = (what: string) =>
  z
    .string({ error: `${what} must be the address of an image in this project.` })
    .regex(
      ASSET_URL_PATTERN,
      `${what} must be an image of this project (/api/assets/...): other addresses are not fetched.`,
    )

/**
 * `POST /api/ai/generate-video` (issue 22 item 5): a job like image generation (waits up to
 * JOB_WAIT_MS, answers the clip or 202 with the job). `imageUrl` and `lastFrameUrl` must name
 * assets the caller may read; the server never fetches another address.
 */
export const generateVideoInput = z
  .object({
    modelId: z
      .string({ error: 'Pick a video model.' })
      .regex(MODEL_ID_PATTERN, 'Pick a video model from the list.'),
    prompt: z
      .string({ error: 'Describe the clip in the prompt.' })
      .trim()
      .min(1, 'Describe the clip in the prompt.')
      .max(PROMPT_MAX_LENGTH, `A prompt can be at most ${PROMPT_MAX_LENGTH} characters.`),
    negativePrompt: z
      .string()
      .max(PROMPT_MAX_LENGTH, `A negative prompt can be at most ${PROMPT_MAX_LENGTH} characters.`)
      .default(''),
    imageUrl: assetUrl('The start image').optional(),
    lastFrameUrl: assetUrl('The last frame').optional(),
    durationSeconds: z
      .number({ error: 'The duration must be a number of seconds.' })
      .min(CLIP_DURATION_MIN_SECONDS, `A clip lasts at least ${CLIP_DURATION_MIN_SECONDS} s.`)
      .max(CLIP_DURATION_MAX_SECONDS, `A clip lasts at most ${CLIP_DURATION_MAX_SECONDS} s.`),
    aspectRatio: z.enum(VIDEO_PRESET_NAMES, {
      error: `The aspect ratio must be one of ${VIDEO_PRESET_NAMES.join(', ')}.`,
    }),
    /** Empty means random; the answer says which seed was used. */
    seed: z
      .number({ error: 'Seed must be a whole number.' })
      .int('Seed must be a whole number.')
      .min(0, 'Seed cannot be negative.')
      .max(SEED_MAX, `Seed can be at most ${SEED_MAX}.`)
      .nullish(),
    /** Ask the model for its own sound, where it makes one. */
    withAudio: z.boolean().default(false),
    /** The project the clip is stored in (an asset of it, for its members only). */
    projectId: projectIdSchema,
    /** The Video Generator the result hangs off; absent: only answered. */
    nodeId: jobTargetSchema.shape.nodeId,
  })
  .meta({ id: 'GenerateVideoInput' })
export type GenerateVideoInput = z.input<typeof generateVideoInput>
export type GenerateVideoRequest = z.output<typeof generateVideoInput>

/** What a clip generation answers (and writes onto its Clip node). */
export const generateVideoOutput = z
  .object({
    /** The MP4's asset URL. */
    videoUrl: z.string(),
    /** Its poster frame (JPEG) asset URL. */
    posterUrl: z.string(),
    /** Its length by ffprobe, in ms. */
    durationMs: z.number().nonnegative(),
    /** True when the clip has a sound track. */
    hasAudio: z.boolean(),
    /** The catalog model that made it. */
    modelId: z.string(),
    seed: z.number().int(),
  })
  .meta({ id: 'GeneratedVideo' })
export type GenerateVideoOutput = z.infer<typeof generateVideoOutput>
