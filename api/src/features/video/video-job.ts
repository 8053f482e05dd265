import { type VideoRenderResult, videoRenderCost, videoRenderResult } from '@reelgraph/shared'
import type { Env } from '../../env.ts'
import type { JobKind } from '../jobs/job-kind.ts'
import { RENDER_STAGES, type RenderDeps, renderScenes } from './render-scenes.ts'
import { type VideoJobInput, videoJobInput } from './video-job-input.ts'
import { discardVideoFiles, type VideoResultDeps, writeVideoResult } from './video-result.ts'

/** What a render job uses. */
export type VideoJobDeps = RenderDeps &
  VideoResultDeps & { env: RenderDeps['env'] & Pick<Env, 'costs'> }

/**
 * A Video node's render as a job kind (issue 13 item 4; issue 21): charged COST_VIDEO plus
 * COST_VOICE per narration not in the narration cache, our own compute (never "paid": a cancel or failure refunds it whole),
 * written onto the Video node as its newest take.
 */
export function videoJob(deps: VideoJobDeps): JobKind<VideoJobInput, VideoRenderResult> {
  return {
    name: 'video',
    input: videoJobInput,
    result: videoRenderResult,
    ledger: { type: 'video_generation', action: 'Video render' },
    cost: (input) => videoRenderCost(deps.env.costs, input.voicesCharged),
    timeoutMs: () => deps.env.VIDEO_RENDER_TIMEOUT_MS,
    stages: () => RENDER_STAGES,
    firstProgress: (input) => ({ stage: 'voices', done: 0, total: input.scenes.length }),
    produce: (input, { job, signal, progress }) =>
      renderScenes(deps, { userId: job.userId, input, signal, progress }),
    write: (result, { job, state }) =>
      writeVideoResult(
        deps,
        { projectId: job.projectId, videoId: job.nodeId, stateNodeId: job.nodeId },
        result,
        state,
      ),
    discard: (result) => discardVideoFiles(deps, [result]),
  }
}
