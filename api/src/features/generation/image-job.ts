import type { DB } from '@reelgraph/db'
import {
  type DocumentGateway,
  generateImageFields,
  type GenerateImageOutput,
  generateImageOutput,
  imageResult,
  modelCredits,
  resultNodeIds,
  stampResultHash,
  writeJobResult,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { Env } from '../../env.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import { type JobKind, placed } from '../jobs/job-kind.ts'
import type { ModelCatalog } from './catalog/types.ts'
import type { AiProviders, ImageProvider } from './providers/types.ts'

/**
 * An image job's input: the call's body, its seed chosen (a retry draws the same image), and
 * `modelId` set when the model is one of the catalog's (issue 22 item 3); without it the
 * active image provider (`AI_IMAGE_PROVIDER`) draws `modelVersionId`, as for old clients.
 */
export const imageJobInput = generateImageFields.extend({
  modelVersionId: z.string(),
  seed: z.number().int(),
})
export type ImageJobInput = z.output<typeof imageJobInput>

/** What an image job uses. */
export interface ImageJobDeps {
  ai: Pick<AiProviders, 'image'>
  /** The model catalog: a catalog `modelId` draws with that model's provider (issue 22). */
  catalog: Pick<ModelCatalog, 'image'>
  env: Pick<Env, 'AI_IMAGE_TIMEOUT_MS' | 'costs'>
  db: Kysely<DB>
  assets: AssetStorage
  documents: DocumentGateway
}

/**
 * Generate Image as a job kind (spec §4; issue 12; issue 21): the image provider draws it
 * (reporting its percent where it can), it is stored as an asset of the project, and placed
 * as an image node 350 to the right of the generator. A catalog model (issue 22) draws with
 * its own provider and costs its own price; any other model id goes to the active provider
 * at `COST_IMAGE`.
 */
export function imageJob(deps: ImageJobDeps): JobKind<ImageJobInput, GenerateImageOutput> {
  const providerFor = (input: ImageJobInput): ImageProvider => {
    if (!input.modelId) return deps.ai.image
    const entry = deps.catalog.image(input.modelId)
    if (!entry) {
      throw new ProviderError(
        'refused',
        'This image model is not available any more. Pick another model and try again.',
      )
    }
    return entry.provider
  }
  return {
    name: 'image',
    input: imageJobInput,
    result: generateImageOutput,
    ledger: { type: 'image_generation', action: 'Image generation' },
    cost: (input) => {
      const entry = input.modelId ? deps.catalog.image(input.modelId) : undefined
      return entry ? modelCredits(entry.model) : deps.env.costs.image
    },
    timeoutMs: () => deps.env.AI_IMAGE_TIMEOUT_MS,
    stages: () => [{ stage: 'image', weight: 1 }],
    firstProgress: () => ({ stage: 'image', done: 0, total: 100 }),
    async produce(input, { job, signal, paid, progress }) {
      const image = await providerFor(input).generateImage(input, signal, (percent) =>
        progress({ stage: 'image', done: percent, total: 100 }),
      )
      await paid()
      const stored = await storeGeneratedImage(deps.db, deps.assets, {
        userId: job.userId,
        projectId: input.projectId,
        image,
      })
      return { imageUrl: stored.url, assetId: stored.assetId, seed: input.seed }
    },
    write(answer, { job, input, state }) {
      const at = job.createdAt.getTime()
      const ids = resultNodeIds(job.id, at, 'image', 1)
      return deps.documents.transact(job.projectId, (doc, origin) => {
        const outcome = writeJobResult(
          doc,
          job.nodeId,
          (source) => imageResult(source, input, answer, at, ids),
          state,
          origin,
        )
        // Issue 42 item 4: what the result was made from, so the node knows when it is stale.
        if (placed(outcome)) stampResultHash(doc, job.nodeId, job.inputHash ?? null, origin)
        return outcome
      })
    },
  }
}
