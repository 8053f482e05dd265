import type { DB } from '@reelgraph/db'
import { type GenerateVideoRequest, IMAGE_SEED_MAX, nearestDuration } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { AppError } from '../../lib/app-error.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { findAsset, readProjectImage } from '../assets/asset-service.ts'
import { type JobServiceDeps, submitGeneration } from '../jobs/job-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import type { ModelCatalog } from './catalog/types.ts'
import { requireVideoModel } from './clip-job.ts'
import { randomSeed } from './generation-service.ts'

/** What submitting a clip uses. */
export interface ClipServiceDeps extends JobServiceDeps {
  db: Kysely<DB>
  assets: AssetStorage
  catalog: ModelCatalog
}

/**
 * Checks that `url` names an image of project `projectId` that `userId` may read.
 * @throws AppError 404 for an asset the user may not read (a stranger's); 400 for an asset of
 *   another project or one that is not an image.
 */
async function requireProjectImage(
  deps: Pick<ClipServiceDeps, 'db' | 'assets'>,
  {
    userId,
    projectId,
    url,
    what,
  }: { userId: number; projectId: number; url: string; what: string },
): Promise<void> {
  await findAsset(deps.db, { userId, assetId: url.split('/').pop()! })
  if (!(await readProjectImage(deps.db, deps.assets, projectId, url))) {
    throw new AppError('BAD_REQUEST', `${what} must be an image of this project.`)
  }
}

/**
 * Submits a clip (issue 22 item 5) as a `clip` job: the model must be in the catalog and take
 * what is asked (a start image, a last frame, the aspect ratio, sound); `imageUrl` and
 * `lastFrameUrl` must be images of the project the caller may read (nothing is ever fetched
 * from an address a user typed); the length becomes the nearest the model makes; the seed is
 * chosen once (a retry draws the same clip); charged the model's price for that length.
 * @throws AppError 400 for a model that is not listed or cannot do what is asked, or an
 *   image that is not one of the project's; 404 for a project or asset the user may not read;
 *   403 for a viewer; 402 when the user cannot pay.
 */
export async function submitClip(
  deps: ClipServiceDeps,
  request: { userId: number; input: GenerateVideoRequest; idempotencyKey?: string | undefined },
): Promise<JobRow> {
  const { userId, input } = request
  const { model } = requireVideoModel(deps.catalog, input.modelId)
  const caps = model.capabilities
  if (!caps) throw new AppError('BAD_REQUEST', `${model.name} does not make clips.`)
  if (input.imageUrl && !caps.imageToVideo) {
    throw new AppError(
      'BAD_REQUEST',
      `${model.name} makes clips from a prompt only, not from an image.`,
    )
  }
  if (!input.imageUrl && !caps.textToVideo) {
    throw new AppError(
      'BAD_REQUEST',
      `${model.name} starts from an image: connect an image node to the Video Generator.`,
    )
  }
  if (input.lastFrameUrl && !caps.lastFrame) {
    throw new AppError('BAD_REQUEST', `${model.name} takes no last frame.`)
  }
  if (!caps.aspectRatios.includes(input.aspectRatio)) {
    throw new AppError(
      'BAD_REQUEST',
      `${model.name} makes ${caps.aspectRatios.join(', ')} clips, not ${input.aspectRatio}.`,
    )
  }
  if (input.withAudio && !caps.audio) {
    throw new AppError('BAD_REQUEST', `${model.name} makes no sound: turn "with sound" off.`)
  }
  for (const [url, what] of [
    [input.imageUrl, 'The start image'],
    [input.lastFrameUrl, 'The last frame'],
  ] as const) {
    if (url) await requireProjectImage(deps, { userId, projectId: input.projectId, url, what })
  }
  const durationSeconds = nearestDuration(caps, input.durationSeconds)
  return submitGeneration(deps, {
    userId,
    kind: 'clip',
    input: { ...input, durationSeconds, seed: input.seed ?? randomSeed(IMAGE_SEED_MAX) },
    projectId: input.projectId,
    nodeId: input.nodeId,
    description: `Clip: ${model.name}, ${durationSeconds} s`,
    idempotencyKey: request.idempotencyKey,
  })
}
