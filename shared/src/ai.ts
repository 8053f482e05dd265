import { z } from 'zod'
import { projectIdSchema } from './ids.ts'
import {
  IMAGE_GUIDANCE_MAX as GUIDANCE_MAX,
  IMAGE_GUIDANCE_MIN as GUIDANCE_MIN,
  IMAGE_SEED_MAX as SEED_MAX,
  IMAGE_SIZE_MAX_PX as IMAGE_SIZE_MAX,
  IMAGE_SIZE_MIN_PX as IMAGE_SIZE_MIN,
  IMAGE_SIZE_STEP_PX as IMAGE_SIZE_STEP,
  IMAGE_STEPS_MAX,
  IMAGE_STEPS_MIN,
  PROMPT_MAX_LENGTH,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
  SCRIPT_FORMATS,
  SCRIPT_STYLES,
  SCRIPT_TONES,
} from './constants.ts'
import { MODEL_ID_PATTERN } from './model-id.ts'
import { MAX_TEXT_FIELD_BYTES, utf8Bytes } from './graph.ts'
import { jobTargetSchema } from './jobs.ts'
import { targetSecondsSchema } from './target-length.ts'

/**
 * AI generation calls (spec §5 Script/Scene/Image generation, §7; issue 4).
 */

/** The alerts of spec §5, word for word. */
export const GENERATION_MESSAGES = {
  topicRequired: 'Please enter a topic for your video',
  contentRequired: 'Please enter content before generating scenes',
  promptRequired: 'Please enter a prompt for image generation',
  modelRequired: 'Please select a model for image generation',
} as const

/** A topic is a sentence or two; a prompt a paragraph. */
export const TOPIC_MAX_LENGTH = 2000
/** Models listed for the image generator (spec §9: the model list is limited to 10). */
export const MODEL_LIST_DEFAULT_LIMIT = 10
export const MODEL_LIST_MAX_LIMIT = 100

const longText = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine((s) => utf8Bytes(s) <= MAX_TEXT_FIELD_BYTES, {
      message: `The text can be at most ${MAX_TEXT_FIELD_BYTES / 1024} KB.`,
    })

/** A number of scenes: a whole number from 1 to 25 (spec §5, §9). */
export const sceneCountSchema = z
  .number({
    error: `The number of scenes must be a whole number from ${SCENE_COUNT_MIN} to ${SCENE_COUNT_MAX}.`,
  })
  .int(`The number of scenes must be a whole number from ${SCENE_COUNT_MIN} to ${SCENE_COUNT_MAX}.`)
  .min(SCENE_COUNT_MIN, `The number of scenes must be at least ${SCENE_COUNT_MIN}.`)
  .max(SCENE_COUNT_MAX, `The number of scenes can be at most ${SCENE_COUNT_MAX}.`)

/** `POST /api/ai/generate-script` body (spec §7). */
/**
 * Which draft a generation makes (issue 14 item 10): a whole number from 0 to
 * IMAGE_SEED_MAX. Absent, the server picks one at random and stores it with the job, so
 * each regeneration reads differently and a retried job repeats its draft. The builtin
 * providers follow it; model providers ignore it.
 */
const draftSeed = z
  .number({ error: 'Seed must be a whole number.' })
  .int('Seed must be a whole number.')
  .min(0, 'Seed cannot be negative.')
  .max(SEED_MAX, `Seed can be at most ${SEED_MAX}.`)
  .optional()

export const generateScriptInput = z
  .object({
    style: z.enum(SCRIPT_STYLES, { error: `Style must be one of ${SCRIPT_STYLES.join(', ')}.` }),
    tone: z.enum(SCRIPT_TONES, { error: `Tone must be one of ${SCRIPT_TONES.join(', ')}.` }),
    format: z.enum(SCRIPT_FORMATS, {
      error: `Format must be one of ${SCRIPT_FORMATS.join(', ')}.`,
    }),
    topic: z
      .string({ error: GENERATION_MESSAGES.topicRequired })
      .trim()
      .min(1, GENERATION_MESSAGES.topicRequired)
      .max(TOPIC_MAX_LENGTH, `A topic can be at most ${TOPIC_MAX_LENGTH} characters.`),
    seed: draftSeed,
    /**
     * How long the video should last, in seconds (issue 42 item 1): the script is written
     * for it. Absent: `TARGET_SECONDS_DEFAULT` (60).
     */
    targetSeconds: targetSecondsSchema.optional(),
    /**
     * How many scenes the script will be split into ("Make video"'s count), so the pauses
     * the render puts around each scene come off its words. Absent: the text node's
     * default, 6.
     */
    sceneCount: sceneCountSchema.optional(),
    // Where the result goes (issue 12): the worker writes it into the project's document.
    ...jobTargetSchema.shape,
  })
  .meta({ id: 'GenerateScriptInput' })
