import type { GenerateImageInput, GenerateScenesInput, GenerateScriptInput } from './ai.ts'
import { type CatalogModel, nearestDuration } from './catalog.ts'
import { ASSET_URL_PATTERN, type GenerateVideoInput } from './clips.ts'
import {
  IMAGE_SEED_MAX,
  SCENE_COUNT_DEFAULT,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
} from './constants.ts'
import type { NodeDataOf } from './nodes/registry.ts'
import type { VideoPresetName } from './nodes/video.ts'

/**
 * The request a generator node sends, built from its data (spec §5; issue 22 item 3): one
 * definition for the canvas's Generate buttons and for the API's agents (`run_node` of the
 * MCP server, issue 41 item 2), so a program running a node asks exactly what a click asks.
 * Pure functions; the project and node the request targets are added by the caller.
 */

/**
 * The body of `POST /api/ai/generate-script` from a script generator's data, its target
 * length included (issue 42 item 1).
 */
export function buildScriptRequest(
  data: Pick<
    NodeDataOf<'script-generator'>,
    'topic' | 'style' | 'tone' | 'format' | 'targetSeconds'
  >,
): GenerateScriptInput {
  return {
    style: data.style,
    tone: data.tone,
    format: data.format,
    topic: data.topic.trim(),
    targetSeconds: data.targetSeconds,
  }
}

/** The scene count a text node asks for, clamped to 1–25 (default 6 when not a number). */
export function sceneCountOf(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(n)) return SCENE_COUNT_DEFAULT
  return Math.min(SCENE_COUNT_MAX, Math.max(SCENE_COUNT_MIN, Math.round(n)))
}

/** The body of `POST /api/ai/generate-scenes` from a text node's data. */
export function buildScenesRequest(
  data: Pick<NodeDataOf<'editable-text'>, 'content' | 'sceneCount'>,
): GenerateScenesInput {
  return { script: data.content, sceneCount: sceneCountOf(data.sceneCount) }
}

/**
 * The seed to send: the node's seed when it is a whole number in range, else a random
 * integer from 0 to 2147483647 (spec §5: a random integer when empty; §9).
 * @param random a source in [0, 1) (tests pass their own)
 */
export function chooseSeed(seed: string, random: () => number = Math.random): number {
  const text = seed.trim()
  if (/^\d+$/.test(text)) {
    const n = Number(text)
    if (n <= IMAGE_SEED_MAX) return n
  }
  return Math.min(IMAGE_SEED_MAX, Math.floor(random() * (IMAGE_SEED_MAX + 1)))
}

/** The body of `POST /api/csas/generate-image` from an image generator's data. */
export function buildImageRequest(
  projectId: number,
  data: Pick<
    NodeDataOf<'image-generator'>,
    | 'prompt'
    | 'negativePrompt'
    | 'width'
    | 'height'
    | 'numInferenceSteps'
    | 'guidanceScale'
    | 'seed'
    | 'modelVersionId'
  >,
  random: () => number = Math.random,
): GenerateImageInput {
  return {
    projectId,
    modelVersionId: data.modelVersionId,
    prompt: data.prompt.trim(),
    negativePrompt: data.negativePrompt,
    width: data.width,
    height: data.height,
    numInferenceSteps: data.numInferenceSteps,
    guidanceScale: data.guidanceScale,
    seed: chooseSeed(data.seed, random),
  }
}

/** A Video Generator's settings as its model makes them. */
export type ClipSettings = Pick<NodeDataOf<'video-generator'>, 'durationSeconds' | 'aspectRatio'>

/**
 * The fields of a Video Generator that must change for `model` to make what it asks: the
 * duration snapped to the model's nearest (`nearestDuration`), the aspect ratio to its
 * first when it does not make this one. Empty when nothing changes.
 */
export function snapToModel(
  model: Pick<CatalogModel, 'capabilities'>,
  data: ClipSettings,
): Partial<ClipSettings> {
  const caps = model.capabilities
  if (!caps) return {}
  const patch: Partial<ClipSettings> = {}
  const duration = nearestDuration(caps, data.durationSeconds)
  if (duration !== data.durationSeconds) patch.durationSeconds = duration
  const ratios: readonly VideoPresetName[] = caps.aspectRatios
  if (!ratios.includes(data.aspectRatio) && ratios[0]) patch.aspectRatio = ratios[0]
  return patch
}

/**
 * The body of `POST /api/ai/generate-video` (`generateVideoInput`, without the project and
 * node the caller adds) for `data` with `model`: the duration and aspect ratio snapped to the
 * model, the start image and last frame only where it takes them (and only app assets), sound
 * only where it makes it, the node's seed or a random one.
 */
export function buildClipRequest(
  data: Pick<
    NodeDataOf<'video-generator'>,
    | 'prompt'
    | 'negativePrompt'
    | 'durationSeconds'
    | 'aspectRatio'
    | 'seed'
    | 'withAudio'
    | 'imageUrl'
    | 'lastFrameUrl'
  >,
  model: CatalogModel,
  random: () => number = Math.random,
): Omit<GenerateVideoInput, 'projectId' | 'nodeId'> {
  const caps = model.capabilities
  const snapped = { ...data, ...snapToModel(model, data) }
  const asset = (url: string) => (ASSET_URL_PATTERN.test(url) ? url : undefined)
  const imageUrl = caps?.imageToVideo ? asset(data.imageUrl) : undefined
  const lastFrameUrl = caps?.lastFrame ? asset(data.lastFrameUrl) : undefined
  return {
    modelId: model.id,
    prompt: data.prompt.trim(),
    negativePrompt: data.negativePrompt,
    ...(imageUrl ? { imageUrl } : {}),
    ...(lastFrameUrl ? { lastFrameUrl } : {}),
    durationSeconds: snapped.durationSeconds,
    aspectRatio: snapped.aspectRatio,
    seed: chooseSeed(data.seed, random),
    withAudio: (caps?.audio ?? false) && data.withAudio,
  }
}
