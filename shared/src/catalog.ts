import { z } from 'zod'
import { VIDEO_PRESET_NAMES } from './nodes/video.ts'

/**
 * The model catalog (issue 22 item 1; docs/decisions/ the catalog's ADR): every configured
 * provider contributes its models, image and video, at once. An entry's id is namespaced by
 * its provider (`fal:fal-ai/kling-video/...`, `replicate:...`, `gemini:...`, `comfyui:...`,
 * `openai:...`, `builtin:...`), with what it can do and what it costs. How a request becomes
 * the model's own input fields stays on the server.
 */

/** What a model makes. */
export const MODEL_KINDS = ['image', 'video'] as const
export type ModelKind = (typeof MODEL_KINDS)[number]

import { MODEL_ID_PATTERN } from './model-id.ts'

export { MODEL_ID_PATTERN, providerOfModelId } from './model-id.ts'

/** What a video model takes and makes. */
export const videoCapabilitiesSchema = z.object({
  /** Makes a clip from a prompt alone. */
  textToVideo: z.boolean(),
  /** Starts from an image (a scene's picture). */
  imageToVideo: z.boolean(),
  /** Takes a last frame to end on. */
  lastFrame: z.boolean(),
  /** Can make the clip's own sound ("with sound"). */
  audio: z.boolean(),
  /** Lengths it makes, in seconds, ascending. */
  durations: z.array(z.number().positive()).min(1),
  aspectRatios: z.array(z.enum(VIDEO_PRESET_NAMES)).min(1),
  /** Resolutions it makes, e.g. `720p`, `1080p`; the first is used. */
  resolutions: z.array(z.string()).min(1),
})
export type VideoCapabilities = z.infer<typeof videoCapabilitiesSchema>

/** What a model costs: credits per image, or per second of video. */
export const modelCostSchema = z.object({
  credits: z.number().nonnegative(),
  per: z.enum(['image', 'second']),
})
export type ModelCost = z.infer<typeof modelCostSchema>

/** One model of the catalog, as `GET /api/ai/models` lists it. */
export const catalogModelSchema = z
  .object({
    id: z.string().regex(MODEL_ID_PATTERN),
    /** The provider's id (`fal`, `replicate`, `gemini`, `comfyui`, `openai`, `builtin`...). */
    provider: z.string(),
    /** The provider's name for people ("fal.ai", "Google Gemini API"). */
    providerName: z.string(),
    name: z.string(),
    kind: z.enum(MODEL_KINDS),
    /** True for the builtin offline drafts (the canvas says so). */
    offline: z.boolean(),
    /** What a video model takes and makes; absent for images. */
    capabilities: videoCapabilitiesSchema.optional(),
    cost: modelCostSchema,
  })
  .meta({ id: 'CatalogModel' })
export type CatalogModel = z.infer<typeof catalogModelSchema>

/** `GET /api/ai/models?kind=video|image`: the catalog, or one kind of it. */
export const catalogQuery = z.object({ kind: z.enum(MODEL_KINDS).optional() })
export const catalogOutput = z
  .object({ items: z.array(catalogModelSchema) })
  .meta({ id: 'ModelCatalog' })
export type CatalogOutput = z.infer<typeof catalogOutput>

/**
 * Credits of one generation with `model`: its price per image, or per second times
 * `durationSeconds`, rounded up to whole credits.
 */
export function modelCredits(model: Pick<CatalogModel, 'cost'>, durationSeconds = 1): number {
  const units = model.cost.per === 'second' ? durationSeconds : 1
  return Math.ceil(model.cost.credits * units - 1e-9)
}

/**
 * The duration a video model makes that is nearest `seconds` (the shorter on a tie), so a
 * request for a length it does not make asks for one it does.
 */
export function nearestDuration(
  capabilities: Pick<VideoCapabilities, 'durations'>,
  seconds: number,
): number {
  let best = capabilities.durations[0]!
  for (const d of capabilities.durations) {
    if (Math.abs(d - seconds) < Math.abs(best - seconds)) best = d
  }
  return best
}
