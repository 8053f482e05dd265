import type { CatalogModel, ImageModel } from '@reelgraph/shared'
import type { ModelCatalog } from './catalog/types.ts'
import type { AiProviders } from './providers/types.ts'

/**
 * The image models an Image Generator offers (`GET /api/csas/models`, spec §7), in the order
 * the canvas shows them: its first is what a generator without a model gets.
 */

/** Image providers whose own models are listed live, ahead of the catalog's. */
export const LIVE_IMAGE_PROVIDERS: ReadonlySet<string> = new Set(['civitai', 'automatic1111'])

/** A catalog image model as the spec's `ImageModel`: its catalog id is its one version. */
export function asImageModel(model: CatalogModel): ImageModel {
  return {
    id: model.id,
    name: model.name,
    modelVersions: [{ id: model.id, name: model.providerName }],
  }
}

/** The catalog's image models, the active image provider's first (issue 22). */
export function catalogImageModels(deps: {
  ai: Pick<AiProviders, 'image'>
  catalog: Pick<ModelCatalog, 'list'>
}): ImageModel[] {
  const listed = deps.catalog.list('image')
  const own = listed.filter((m) => m.provider === deps.ai.image.info.id)
  return [...own, ...listed.filter((m) => m.provider !== deps.ai.image.info.id)].map(asImageModel)
}

/**
 * The model and version the canvas shows first for a new Image Generator, from `live` (the
 * active provider's own list, when it is listed live) or else the catalog's: what Make video
 * stores on the generators it adds, so the canvas has nothing to fill in and their inputs stay
 * as they were hashed (issue 42 item 4). Null when there is none.
 */
export function firstImageModelSelection(
  deps: { ai: Pick<AiProviders, 'image'>; catalog: Pick<ModelCatalog, 'list'> },
  live: readonly ImageModel[],
): { modelId: string; modelVersionId: string } | null {
  const models = LIVE_IMAGE_PROVIDERS.has(deps.ai.image.info.id)
    ? [...live, ...catalogImageModels(deps)]
    : catalogImageModels(deps)
  const first = models[0]
  const version = first?.modelVersions[0]
  return first && version ? { modelId: String(first.id), modelVersionId: String(version.id) } : null
}
