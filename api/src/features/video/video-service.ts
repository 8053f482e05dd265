import { SPEECH_TEXT_MAX_CHARS } from '@reelgraph/media'
import { collectVideoInputs, docToGraph, videoRenderCost } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { submitGeneration } from '../jobs/job-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { requireProjectRole } from '../projects/project-access.ts'
import type { VideoJobInput } from './video-job.ts'

/**
 * Submits the render of Video node `nodeId` (issue 13 item 4): checks the role, collects its
 * scenes from the live document on the server (scenes connected to it, or a connected text
 * node's scenes, in `sceneNumber` order, each with its narration and image), and submits a
 * `video` job charged COST_VIDEO + COST_VOICE per scene.
 * @throws AppError 404/403 for a project the user may not edit; 404 for a node that is no
 *   Video node; 400 without scenes, with scenes that have no image (`fields`: scene node id
 *   -> what is missing) or a narration too long to speak; 402 when the user cannot pay.
 */
export async function submitVideoRender(
  deps: Pick<AppDeps, 'db' | 'env' | 'jobs' | 'documents' | 'logger' | 'tasks'>,
  userId: number,
  target: { projectId: number; nodeId: string },
): Promise<JobRow> {
  const { projectId, nodeId } = target
  await requireProjectRole(deps.db, userId, projectId, 'editor')
  const graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
  const inputs = collectVideoInputs(graph, nodeId)
  if (!inputs) throw new AppError('NOT_FOUND', 'This Video node does not exist.')
  if (inputs.scenes.length === 0) {
    throw new AppError(
      'BAD_REQUEST',
      'Connect scenes, or a text node with scenes, to the Video node first.',
    )
  }
  if (inputs.missing.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `Scenes without an image: ${inputs.missing.map((s) => s.sceneNumber).join(', ')}. Generate an image for each (scene -> image generator -> image).`,
      {
        fields: Object.fromEntries(
          inputs.missing.map((s) => [s.nodeId, `Scene ${s.sceneNumber} has no image.`]),
        ),
      },
    )
  }
  const tooLong = inputs.scenes.find((s) => s.narration.length > SPEECH_TEXT_MAX_CHARS)
  if (tooLong) {
    throw new AppError(
      'BAD_REQUEST',
      `The narration of scene ${tooLong.sceneNumber} is longer than ${SPEECH_TEXT_MAX_CHARS} characters.`,
    )
  }
  const input: VideoJobInput = {
    projectId,
    nodeId,
    ...inputs.settings,
    scenes: inputs.scenes,
    inputHash: inputs.hash,
  }
  return submitGeneration(deps, {
    userId,
    kind: 'video',
    input: input as unknown as Record<string, unknown>,
    projectId,
    nodeId,
    cost: videoRenderCost(deps.env.costs, inputs.scenes.length),
    description: `Video: ${inputs.scenes.length} scenes`,
  })
}
