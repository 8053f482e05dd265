import type { DB } from '@reelgraph/db'
import {
  type DocumentGateway,
  generateImageInput,
  type GenerateImageOutput,
  generateImageOutput,
  imageResult,
  resultNodeIds,
  writeJobResult,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { Env } from '../../env.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import type { JobKind } from '../jobs/job-kind.ts'
import type { AiProviders } from './providers/types.ts'

/** An image job's input: the call's body, its seed chosen (a retry draws the same image). */
export const imageJobInput = generateImageInput.extend({ seed: z.number().int() })
export type ImageJobInput = z.output<typeof imageJobInput>

/** What an image job uses. */
export interface ImageJobDeps {
  ai: Pick<AiProviders, 'image'>
  env: Pick<Env, 'AI_IMAGE_TIMEOUT_MS' | 'costs'>
  db: Kysely<DB>
  assets: AssetStorage
  documents: DocumentGateway
}

/**
 * Generate Image as a job kind (spec §4; issue 12; issue 21): the image provider draws it
 * (reporting its percent where it can), it is stored as an asset of the project, and placed
 * as an image node 350 to the right of the generator.
 */
export function imageJob(deps: ImageJobDeps): JobKind<ImageJobInput, GenerateImageOutput> {
  return {
    name: 'image',
    input: imageJobInput,
    result: generateImageOutput,
    ledger: { type: 'image_generation', action: 'Image generation' },
    cost: () => deps.env.costs.image,
    timeoutMs: () => deps.env.AI_IMAGE_TIMEOUT_MS,
    stages: [{ stage: 'image', weight: 1 }],
    firstProgress: () => ({ stage: 'image', done: 0, total: 100 }),
    async produce(input, { job, signal, paid, progress }) {
      const image = await deps.ai.image.generateImage(input, signal, (percent) =>
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
      return deps.documents.transact(job.projectId, (doc, origin) =>
        writeJobResult(
          doc,
          job.nodeId,
          (source) => imageResult(source, input, answer, at, ids),
          state,
          origin,
        ),
      )
    },
  }
}
