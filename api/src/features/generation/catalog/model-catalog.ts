import { type CatalogModel, type ModelKind, providerOfModelId } from '@reelgraph/shared'
import type { Logger } from 'pino'
import type { Env } from '../../../env.ts'
import type { ImageProvider } from '../providers/types.ts'
import { builtinCatalog } from '../video-providers/builtin-motion.ts'
import { comfyuiCatalog } from '../video-providers/comfyui.ts'
import { falCatalog } from '../video-providers/fal.ts'
import { geminiCatalog } from '../video-providers/gemini.ts'
import { replicateCatalog } from '../video-providers/replicate.ts'
import { type CatalogFile, loadCatalogFile } from './catalog-file.ts'
import { civitaiCatalog, openaiCatalog } from './image-catalogs.ts'
import type { CatalogProvider, ModelDefinition } from './model-definition.ts'
import type { CatalogImageModel, CatalogVideoModel, ModelCatalog, VideoProvider } from './types.ts'

/** The settings the catalog reads (every provider's key, URL and concurrency). */
export type CatalogEnv = Parameters<typeof falCatalog>[0] &
  Parameters<typeof replicateCatalog>[0] &
  Parameters<typeof geminiCatalog>[0] &
  Parameters<typeof comfyuiCatalog>[0] &
  Parameters<typeof openaiCatalog>[0] &
  Parameters<typeof civitaiCatalog>[0] &
  Parameters<typeof builtinCatalog>[0] &
  Pick<Env, 'MODEL_CATALOG_FILE'>

/**
 * The providers of the catalog, in the order it lists them (issue 22 item 1): adding one is a
 * module with its `…Catalog(env)` and a line here.
 */
export const CATALOG_PROVIDERS: readonly ((env: CatalogEnv) => CatalogProvider)[] = [
  falCatalog,
  replicateCatalog,
  geminiCatalog,
  comfyuiCatalog,
  openaiCatalog,
  civitaiCatalog,
  builtinCatalog,
]

/** Options of {@link createModelCatalog}. */
export interface ModelCatalogOptions {
  logger?: Pick<Logger, 'info' | 'warn'>
  /** The catalog file, parsed (tests); default: read from `env.MODEL_CATALOG_FILE`. */
  file?: CatalogFile
  /** The providers (tests); default CATALOG_PROVIDERS. */
  providers?: readonly ((env: CatalogEnv) => CatalogProvider)[]
}

/**
 * The model catalog (issue 22 item 1): every provider whose settings are there contributes its
 * curated models, image and video, at once; the operator's file adds models with their mapping
 * (or replaces a curated one of the same id) and changes costs. A model of a provider without
 * its key is not listed; the builtin offline models always are. Built once at boot.
 * @throws Error naming the setting or file that is wrong: a catalog file that does not parse, a
 *   model of an unknown provider or of one that takes no added models (ComfyUI: its workflow
 *   folder; builtin), a ComfyUI workflow without its sidecar.
 */
export function createModelCatalog(
  env: CatalogEnv,
  options: ModelCatalogOptions = {},
): ModelCatalog {
  const file = options.file ?? loadCatalogFile(env.MODEL_CATALOG_FILE)
  const providers = (options.providers ?? CATALOG_PROVIDERS).map((make) => make(env))
  const known = new Map(providers.map((p) => [p.id, p]))

  for (const model of file.models) {
    const provider = known.get(providerOfModelId(model.id))
    if (!provider) {
      throw new Error(
        `MODEL_CATALOG_FILE: ${model.id} names no provider Reelgraph knows (${[...known.keys()].join(', ')}).`,
      )
    }
    if (!provider.acceptsFileModels) {
      throw new Error(
        provider.id === 'comfyui'
          ? `MODEL_CATALOG_FILE: ${model.id}: ComfyUI models are the workflows in COMFYUI_WORKFLOWS_DIR; change its cost under "costs".`
          : `MODEL_CATALOG_FILE: ${model.id}: ${provider.name} takes no added models; change its cost under "costs".`,
      )
    }
  }

  const entries: { definition: ModelDefinition; provider: CatalogProvider }[] = []
  for (const provider of providers) {
    if (!provider.enabled) {
      options.logger?.info(
        { provider: provider.id, reason: provider.disabledReason },
        'video and image models of this provider are not listed',
      )
      continue
    }
    const added = file.models.filter((m) => providerOfModelId(m.id) === provider.id)
    const definitions: ModelDefinition[] = provider.defaults
      .map((d) => added.find((m) => m.id === d.model.id) ?? d)
      .map((d) => ('model' in d ? d : fromFile(d, provider)))
    for (const model of added) {
      if (!provider.defaults.some((d) => d.model.id === model.id)) {
        definitions.push(fromFile(model, provider))
      }
    }
    for (const definition of definitions) {
      const cost = file.costs[definition.model.id]
      entries.push({
        definition: cost ? { ...definition, model: { ...definition.model, cost } } : definition,
        provider,
      })
    }
  }
  const listed = new Set(entries.map((e) => e.definition.model.id))
  for (const id of Object.keys(file.costs)) {
    if (!listed.has(id)) {
      options.logger?.warn(
        { model: id },
        'MODEL_CATALOG_FILE sets the cost of a model that is not listed (a typo, or its provider has no key)',
      )
    }
  }

  const videoMakers = new Map<string, VideoProvider>()
  const video = new Map<string, CatalogVideoModel>()
  const image = new Map<string, CatalogImageModel>()
  for (const provider of providers) {
    const own = entries.filter(
      (e) => e.provider === provider && e.definition.model.kind === 'video',
    )
    if (own.length > 0 && provider.video) {
      videoMakers.set(provider.id, provider.video(own.map((e) => e.definition)))
    }
  }
  for (const { definition, provider } of entries) {
    const { model } = definition
    if (model.kind === 'video') {
      const maker = videoMakers.get(provider.id)
      if (maker) video.set(model.id, { model, provider: maker, concurrency: provider.concurrency })
    } else if (provider.image) {
      const maker: ImageProvider = provider.image(definition)
      image.set(model.id, { model, provider: maker })
    }
  }
  const models: CatalogModel[] = entries
    .map((e) => e.definition.model)
    .filter((m) => video.has(m.id) || image.has(m.id))
  options.logger?.info(
    {
      video: models.filter((m) => m.kind === 'video').length,
      image: models.filter((m) => m.kind === 'image').length,
      providers: [...new Set(models.map((m) => m.provider))],
    },
    'model catalog',
  )
  return {
    list: (kind?: ModelKind) => (kind ? models.filter((m) => m.kind === kind) : [...models]),
    video: (modelId: string) => video.get(modelId),
    image: (modelId: string) => image.get(modelId),
  }
}

/** An operator's model as a definition of its provider. */
function fromFile(
  model: CatalogFile['models'][number],
  provider: CatalogProvider,
): ModelDefinition {
  return {
    model: {
      id: model.id,
      provider: provider.id,
      providerName: provider.name,
      name: model.name,
      kind: model.kind,
      offline: false,
      ...(model.capabilities ? { capabilities: model.capabilities } : {}),
      cost: model.cost,
    },
    input: model.input,
  }
}
