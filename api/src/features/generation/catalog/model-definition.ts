import type { CatalogModel, ModelCost, VideoCapabilities } from '@reelgraph/shared'
import type { ImageProvider } from '../providers/types.ts'
import type { InputMapping, InputMappingSpec } from './input-mapping.ts'
import { mapping } from './input-mapping.ts'
import type { VideoProvider } from './types.ts'

/**
 * One model as the server knows it (issue 22 item 1): its catalog entry (what
 * `GET /api/ai/models` shows) and how Reelgraph's request becomes its own input fields.
 */
export interface ModelDefinition {
  model: CatalogModel
  input: InputMapping
}

/** Who makes a model: a provider's id and its name for people. */
export interface ProviderIdentity {
  id: string
  name: string
}

/** `fal` + `fal-ai/flux/dev` -> `fal:fal-ai/flux/dev`. */
export function catalogId(provider: string, providerModelId: string): string {
  return `${provider}:${providerModelId}`
}

/** `fal:fal-ai/flux/dev` -> `fal-ai/flux/dev`: the provider's own id of a catalog model. */
export function providerModelId(model: Pick<CatalogModel, 'id'>): string {
  return model.id.slice(model.id.indexOf(':') + 1)
}

/** A video model of a provider's curated list. */
export function videoModel(
  provider: ProviderIdentity,
  spec: {
    /** The provider's own id (`fal-ai/kling-video/...`). */
    model: string
    name: string
    capabilities: VideoCapabilities
    /** Credits per second of clip. */
    creditsPerSecond: number
    input: InputMappingSpec
    offline?: boolean
  },
): ModelDefinition {
  return {
    model: {
      id: catalogId(provider.id, spec.model),
      provider: provider.id,
      providerName: provider.name,
      name: spec.name,
      kind: 'video',
      offline: spec.offline ?? false,
      capabilities: spec.capabilities,
      cost: { credits: spec.creditsPerSecond, per: 'second' },
    },
    input: mapping(spec.input),
  }
}

/** An image model of a provider's curated list. */
export function imageModel(
  provider: ProviderIdentity,
  spec: {
    model: string
    name: string
    /** Credits per image. */
    credits: number
    input?: InputMappingSpec
    offline?: boolean
  },
): ModelDefinition {
  const cost: ModelCost = { credits: spec.credits, per: 'image' }
  return {
    model: {
      id: catalogId(provider.id, spec.model),
      provider: provider.id,
      providerName: provider.name,
      name: spec.name,
      kind: 'image',
      offline: spec.offline ?? false,
      cost,
    },
    input: mapping(spec.input ?? {}),
  }
}

/**
 * What a provider brings to the catalog (issue 22 item 1): a registry entry of
 * `model-catalog.ts`. Adding a provider is a module that returns one of these and a line in
 * the catalog's list.
 */
export interface CatalogProvider extends ProviderIdentity {
  /** False when its settings (its key, its URL) are missing: none of its models is listed. */
  enabled: boolean
  /** Why it is off, for the log ("FAL_KEY is not set"). */
  disabledReason?: string
  /** Its curated models (a provider without a key still says which it would list). */
  defaults: ModelDefinition[]
  /**
   * Whether the operator's catalog file may add models of this provider (false for ComfyUI,
   * whose models are the workflow files, and for the builtin drafts).
   */
  acceptsFileModels: boolean
  /** Clips of this provider made at once, over every worker process (`FAL_CONCURRENCY`...). */
  concurrency: number
  /** The clip maker for its final list of video models (operator's models included). */
  video?(models: ModelDefinition[]): VideoProvider
  /** The image maker bound to one of its image models. */
  image?(model: ModelDefinition): ImageProvider
}
