import { VIDEO_PRESET_NAMES } from '@reelgraph/shared'
import { z } from 'zod'
import { ProviderError } from '../../../lib/provider-error.ts'
import type { ClipRequest } from './types.ts'

/**
 * How Reelgraph's request becomes a model's own input fields (issue 22 item 1): data, so that
 * an operator adds a model with its mapping in the catalog file (`MODEL_CATALOG_FILE`) as the
 * curated defaults of each provider do. Every entry names the model's field that takes a value
 * of the request; fields it leaves out are not sent (the model's default applies).
 */

/** A field of the model's input, e.g. `image_url`. */
const fieldName = z.string().min(1, 'name the model’s input field').max(100)

/** How a duration in seconds is written for the model. */
export const DURATION_FORMATS = [
  /** `5` */
  'number',
  /** `"5"` */
  'string',
  /** `"5s"` (fal's Veo) */
  'seconds-suffix',
  /** whole frames at `framesPerSecond`, plus `extraFrames` (Wan's 81 = 5 s × 16 + 1) */
  'frames',
] as const

const durationMapping = z
  .object({
    field: fieldName,
    format: z.enum(DURATION_FORMATS).default('number'),
    framesPerSecond: z.number().positive().optional(),
    extraFrames: z.number().int().min(0).default(0),
  })
  .refine((d) => d.format !== 'frames' || d.framesPerSecond !== undefined, {
    message: 'a duration written as frames needs framesPerSecond',
    path: ['framesPerSecond'],
  })

/** A field, optionally with the model's own words for Reelgraph's values. */
const valuesMapping = <V extends readonly [string, ...string[]]>(values: V) =>
  z.union([
    fieldName.transform((field) => ({ field, values: {} as Partial<Record<V[number], string>> })),
    z.object({
      field: fieldName,
      /** The model's value for each of Reelgraph's (`{"16:9": "landscape"}`); others as they are. */
      values: z.partialRecord(z.enum(values), z.string()).default({}),
    }),
  ])

/** How an image's width and height reach the model. */
const sizeMapping = z.discriminatedUnion('format', [
  /** Two fields: `width`, `height` (pixels). */
  z.object({ format: z.literal('width-height'), width: fieldName, height: fieldName }),
  /** One field holding `{ width, height }` (fal's `image_size`). */
  z.object({ format: z.literal('object'), field: fieldName }),
  /** One field holding the nearest of `ratios` (`"16:9"`); the image is cropped to size after. */
  z.object({
    format: z.literal('aspect-ratio'),
    field: fieldName,
    ratios: z.array(z.string().regex(/^\d+:\d+$/, 'a ratio such as 16:9')).min(1),
  }),
])

/** The mapping of one model (video or image). */
export const inputMappingSchema = z
  .object({
    prompt: fieldName.default('prompt'),
    negativePrompt: fieldName.optional(),
    seed: fieldName.optional(),
    // Video
    startImage: fieldName.optional(),
    lastFrame: fieldName.optional(),
    duration: durationMapping.optional(),
    aspectRatio: valuesMapping(VIDEO_PRESET_NAMES).optional(),
    resolution: fieldName.optional(),
    withAudio: fieldName.optional(),
    // Image
    size: sizeMapping.optional(),
    steps: fieldName.optional(),
    guidance: fieldName.optional(),
    /** Inputs sent as they are with every request (`{"enable_safety_checker": true}`). */
    fixed: z.record(z.string(), z.json()).default({}),
  })
  .strict()
export type InputMapping = z.output<typeof inputMappingSchema>
/** A mapping as written (defaults not applied). */
export type InputMappingSpec = z.input<typeof inputMappingSchema>

/** Parses a mapping written in code (the curated defaults). */
export function mapping(spec: InputMappingSpec): InputMapping {
  return inputMappingSchema.parse(spec)
}

