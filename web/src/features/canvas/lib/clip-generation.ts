import {
  ASSET_URL_PATTERN,
  type CatalogModel,
  type ClipSettings,
  type ClipTake,
  type ModelCost,
  modelCredits,
  nearestDuration,
  type VideoCapabilities,
} from '@reelgraph/shared'
import type { VideoGeneratorData } from './node-types'
import { seedIssue } from './validation'

/**
 * The Video Generator and Clip nodes as pure functions (issue 22 item 3): the catalog's video
 * models grouped by provider with their capabilities and cost in a few words, a node's fields
 * snapped to what its model makes, why Generate clip cannot run, and the request it sends.
 */

/** What the Video Generator says next to its button (the server answers these in words too). */
export const CLIP_MESSAGES = {
  promptRequired: 'Describe the clip in the prompt.',
  modelRequired: 'Pick a video model.',
  modelsLoading: 'Loading the video models...',
  modelsFailed: 'The video models could not be loaded. Reload the page to try again.',
  modelGone: 'This model is no longer offered here: pick another.',
  startImageNotAsset: 'The start image must be an image of this project: connect an image node.',
} as const

/** "Kling 2.1 starts from an image: connect an image node." */
export function startImageRequired(model: Pick<CatalogModel, 'name'>): string {
  return `${model.name} starts from an image: connect an image node.`
}

/** What an offline model's clips are called (issue 22 item 2: honestly labelled). */
export const OFFLINE_MOTION_LABEL = 'Offline motion draft'

/** The models of one provider, for one group of the model picker. */
export interface ModelGroup {
  provider: string
  providerName: string
  models: CatalogModel[]
}

/**
 * `models` grouped by provider, the groups in the order their first model comes in the catalog
 * (the server's stable order) and each group's models in catalog order.
 */
export function groupModelsByProvider(models: readonly CatalogModel[]): ModelGroup[] {
  const groups = new Map<string, ModelGroup>()
  for (const model of models) {
    let group = groups.get(model.provider)
    if (!group) {
      group = { provider: model.provider, providerName: model.providerName, models: [] }
      groups.set(model.provider, group)
    }
    group.models.push(model)
  }
  return [...groups.values()]
}

/** "5", "2.5": seconds without a trailing ".0". */
export function secondsText(seconds: number): string {
  return String(Math.round(seconds * 10) / 10)
}

/** "5 s", "5 or 10 s", "4, 6 or 8 s": the lengths a model makes. */
export function durationsText(durations: readonly number[]): string {
  const list = durations.map(secondsText)
  if (list.length <= 1) return `${list[0] ?? '?'} s`
  return `${list.slice(0, -1).join(', ')} or ${list.at(-1)} s`
}

/** "from text or an image", "from an image", "from text": what a model starts from. */
function startsFrom(caps: Pick<VideoCapabilities, 'textToVideo' | 'imageToVideo'>): string {
  if (caps.textToVideo && caps.imageToVideo) return 'text or image'
  return caps.imageToVideo ? 'image only' : 'text only'
}

/**
 * A model's capabilities in a few words: "text or image · last frame · sound · 5 or 10 s"
 * (what it starts from, a last frame and sound when it takes or makes them, its lengths).
 */
export function capabilityText(caps: VideoCapabilities): string {
  return [
    startsFrom(caps),
    caps.lastFrame ? 'last frame' : null,
    caps.audio ? 'sound' : null,
    durationsText(caps.durations),
  ]
    .filter((part): part is string => part !== null)
    .join(' · ')
}

/** "2 credits/s", "1 credit/s", "0.5 credits/s", "4 credits/image": what a model costs. */
export function costText(cost: ModelCost): string {
  const n = secondsText(cost.credits)
  const unit = cost.credits === 1 ? 'credit' : 'credits'
  return `${n} ${unit}/${cost.per === 'second' ? 's' : 'image'}`
}

/**
 * A model as the picker lists it: "Kling 2.1 · text or image · 5 or 10 s · 2 credits/s"; an
 * offline one says it is an "Offline motion draft".
 */
