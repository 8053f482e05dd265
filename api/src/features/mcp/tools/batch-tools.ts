import { type Batch, TOKEN_MESSAGES } from '@reelgraph/shared'
import { AppError } from '../../../lib/app-error.ts'
import { allowedProjectIds } from '../../access/project-limit.ts'
import {
  cancelBatch,
  createBatch,
  getBatch,
  retryBatch,
  startBatch,
} from '../../batches/batch-service.ts'
import { absoluteUrl, defineTool } from '../mcp-tool.ts'

/**
 * The batch tools (issue 42 item 3; issue 42: "batches are driven by tokens and MCP too"): the
 * same services as `/api/batches`, refused to a project-limited token as the routes refuse it
 * (a batch makes projects).
 */

/**
 * Throws the REST routes' 403 for a token limited to some projects (the call runs inside
 * `withProjectLimit`, so the limit is the token's).
 * @throws AppError 403 FORBIDDEN with `TOKEN_MESSAGES.projectLimited`
 */
function refuseProjectLimited(): void {
  if (allowedProjectIds() !== null) throw new AppError('FORBIDDEN', TOKEN_MESSAGES.projectLimited)
}

const orNull = (origin: string, path: string | null) =>
  path === null ? null : absoluteUrl(origin, path)

/**
 * `batch` as the batch tools answer it (issue 42 item 3): `GET /api/batches/:id`'s JSON with
 * its file URLs (each row's MP4, SRT and thumbnail, the ZIP) absolute on the origin the agent
 * reached, to fetch with its `Authorization: Bearer` header, as `job-answer.ts` does for jobs.
 */
export function batchAnswer(batch: Batch, origin: string): Record<string, unknown> {
  return {
    ...batch,
    zipUrl: orNull(origin, batch.zipUrl),
    rows: batch.rows.map((row) => ({
      ...row,
      mp4Url: orNull(origin, row.mp4Url),
      srtUrl: orNull(origin, row.srtUrl),
      thumbnailUrl: orNull(origin, row.thumbnailUrl),
    })),
  }
}

/** What every answer of a batch carries for the agent's next step. */
const FOLLOW =
  'Follow it with get_batch every few seconds until its status is done or cancelled: each row’s status, progress (0..1), stage, credits, project and, once it succeeded, its MP4 and SRT URLs.'

export const createBatchTool = defineTool({
  name: 'create_batch',
  title: 'Quote a batch of videos',
  description: `Quotes one video per row of values with a template (list_templates names its variables): answers the batch (status quoted) with \`quote\`: the credits of every row's Make video, credits per row, the estimated seconds and how many rows run at once. Nothing runs and nothing is charged until start_batch. A bad row (a value missing, empty, too long, not a picture) is a tool error naming it ("Row 3: …"), and nothing is stored. Not for a token limited to some projects (a batch makes projects).`,
  readOnly: false,
  async run({ templateId, rows }, { deps, actor, origin }) {
    refuseProjectLimited()
    return batchAnswer(await createBatch(deps, { userId: actor.user.id, templateId, rows }), origin)
  },
})

export const startBatchTool = defineTool({
  name: 'start_batch',
  title: 'Start a quoted batch',
  description: `Starts a quoted batch: each row becomes a project named from its values and a Make video job, a few at a time, each charged when it is submitted; a failed row is refunded. A tool error when your balance is below the quote (get_credits) or the batch already started. ${FOLLOW}`,
  readOnly: false,
  async run({ batchId }, { deps, actor, origin }) {
    refuseProjectLimited()
    return batchAnswer(await startBatch(deps, { userId: actor.user.id, batchId }), origin)
  },
})

export const getBatchTool = defineTool({
  name: 'get_batch',
  title: 'Follow a batch',
  description: `A batch: its status (quoted, running, done, cancelled), quote, credits spent after refunds, counts of rows by state, and every row: its values, status, progress (0..1) and stage, credits, project and job, why it failed, and once it succeeded its MP4, SRT and thumbnail as absolute URLs to download with your Authorization header (zipUrl: all of them in one ZIP). Call it again every few seconds until the status is done or cancelled; retry_batch runs failed rows again.`,
  readOnly: true,
  async run({ batchId }, { deps, actor, origin }) {
    refuseProjectLimited()
    return batchAnswer(await getBatch(deps, { userId: actor.user.id, batchId }), origin)
  },
})

export const cancelBatchTool = defineTool({
  name: 'cancel_batch',
  title: 'Cancel a batch',
  description:
    'Cancels a batch: rows not started are cancelled and running rows’ jobs stopped, each refunded what it did not deliver; finished rows stay as they are. Answers the batch.',
  readOnly: false,
  destructive: true,
  async run({ batchId }, { deps, actor, origin }) {
    refuseProjectLimited()
    return batchAnswer(await cancelBatch(deps, { userId: actor.user.id, batchId }), origin)
  },
})

export const retryBatchTool = defineTool({
  name: 'retry_batch',
  title: 'Retry a batch’s failed rows',
  description: `Runs a batch's failed rows again, each charged again (their first attempt was refunded). A tool error when no row failed, the batch was cancelled or not started, or your balance is short. ${FOLLOW}`,
  readOnly: false,
  async run({ batchId }, { deps, actor, origin }) {
    refuseProjectLimited()
    return batchAnswer(await retryBatch(deps, { userId: actor.user.id, batchId }), origin)
  },
})