export type GenerateScriptInput = z.infer<typeof generateScriptInput>

export const generateScriptOutput = z.object({ script: z.string() }).meta({ id: 'GeneratedScript' })
export type GenerateScriptOutput = z.infer<typeof generateScriptOutput>

/** `POST /api/ai/generate-scenes` body (spec §7): exactly `sceneCount` scenes come back. */
export const generateScenesInput = z
  .object({
    script: longText(GENERATION_MESSAGES.contentRequired),
    sceneCount: sceneCountSchema,
    seed: draftSeed,
    // Where the result goes (issue 12): the worker writes it into the project's document.
    ...jobTargetSchema.shape,
  })
  .meta({ id: 'GenerateScenesInput' })
export type GenerateScenesInput = z.infer<typeof generateScenesInput>

/** One scene: what is said and what is shown (spec §3 scene). */
export const sceneSchema = z
  .object({ narration: z.string(), visuals: z.string() })
  .meta({ id: 'Scene' })
export type Scene = z.infer<typeof sceneSchema>

export const generateScenesOutput = z
  .object({ scenes: z.array(sceneSchema) })
  .meta({ id: 'GeneratedScenes' })
export type GenerateScenesOutput = z.infer<typeof generateScenesOutput>

/** `GET /api/csas/models?limit=` query (spec §7). */
export const modelsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be at least 1.')
    .max(MODEL_LIST_MAX_LIMIT, `limit can be at most ${MODEL_LIST_MAX_LIMIT}.`)
    .default(MODEL_LIST_DEFAULT_LIMIT),
})

/** An image model with its versions (spec §3 Model; Civitai's `items[].modelVersions[]`). */
export const imageModelSchema = z
  .object({
    id: z.union([z.string(), z.number()]),
    name: z.string(),
    modelVersions: z.array(
      z.object({ id: z.union([z.string(), z.number()]), name: z.string().optional() }),
    ),
  })
  .meta({ id: 'ImageModel' })
export type ImageModel = z.infer<typeof imageModelSchema>

export const modelsOutput = z
  .object({ items: z.array(imageModelSchema) })
  .meta({ id: 'ImageModels' })
export type ModelsOutput = z.infer<typeof modelsOutput>

const sizeSchema = (name: string) =>
  z
    .number({ error: `${name} must be a number of pixels.` })
    .int(`${name} must be a whole number of pixels.`)
    .min(IMAGE_SIZE_MIN, `${name} must be at least ${IMAGE_SIZE_MIN} pixels.`)
    .max(IMAGE_SIZE_MAX, `${name} can be at most ${IMAGE_SIZE_MAX} pixels.`)
    .refine(
      (n) => n % IMAGE_SIZE_STEP === 0,
      `${name} must be a multiple of ${IMAGE_SIZE_STEP} pixels.`,
    )

/**
 * The fields of `POST /api/csas/generate-image` (spec §7), plus `projectId`: the image is
 * stored as an asset of that project (ARCHITECTURE decision 8) and served only to its
 * members; the optional `nodeId` of the image generator, where the worker places the result
 * (issue 12); and the optional `modelId` of the model catalog (issue 22 item 3).
 */