/** `5` seconds in the model's words. */
export function durationValue(
  spec: NonNullable<InputMapping['duration']>,
  seconds: number,
): number | string {
  switch (spec.format) {
    case 'number':
      return seconds
    case 'string':
      return String(seconds)
    case 'seconds-suffix':
      return `${seconds}s`
    case 'frames':
      return Math.round(seconds * spec.framesPerSecond!) + spec.extraFrames
  }
}

/** What a start image and a last frame became for this provider (a data URI, an upload...). */
export interface ImageRefs {
  startImage?: string | undefined
  lastFrame?: string | undefined
}

/**
 * The model's input for a clip: every mapped field of the request, then the fixed inputs.
 * A start image for a model without one is left out (the catalog says which take one); a model
 * that needs one (no text-to-video) without one is refused in words.
 * @throws ProviderError `refused` when the model needs a start image and none was given.
 */
export function clipInput(
  spec: InputMapping,
  request: ClipRequest,
  images: ImageRefs,
): Record<string, unknown> {
  const caps = request.model.capabilities
  if (caps && !caps.textToVideo && !images.startImage) {
    throw new ProviderError(
      'refused',
      `${request.model.name} makes clips from a start image: connect an image to the Video Generator.`,
    )
  }
  const input: Record<string, unknown> = { [spec.prompt]: request.prompt }
  if (spec.negativePrompt && request.negativePrompt) {
    input[spec.negativePrompt] = request.negativePrompt
  }
  if (spec.seed) input[spec.seed] = request.seed
  if (spec.startImage && images.startImage) input[spec.startImage] = images.startImage
  if (spec.lastFrame && images.lastFrame) input[spec.lastFrame] = images.lastFrame
  if (spec.duration)
    input[spec.duration.field] = durationValue(spec.duration, request.durationSeconds)
  if (spec.aspectRatio) {
    input[spec.aspectRatio.field] =
      spec.aspectRatio.values[request.aspectRatio] ?? request.aspectRatio
  }
  if (spec.resolution) input[spec.resolution] = request.resolution
  if (spec.withAudio) input[spec.withAudio] = request.withAudio
  return { ...input, ...spec.fixed }
}

/** One image to draw, in Reelgraph's words (the image job's request). */
export interface ImageDrawRequest {
  prompt: string
  negativePrompt: string
  width: number
  height: number
  numInferenceSteps: number
  guidanceScale: number
  seed: number
}

/** The ratio of `ratios` nearest `width`:`height` (compared on a log scale). */
export function nearestRatio(ratios: readonly string[], width: number, height: number): string {
  const target = Math.log(width / height)
  let best = ratios[0]!
  let bestDistance = Infinity
  for (const ratio of ratios) {
    const [w, h] = ratio.split(':').map(Number) as [number, number]
    const distance = Math.abs(Math.log(w / h) - target)
    if (distance < bestDistance) {
      best = ratio
      bestDistance = distance
    }
  }
  return best
}

/** The model's input for an image: every mapped field of the request, then the fixed inputs. */
export function imageInput(spec: InputMapping, request: ImageDrawRequest): Record<string, unknown> {
  const input: Record<string, unknown> = { [spec.prompt]: request.prompt }
  if (spec.negativePrompt && request.negativePrompt) {
    input[spec.negativePrompt] = request.negativePrompt
  }
  if (spec.seed) input[spec.seed] = request.seed
  if (spec.steps) input[spec.steps] = request.numInferenceSteps
  if (spec.guidance) input[spec.guidance] = request.guidanceScale
  const size = spec.size
  if (size?.format === 'width-height') {
    input[size.width] = request.width
    input[size.height] = request.height
  } else if (size?.format === 'object') {
    input[size.field] = { width: request.width, height: request.height }
  } else if (size?.format === 'aspect-ratio') {
    input[size.field] = nearestRatio(size.ratios, request.width, request.height)
  }
  return { ...input, ...spec.fixed }
}