export function modelOptionLabel(model: CatalogModel): string {
  return [
    model.name,
    model.offline ? OFFLINE_MOTION_LABEL : null,
    model.capabilities ? capabilityText(model.capabilities) : null,
    costText(model.cost),
  ]
    .filter((part): part is string => part !== null)
    .join(' · ')
}

/**
 * The model a new Video Generator starts with: the first that runs at a provider, else the
 * first (an offline draft), else none.
 */
export function defaultVideoModel(models: readonly CatalogModel[]): CatalogModel | undefined {
  return models.find((m) => !m.offline) ?? models[0]
}

// The snap and the request are shared's (`node-requests.ts`), as the MCP server's run_node
// sends them too (issue 41 item 2).
export { buildClipRequest, type ClipSettings, snapToModel } from '@reelgraph/shared'

/** What Generate clip costs with `model` for `data`'s duration (snapped), in credits. */
export function clipCredits(model: CatalogModel, data: Pick<ClipSettings, 'durationSeconds'>) {
  return modelCredits(model, clipSeconds(model, data))
}

/** The length a clip of `model` will have for `data`: its nearest duration, in seconds. */
export function clipSeconds(
  model: Pick<CatalogModel, 'capabilities'> | undefined,
  data: Pick<ClipSettings, 'durationSeconds'>,
): number {
  return model?.capabilities
    ? nearestDuration(model.capabilities, data.durationSeconds)
    : data.durationSeconds
}

/** "Generate clip · 5 s" (the button adds the credits). */
export function clipButtonLabel(seconds: number): string {
  return `Generate clip · ${secondsText(seconds)} s`
}

/** The models' state as the node knows it. */
export interface ModelsState {
  /** The catalog's video models once loaded. */
  models: readonly CatalogModel[] | undefined
  failed: boolean
}

/**
 * Why Generate clip cannot run now (the message under it), or null: a prompt first, then a
 * model that the catalog still offers, a seed in range, and a start image where the model
 * starts only from one (an asset of the app: the server never fetches another address).
 */
export function clipGenerationIssue(
  data: Pick<VideoGeneratorData, 'prompt' | 'modelId' | 'seed' | 'imageUrl'>,
  state: ModelsState,
): string | null {
  if (data.prompt.trim() === '') return CLIP_MESSAGES.promptRequired
  if (!state.models) return state.failed ? CLIP_MESSAGES.modelsFailed : CLIP_MESSAGES.modelsLoading
  if (data.modelId === '') return CLIP_MESSAGES.modelRequired
  const model = state.models.find((m) => m.id === data.modelId)
  if (!model?.capabilities) return CLIP_MESSAGES.modelGone
  const seed = seedIssue(data.seed)
  if (seed) return seed
  const caps = model.capabilities
  if (caps.imageToVideo && data.imageUrl !== '' && !ASSET_URL_PATTERN.test(data.imageUrl)) {
    return CLIP_MESSAGES.startImageNotAsset
  }
  if (!caps.textToVideo && data.imageUrl === '') return startImageRequired(model)
  return null
}

/** "0:05" for 5,000 ms; "0:04.5" below 10 s when it is not whole. */
export function clipLengthText(ms: number): string {
  const tenths = Math.round(ms / 100)
  const s = Math.floor(tenths / 10)
  const frac = tenths % 10
  const clock = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
  return frac !== 0 && s < 10 ? `${clock}.${frac}` : clock
}

/** "Take 2 · 0:05 · 14:05" for a take's button (newest first, so the last is take 1). */
export function clipTakeLabel(take: ClipTake, index: number, count: number): string {
  const at = new Date(take.createdAt)
  const parts = [`Take ${count - index}`, clipLengthText(take.durationMs)]
  if (!Number.isNaN(at.getTime())) {
    parts.push(at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }))
  }
  return parts.join(' · ')
}

/** The model's name for `modelId` from the catalog, else the provider's own id. */
export function modelNameOf(models: readonly CatalogModel[] | undefined, modelId: string): string {
  const model = models?.find((m) => m.id === modelId)
  if (model) return `${model.name} (${model.providerName})`
  return modelId.slice(modelId.indexOf(':') + 1) || 'an unknown model'
}
