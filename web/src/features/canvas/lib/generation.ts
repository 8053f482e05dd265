import {
  type GenerateImageInput,
  type GenerateScenesInput,
  type GenerateScriptInput,
  IMAGE_SEED_MAX,
  type ImageModel,
  SCENE_COUNT_DEFAULT,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
} from '@reelgraph/shared'
import { ApiError } from '../../../lib/api-client'
import type { EditableTextData, ImageGeneratorData, ScriptGeneratorData } from './node-types'
import type { JobAction } from './job-state'

/**
 * What a generation does on the canvas, as pure functions: the requests built from a
 * node's data, the seed, the first model, and the spec §8 alert for a failure. Where the
 * result nodes go (spec §4, §9) is shared's `placement`: the job worker writes them
 * (issue 12), and "Create image generator" uses its `imageGeneratorForScene`.
 */

/** The words of the spec §8 alerts for each action. */
const ACTION_WORD: Record<JobAction, string> = {
  script: 'script',
  scenes: 'scenes',
  image: 'image',
  video: 'video',
  clip: 'clip',
}

/**
 * The spec §8 alert for a failed generation: with a server response "Failed to generate
 * script: <server message or Unknown error>"; without one (network failure, or anything
 * that is not a server answer) "Error generating script. Please try again.".
 */
export function generationFailureMessage(action: JobAction, error: unknown): string {
  const word = ACTION_WORD[action]
  if (error instanceof ApiError) {
    const message = error.serverMessage.trim() || 'Unknown error'
    return `Failed to generate ${word}: ${message}`
  }
  return `Error generating ${word}. Please try again.`
}

/** "Generate Script · 1 credit" (the cost is left out while unknown). */
export function buttonLabelWithCost(label: string, cost: number | undefined): string {
  if (cost === undefined) return label
  return `${label} · ${cost} ${cost === 1 ? 'credit' : 'credits'}`
}

/**
 * Why a Generate button with this cost cannot be paid for: "Not enough credits: this needs
 * 2 credits; you have 0." when the balance is below the cost, else null (also while the
 * balance or the cost is unknown: the server still refuses a short balance, 402).
 * @see issue 14 item 8
 */
export function creditShortfall(balance: number | null, cost: number | undefined): string | null {
  if (balance === null || cost === undefined || balance >= cost) return null
  return `Not enough credits: this needs ${cost} ${cost === 1 ? 'credit' : 'credits'}; you have ${balance}.`
}

/** The body of `POST /api/ai/generate-script` from a script generator's data. */
export function buildScriptRequest(
  data: Pick<ScriptGeneratorData, 'topic' | 'style' | 'tone' | 'format'>,
): GenerateScriptInput {
  return {
    style: data.style,
    tone: data.tone,
    format: data.format,
    topic: data.topic.trim(),
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
  data: Pick<EditableTextData, 'content' | 'sceneCount'>,
): GenerateScenesInput {
  return { script: data.content, sceneCount: sceneCountOf(data.sceneCount) }
}

/**
 * The seed to send: the node's seed when it is a whole number in range, else a random
 * integer from 0 to 2147483647 (spec §5: a random integer when empty; §9).
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
    ImageGeneratorData,
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

/**
 * The first model in the list and its first version (spec §4: auto-selected for the image
 * generator), as the node stores them (strings); null when there is none.
 */
export function firstModelSelection(
  models: readonly ImageModel[] | undefined,
): { modelId: string; modelVersionId: string } | null {
  const model = models?.[0]
  const version = model?.modelVersions[0]
  if (!model || !version) return null
  return { modelId: String(model.id), modelVersionId: String(version.id) }
}

/** The version to use when the model changes: its first version ('' when it has none). */
export function firstVersionOf(models: readonly ImageModel[] | undefined, modelId: string): string {
  const model = models?.find((m) => String(m.id) === modelId)
  const version = model?.modelVersions[0]
  return version ? String(version.id) : ''
}

/** The versions of a model as select options (label: the version's name, else its id). */
export function versionOptionsOf(
  models: readonly ImageModel[] | undefined,
  modelId: string,
): { value: string; label: string }[] {
  const model = models?.find((m) => String(m.id) === modelId)
  return (model?.modelVersions ?? []).map((v) => ({
    value: String(v.id),
    label: v.name?.trim() || String(v.id),
  }))
}

/** The URL that downloads an image as generated-image.jpg (spec §9). */
export function downloadUrl(imageUrl: string): string {
  return `${imageUrl}${imageUrl.includes('?') ? '&' : '?'}download=1`
}
