import {
  type GenerateImageRequest,
  type GenerateScenesInput,
  type GenerateScriptInput,
  IMAGE_SEED_MAX,
} from '@reelgraph/shared'
import { AppError } from '../../lib/app-error.ts'
import { type JobServiceDeps, submitGeneration } from '../jobs/job-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import type { ModelCatalog } from './catalog/types.ts'

/**
 * Generation submissions shared by REST's routes and the MCP server (issue 41 item 2). Every
 * generation runs as a durable job (issue 12): the charge, the provider call, retries and
 * refunds live in `features/jobs/` (`submitGeneration`, the worker's `runGenerationJob`).
 */

/** A random seed from 0 to `max` (spec §5: used when the seed is empty). */
export function randomSeed(max: number): number {
  return Math.floor(Math.random() * (max + 1))
}

/** Who submits a generation, what, and the Idempotency-Key it came with. */
export interface GenerationSubmission<T> {
  userId: number
  input: T
  idempotencyKey?: string | undefined
}

/**
 * Submits a script job (`POST /api/ai/generate-script`, the MCP server's `run_node`): a
 * random seed when the call has none, so each regeneration drafts anew and a retried job
 * repeats (issue 14 item 10).
 * @throws AppError as `submitGeneration` (404/403 target, 402 credits, 400 key)
 */
export async function submitScript(
  deps: JobServiceDeps,
  { userId, input, idempotencyKey }: GenerationSubmission<GenerateScriptInput>,
): Promise<JobRow> {
  return submitGeneration(deps, {
    userId,
    kind: 'script',
    input: { ...input, seed: input.seed ?? randomSeed(IMAGE_SEED_MAX) },
    projectId: input.projectId,
    nodeId: input.nodeId,
    description: `Script: ${input.topic.slice(0, 80)}`,
    idempotencyKey,
  })
}

/**
 * Submits a scenes job (`POST /api/ai/generate-scenes`, `run_node` on a text node), with a
 * random seed when the call has none.
 * @throws AppError as `submitGeneration`
 */
export async function submitScenes(
  deps: JobServiceDeps,
  { userId, input, idempotencyKey }: GenerationSubmission<GenerateScenesInput>,
): Promise<JobRow> {
  return submitGeneration(deps, {
    userId,
    kind: 'scenes',
    input: { ...input, seed: input.seed ?? randomSeed(IMAGE_SEED_MAX) },
    projectId: input.projectId,
    nodeId: input.nodeId,
    description: `${input.sceneCount} scenes`,
    idempotencyKey,
  })
}

/**
 * The catalog model an image request names (issue 22 item 3): `modelId`, or a
 * `modelVersionId` that is a catalog id; undefined for a provider's own version id (old
 * clients), which the active image provider draws.
 * @throws AppError VALIDATION_FAILED when `modelId` names no listed image model.
 */
function catalogImageModel(
  catalog: Pick<ModelCatalog, 'image'>,
  input: { modelId?: string | undefined; modelVersionId: string },
): string | undefined {
  if (input.modelId) {
    if (catalog.image(input.modelId)) return input.modelId
    const message = 'This image model is not available: pick one from the list.'
    throw new AppError('VALIDATION_FAILED', message, { fields: { modelId: message } })
  }
  return catalog.image(input.modelVersionId) ? input.modelVersionId : undefined
}

/**
 * Submits an image job (`POST /api/csas/generate-image`, `run_node` on an image generator):
 * drawn with the catalog model it names at that model's price, any other version id with the
 * active image provider; the seed chosen once, so a retried attempt draws the same image.
 * @throws AppError 400 for a catalog model that is not listed; as `submitGeneration`
 */
export async function submitImage(
  deps: JobServiceDeps & { catalog: Pick<ModelCatalog, 'image'> },
  { userId, input, idempotencyKey }: GenerationSubmission<GenerateImageRequest>,
): Promise<JobRow> {
  const modelId = catalogImageModel(deps.catalog, input)
  const seed = input.seed ?? randomSeed(IMAGE_SEED_MAX)
  return submitGeneration(deps, {
    userId,
    kind: 'image',
    input: { ...input, modelId, seed },
    projectId: input.projectId,
    nodeId: input.nodeId,
    description: `Image ${input.width}x${input.height}`,
    idempotencyKey,
  })
}