export const generateImageFields = z.object({
  projectId: projectIdSchema,
  /**
   * The model version (spec §7): a provider's own version id (old clients), or a catalog id
   * (`fal:fal-ai/flux/dev`, as `GET /api/csas/models` lists them). May be left out when
   * `modelId` is given.
   */
  modelVersionId: z
    .union([z.string().trim().min(1), z.number()], { error: GENERATION_MESSAGES.modelRequired })
    .transform(String)
    .optional(),
  /** An image model of the catalog (`GET /api/ai/models?kind=image`); it wins over `modelVersionId`. */
  modelId: z
    .string({ error: GENERATION_MESSAGES.modelRequired })
    .regex(MODEL_ID_PATTERN, GENERATION_MESSAGES.modelRequired)
    .optional(),
  prompt: z
    .string({ error: GENERATION_MESSAGES.promptRequired })
    .trim()
    .min(1, GENERATION_MESSAGES.promptRequired)
    .max(PROMPT_MAX_LENGTH, `A prompt can be at most ${PROMPT_MAX_LENGTH} characters.`),
  negativePrompt: z
    .string()
    .max(PROMPT_MAX_LENGTH, `A negative prompt can be at most ${PROMPT_MAX_LENGTH} characters.`)
    .default(''),
  width: sizeSchema('Width'),
  height: sizeSchema('Height'),
  numInferenceSteps: z
    .number({ error: 'Steps must be a number.' })
    .int('Steps must be a whole number.')
    .min(IMAGE_STEPS_MIN, `Steps must be at least ${IMAGE_STEPS_MIN}.`)
    .max(IMAGE_STEPS_MAX, `Steps can be at most ${IMAGE_STEPS_MAX}.`),
  guidanceScale: z
    .number({ error: 'Guidance scale must be a number.' })
    .min(GUIDANCE_MIN, `Guidance scale must be at least ${GUIDANCE_MIN}.`)
    .max(GUIDANCE_MAX, `Guidance scale can be at most ${GUIDANCE_MAX}.`)
    .refine(
      (n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-6,
      'Guidance scale goes in steps of 0.1.',
    ),
  /** Empty means random (spec §5); the answer says which seed was used. */
  seed: z
    .number({ error: 'Seed must be a whole number.' })
    .int('Seed must be a whole number.')
    .min(0, 'Seed cannot be negative.')
    .max(SEED_MAX, `Seed can be at most ${SEED_MAX}.`)
    .nullish(),
  /** The image generator node the result hangs off (issue 12); absent: only answered. */
  nodeId: jobTargetSchema.shape.nodeId,
})

/**
 * `POST /api/csas/generate-image` body: {@link generateImageFields} with a model named by
 * `modelVersionId` or `modelId`. Parsed, `modelVersionId` is always set (to `modelId` when it
 * was left out), so providers that read it keep working.
 */
export const generateImageInput = generateImageFields
  .refine((v) => v.modelVersionId !== undefined || v.modelId !== undefined, {
    message: GENERATION_MESSAGES.modelRequired,
    path: ['modelVersionId'],
  })
  .transform(({ modelVersionId, ...rest }) => ({
    ...rest,
    modelVersionId: modelVersionId ?? rest.modelId ?? '',
  }))
  .meta({ id: 'GenerateImageInput' })
export type GenerateImageInput = z.input<typeof generateImageInput>
export type GenerateImageRequest = z.output<typeof generateImageInput>

export const generateImageOutput = z
  .object({ imageUrl: z.string(), assetId: z.string(), seed: z.number().int() })
  .meta({ id: 'GeneratedImage' })
export type GenerateImageOutput = z.infer<typeof generateImageOutput>

/** The generation actions and what each costs in credits (ARCHITECTURE decision 4). */
export const GENERATION_ACTIONS = ['script', 'scenes', 'image'] as const
export type GenerationAction = (typeof GENERATION_ACTIONS)[number]
/** Default costs in credits (ARCHITECTURE decision 4); configurable on the server. */
export const DEFAULT_GENERATION_COSTS: GenerationCosts = {
  script: 1,
  scenes: 1,
  image: 2,
  voice: 1,
  video: 5,
}

/**
 * Credits per action: the three generations, one narrated scene (`voice`) and one video
 * render (`video`; a render costs `video + voice x scenes`, issue 13 item 4).
 */
export type GenerationCosts = Record<GenerationAction | 'voice' | 'video', number>

/** `GET /api/ai/providers`: what is active and what each action costs. */
export const providersOutput = z
  .object({
    text: z.object({ id: z.string(), name: z.string(), offline: z.boolean() }),
    image: z.object({ id: z.string(), name: z.string(), offline: z.boolean() }),
    costs: z.object({
      script: z.number().int(),
      scenes: z.number().int(),
      image: z.number().int(),
      voice: z.number().int(),
      video: z.number().int(),
    }),
  })
  .meta({ id: 'AiProviders' })
export type ProvidersOutput = z.infer<typeof providersOutput>
