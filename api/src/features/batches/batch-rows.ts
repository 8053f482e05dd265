import type { DB } from '@reelgraph/db'
import {
  BATCH_ROW_FINAL,
  BATCH_ROW_STATUSES,
  type BatchRowStatus,
  type BatchStatus,
} from '@reelgraph/shared'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { GenerationQueue } from '../jobs/job-queue.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { recordBatchCompleted } from '../webhooks/batch-events.ts'

/**
 * A batch's rows as their jobs end (issue 42 item 3): the one place a running row becomes
 * final, and the batch done with its `batch.completed` event, in the transaction that ends its
 * last row. Every writer locks the batch's row first, then its rows (one lock order), so two
 * rows ending at once cannot both miss being the last.
 */

/** The pg-boss queue of the batch driver (`batch-driver.ts`). */
export const BATCH_ADVANCE_QUEUE = 'batch-advance'

/** What the driver's queue is sent: a batch, and for its poll chain the batch's poll token. */
export interface BatchAdvance {
  batchId: number
  pollToken?: string
}

/** What ending a row needs besides the transaction: the queue and the app's public URL. */
export interface BatchEventDeps {
  queue: GenerationQueue
  /** `APP_URL`, no trailing slash: the event's URLs are absolute. */
  appUrl: string
}

const FINAL = [...BATCH_ROW_FINAL]

/** Locks batch `batchId`'s row; undefined when it is gone. */
export function lockBatch(trx: Transaction<DB>, batchId: number) {
  return trx
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', batchId)
    .forUpdate()
    .executeTakeFirst()
}

/** A row's state as its job's status says. */
function rowStatusOf(job: Pick<JobRow, 'status'>): BatchRowStatus | null {
  switch (job.status) {
    case 'succeeded':
      return 'succeeded'
    case 'failed':
      return 'failed'
    case 'cancelled':
      return 'cancelled'
    default:
      return null
  }
}

/**
 * Ends the running row whose current job is `job`, as the job ended (succeeded, failed with
 * its message, cancelled), inside `trx`; then queues the driver to start the next rows, and
 * completes the batch when this was its last open row ({@link completeIfFinal}).
 * @returns the row's batch id, or null when no running row has this job (not a batch's, or
 *   already ended) or the job has not ended.
 * @see issue 42 item 3
 */
export async function settleRowOfJob(
  trx: Transaction<DB>,
  deps: BatchEventDeps,
  job: Pick<JobRow, 'id' | 'status' | 'message'>,
): Promise<number | null> {
  const status = rowStatusOf(job)
  if (!status) return null
  const row = await trx
    .selectFrom('batch_rows')
    .select(['id', 'batch_id'])
    .where('job_id', '=', job.id)
    .where('status', '=', 'running')
    .executeTakeFirst()
  if (!row) return null
  await lockBatch(trx, row.batch_id)
  const ended = await trx
    .updateTable('batch_rows')
    .set({
      status,
      error: status === 'failed' ? (job.message ?? 'The video could not be made.') : null,
      finished_at: sql`now()`,
    })
    .where('id', '=', row.id)
    .where('status', '=', 'running')
    .executeTakeFirst()
  if (ended.numUpdatedRows === 0n) return null
  await deps.queue.sendTask(trx, BATCH_ADVANCE_QUEUE, {
    batchId: row.batch_id,
  } satisfies BatchAdvance)
  await completeIfFinal(trx, deps, row.batch_id)
  return row.batch_id
}

/**
 * Fails running row `rowId` (its start was refused: no credits left, the template gone) with
 * `error`, and completes the batch when it was the last open row. Locks the batch first.
 * @returns whether the row was still running.
 */
export async function failStartingRow(
  trx: Transaction<DB>,
  deps: BatchEventDeps,
  { batchId, rowId, error }: { batchId: number; rowId: number; error: string },
): Promise<boolean> {
  await lockBatch(trx, batchId)
  const failed = await trx
    .updateTable('batch_rows')
    .set({ status: 'failed', error, finished_at: sql`now()` })
    .where('id', '=', rowId)
    .where('status', '=', 'running')
    .executeTakeFirst()
  if (failed.numUpdatedRows === 0n) return false
  await completeIfFinal(trx, deps, batchId)
  return true
}

/** A batch's rows counted by state, and the credits they spent after refunds. */
export interface BatchTotals {
  counts: Record<BatchRowStatus, number>
  spentCredits: number
}

/**
 * The rows of batch `batchId` counted by state and the credits spent: each row's earlier
 * attempts (`spent_before`) plus its current job's charge less its refund.
 */
export async function batchTotals(db: Kysely<DB>, batchId: number): Promise<BatchTotals> {
  const rows = await db
    .selectFrom('batch_rows as r')
    .leftJoin('generation_jobs as j', 'j.id', 'r.job_id')
    .select((eb) => [
      'r.status',
      eb.fn.countAll<string>().as('n'),
      sql<string>`coalesce(sum(r.spent_before + coalesce(j.cost - j.refunded, 0)), 0)`.as('spent'),
    ])
    .where('r.batch_id', '=', batchId)
    .groupBy('r.status')
    .execute()
  const counts = Object.fromEntries(BATCH_ROW_STATUSES.map((s) => [s, 0])) as Record<
    BatchRowStatus,
    number
  >
  let spentCredits = 0
  for (const row of rows) {
    counts[row.status] = Number(row.n)
    spentCredits += Number(row.spent)
  }
  return { counts, spentCredits }
}

/**
 * When every row of batch `batchId` is final: marks the batch done (a cancelled one stays
 * cancelled), ends its poll chain, and records `batch.completed` for its owner's endpoints, once
 * per completion (`completed_event_sent`; a retry clears it). Call with the batch locked.
 * @returns whether the batch completed now.
 * @see issue 42 item 3
 */
export async function completeIfFinal(
  trx: Transaction<DB>,
  deps: BatchEventDeps,
  batchId: number,
): Promise<boolean> {
  const open = await trx
    .selectFrom('batch_rows')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('batch_id', '=', batchId)
    .where('status', 'not in', FINAL)
    .executeTakeFirstOrThrow()
  if (Number(open.n) > 0) return false
  const batch = await trx
    .updateTable('batches')
    .set({
      status: sql<BatchStatus>`case when status = 'cancelled' then 'cancelled' else 'done' end`,
      finished_at: sql`now()`,
      completed_event_sent: true,
      poll_token: null,
    })
    .where('id', '=', batchId)
    .where('completed_event_sent', '=', false)
    .where('status', 'in', ['running', 'cancelled'])
    .returningAll()
    .executeTakeFirst()
  if (!batch) return false
  const { counts, spentCredits } = await batchTotals(trx, batchId)
  const batchPath = `/api/batches/${batchId}`
  const absolute = (path: string) => new URL(path, `${deps.appUrl}/`).href
  await recordBatchCompleted(trx, deps.queue, {
    userId: batch.user_id,
    at: new Date(),
    data: {
      batchId,
      templateId: batch.template_id,
      status: batch.status,
      counts,
      spentCredits,
      batchUrl: absolute(batchPath),
      zipUrl: counts.succeeded > 0 ? absolute(`${batchPath}/files.zip`) : null,
    },
  })
  return true
}
