import type { BatchRecord, DB } from '@reelgraph/db'
import {
  BATCH_MESSAGES,
  BATCHES_LISTED,
  type Batch,
  type BatchList,
  type BatchRow,
  type BatchSummary,
  type TemplateValues,
  videoRenderResult,
} from '@reelgraph/shared'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { getBalance } from '../credits/credit-ledger.ts'
import { cancelJob } from '../jobs/job-service.ts'
import { getTemplate } from '../templates/template-service.ts'
import { newPollToken } from './batch-driver.ts'
import { quoteBatch } from './batch-quote.ts'
import {
  BATCH_ADVANCE_QUEUE,
  type BatchAdvance,
  type BatchEventDeps,
  batchTotals,
  completeIfFinal,
  lockBatch,
  settleRowOfJob,
} from './batch-rows.ts'
import { checkBatchRows, readBatchCsv } from './batch-table.ts'

/**
 * Batch runs from a table (issue 42 item 3): quote, start, read, cancel and retry. A batch is
 * its owner's alone: anyone else gets 404, as for an id that does not exist.
 */

type Deps = Pick<AppDeps, 'db' | 'env' | 'jobs' | 'catalog'>

/** 404 for a batch that does not exist or is someone else's. */
export function batchNotFound(): AppError {
  return new AppError('NOT_FOUND', BATCH_MESSAGES.notFound)
}

function eventDeps(deps: Pick<AppDeps, 'jobs' | 'env'>): BatchEventDeps {
  return { queue: deps.jobs.queue, appUrl: deps.env.APP_URL }
}

/** Locks `userId`'s batch `batchId`. @throws AppError 404 when it is not theirs. */
async function lockOwnBatch(
  trx: Transaction<DB>,
  { userId, batchId }: { userId: number; batchId: number },
): Promise<BatchRecord> {
  const batch = await lockBatch(trx, batchId)
  if (!batch || batch.user_id !== userId) throw batchNotFound()
  return batch
}

/**
 * Quotes a batch of template `templateId` over `rows` (issue 42 item 3): every row checked
 * against the template's variables, then the batch and its rows stored as `quoted` (nothing
 * runs, nothing is charged) with the quote (`quoteBatch`).
 * @returns the batch, status `quoted`
 * @throws AppError 404 for a template the user may not use; 400 naming the rows refused and why
 *   (`checkBatchRows`), or for an animate model no longer listed; nothing is stored then.
 */
export async function createBatch(
  deps: Deps,
  { userId, templateId, rows }: { userId: number; templateId: number; rows: TemplateValues[] },
): Promise<Batch> {
  const template = await getTemplate(deps.db, { userId, templateId })
  checkBatchRows(template.variables, rows)
  const quote = quoteBatch(deps, template.settings, rows.length)
  const batchId = await deps.db.transaction().execute(async (trx) => {
    const batch = await trx
      .insertInto('batches')
      .values({
        user_id: userId,
        template_id: template.id,
        template_name: template.name,
        quote_credits: quote.credits,
        quote_credits_per_row: quote.creditsPerRow,
        quote_seconds: quote.estimatedSeconds,
        quote_concurrency: quote.concurrency,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('batch_rows')
      .values(
        rows.map((values, i) => ({
          batch_id: batch.id,
          row_number: i + 1,
          values: JSON.stringify(values),
        })),
      )
      .execute()
    return batch.id
  })
  return getBatch(deps, { userId, batchId })
}

/**
 * Quotes a batch from a CSV table (`readBatchCsv`: its header names the template's variables),
 * as {@link createBatch} does for rows.
 * @param body the CSV's bytes (the route's body limit keeps it within `BATCH_CSV_MAX_BYTES`)
 * @throws AppError 404 for a template the user may not use (before the table is read); 400 for
 *   a table refused (a missing or unknown column, more than `BATCH_MAX_ROWS` rows, a bad row,
 *   not CSV); nothing is stored then.
 */
export async function createBatchFromCsv(
  deps: Deps,
  { userId, templateId, body }: { userId: number; templateId: number; body: Uint8Array },
): Promise<Batch> {
  const template = await getTemplate(deps.db, { userId, templateId })
  const rows = await readBatchCsv(body, template.variables)
  return createBatch(deps, { userId, templateId, rows })
}

/** A batch's answer without its rows. */
async function summaryOf(db: Kysely<DB>, batch: BatchRecord): Promise<BatchSummary> {
  const { counts, spentCredits } = await batchTotals(db, batch.id)
  return {
    id: batch.id,
    templateId: batch.template_id,
    templateName: batch.template_name,
    status: batch.status,
    quote: {
      credits: batch.quote_credits,
      creditsPerRow: batch.quote_credits_per_row,
      estimatedSeconds: batch.quote_seconds,
      concurrency: batch.quote_concurrency,
    },
    spentCredits,
    counts,
    createdAt: batch.created_at.toISOString(),
    startedAt: batch.started_at?.toISOString() ?? null,
    finishedAt: batch.finished_at?.toISOString() ?? null,
    zipUrl: counts.succeeded > 0 ? `/api/batches/${batch.id}/files.zip` : null,
  }
}

/** What a row is doing, in words, when its job does not say. */
function stageOf(status: BatchRow['status'], jobStage: string | null, jobStatus: string | null) {
  if (status === 'queued') return 'Waiting for its turn'
  if (status !== 'running') return ''
  if (jobStage) return jobStage
  return jobStatus === 'queued' || jobStatus === null ? 'Starting' : ''
}

/**
 * Batch `batchId` as its owner sees it (issue 42 item 3): the quote, the state, the credits
 * spent so far after refunds, the rows counted by state, and each row with its state, its
 * progress and stage (read from its Make video job), its credits (earlier attempts plus its
 * job's charge less refunds), its project, its MP4 and SRT and first scene's picture once it
 * succeeded, and why it failed.
 * @throws AppError 404 when it is not the user's
 */
export async function getBatch(
  deps: Pick<AppDeps, 'db'>,
  { userId, batchId }: { userId: number; batchId: number },
): Promise<Batch> {
  const batch = await deps.db
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', batchId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!batch) throw batchNotFound()
  const rows = await deps.db
    .selectFrom('batch_rows as r')
    .leftJoin('generation_jobs as j', 'j.id', 'r.job_id')
    .select([
      'r.row_number',
      'r.values',
      'r.status',
      'r.project_id',
      'r.project_name',
      'r.job_id',
      'r.spent_before',
      'r.error',
      'j.status as jobStatus',
      'j.progress',
      'j.stage',
      'j.cost',
      'j.refunded',
      'j.result',
    ])
    .where('r.batch_id', '=', batchId)
    .orderBy('r.row_number')
    .execute()
  const done = rows
    .filter((r) => r.status === 'succeeded' && r.project_id !== null)
    .map((r) => r.project_id!)
  // The first scene's picture: the project's first image (the chain draws scene 1 first).
  const thumbnails =
    done.length === 0
      ? []
      : await deps.db
          .selectFrom('assets')
          .select(['project_id', 'id'])
          .distinctOn('project_id')
          .where('project_id', 'in', done)
          .where('mime_type', 'like', 'image/%')
          .orderBy('project_id')
          .orderBy('created_at')
          .orderBy('id')
          .execute()
  const thumbnailOf = new Map(thumbnails.map((t) => [t.project_id, `/api/assets/${t.id}`]))
  const summary = await summaryOf(deps.db, batch)
  return {
    ...summary,
    rows: rows.map((r): BatchRow => {
      const render = r.status === 'succeeded' ? videoRenderResult.safeParse(r.result) : null
      const jobCredits = r.cost === null ? 0 : r.cost - (r.refunded ?? 0)
      return {
        row: r.row_number,
        values: r.values as Record<string, string>,
        status: r.status,
        progress:
          r.status === 'succeeded' ? 1 : r.status === 'running' ? (r.progress ?? 0) / 100 : 0,
        stage: stageOf(r.status, r.stage, r.jobStatus),
        projectId: r.project_id,
        projectName: r.project_name,
        jobId: r.job_id,
        credits: r.spent_before + jobCredits,
        mp4Url: render?.success ? render.data.mp4Url : null,
        srtUrl: render?.success ? render.data.srtUrl : null,
        thumbnailUrl:
          r.status === 'succeeded' && r.project_id !== null
            ? (thumbnailOf.get(r.project_id) ?? null)
            : null,
        error: r.status === 'failed' ? r.error : null,
      }
    }),
  }
}

/**
 * `userId`'s batches, newest first, at most `BATCHES_LISTED`, without their rows.
 * @see issue 42 item 3
 */
export async function listBatches(
  db: Kysely<DB>,
  { userId }: { userId: number },
): Promise<BatchList> {
  const batches = await db
    .selectFrom('batches')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(BATCHES_LISTED)
    .execute()
  return { batches: await Promise.all(batches.map((b) => summaryOf(db, b))) }
}

/**
 * Starts quoted batch `batchId` (issue 42 item 3): when the balance covers the quote, the batch
 * runs and its rows are queued; the driver (`batch-driver.ts`) starts them a few at a time,
 * each charged when its Make video job is submitted.
 * @throws AppError 404 when it is not the user's; 400 when it is not quoted any more
 *   (`notQuoted`); 402 `INSUFFICIENT_CREDITS` when the balance is below the quote (nothing
 *   changes).
 */
export async function startBatch(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  { userId, batchId }: { userId: number; batchId: number },
): Promise<Batch> {
  // The job system (pg-boss and this process's workers, the driver's among them) starts
  // lazily; on PGlite its start inside the transaction below would wait for the transaction.
  await deps.jobs.start()
  await deps.db.transaction().execute(async (trx) => {
    const batch = await lockOwnBatch(trx, { userId, batchId })
    if (batch.status !== 'quoted') throw new AppError('BAD_REQUEST', BATCH_MESSAGES.notQuoted)
    const balance = (await getBalance(trx, userId)).total
    if (balance < batch.quote_credits) {
      throw new AppError(
        'INSUFFICIENT_CREDITS',
        BATCH_MESSAGES.notEnoughCredits(batch.quote_credits, balance),
      )
    }
    const pollToken = newPollToken()
    await trx
      .updateTable('batch_rows')
      .set({ status: 'queued' })
      .where('batch_id', '=', batchId)
      .where('status', '=', 'quoted')
      .execute()
    await trx
      .updateTable('batches')
      .set({ status: 'running', started_at: sql`now()`, poll_token: pollToken })
      .where('id', '=', batchId)
      .execute()
    await deps.jobs.queue.sendTask(trx, BATCH_ADVANCE_QUEUE, {
      batchId,
      pollToken,
    } satisfies BatchAdvance)
  })
  return getBatch(deps, { userId, batchId })
}

/**
 * Cancels batch `batchId` (issue 42 item 3): rows not started are cancelled, every running
 * row's job is cancelled (the job system refunds what it did not deliver) and the row ends as
 * its job did; rows that are final stay as they are. A batch already done or cancelled is
 * answered as it is.
 * @throws AppError 404 when it is not the user's
 */
export async function cancelBatch(
  deps: Pick<AppDeps, 'db' | 'jobs' | 'env'>,
  { userId, batchId }: { userId: number; batchId: number },
): Promise<Batch> {
  // The job system (pg-boss and this process's workers, the driver's among them) starts
  // lazily; on PGlite its start inside the transaction below would wait for the transaction.
  await deps.jobs.start()
  const running = await deps.db.transaction().execute(async (trx) => {
    const batch = await lockOwnBatch(trx, { userId, batchId })
    if (batch.status === 'done' || batch.status === 'cancelled') return []
    await trx
      .updateTable('batches')
      .set({ status: 'cancelled', poll_token: null })
      .where('id', '=', batchId)
      .execute()
    await trx
      .updateTable('batch_rows')
      .set({ status: 'cancelled', finished_at: sql`now()` })
      .where('batch_id', '=', batchId)
      .where('status', 'in', ['quoted', 'queued'])
      .execute()
    await completeIfFinal(trx, eventDeps(deps), batchId)
    return trx
      .selectFrom('batch_rows')
      .select('job_id')
      .where('batch_id', '=', batchId)
      .where('status', '=', 'running')
      .where('job_id', 'is not', null)
      .execute()
  })
  // A row still starting has no job yet: the driver cancels its job once it records it.
  for (const { job_id } of running) {
    const job = await cancelJob(deps, { userId, jobId: job_id! })
    await deps.db.transaction().execute((trx) => settleRowOfJob(trx, eventDeps(deps), job))
  }
  return getBatch(deps, { userId, batchId })
}

/**
 * Runs batch `batchId`'s failed rows again (issue 42 item 3), each charged again when its new
 * job is submitted (what the failed attempt kept after its refund stays in the row's credits):
 * after a balance check for the failed rows at the quote's credits per row, they are queued on
 * the project each made, the batch runs again and will send `batch.completed` again.
 * @throws AppError 404 when it is not the user's; 400 for a batch not started, cancelled, or
 *   without a failed row; 402 when the balance is below what the failed rows cost.
 */
export async function retryBatch(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  { userId, batchId }: { userId: number; batchId: number },
): Promise<Batch> {
  // The job system (pg-boss and this process's workers, the driver's among them) starts
  // lazily; on PGlite its start inside the transaction below would wait for the transaction.
  await deps.jobs.start()
  await deps.db.transaction().execute(async (trx) => {
    const batch = await lockOwnBatch(trx, { userId, batchId })
    if (batch.status === 'quoted') throw new AppError('BAD_REQUEST', BATCH_MESSAGES.retryQuoted)
    if (batch.status === 'cancelled') {
      throw new AppError('BAD_REQUEST', BATCH_MESSAGES.retryCancelled)
    }
    const failed = await trx
      .selectFrom('batch_rows as r')
      .leftJoin('generation_jobs as j', 'j.id', 'r.job_id')
      .select(['r.id', sql<number>`coalesce(j.cost - j.refunded, 0)`.as('kept')])
      .where('r.batch_id', '=', batchId)
      .where('r.status', '=', 'failed')
      .execute()
    if (failed.length === 0) throw new AppError('BAD_REQUEST', BATCH_MESSAGES.nothingToRetry)
    const needed = failed.length * batch.quote_credits_per_row
    const balance = (await getBalance(trx, userId)).total
    if (balance < needed) {
      throw new AppError('INSUFFICIENT_CREDITS', BATCH_MESSAGES.notEnoughCredits(needed, balance))
    }
    for (const row of failed) {
      await trx
        .updateTable('batch_rows')
        .set((eb) => ({
          status: 'queued',
          spent_before: eb('spent_before', '+', Number(row.kept)),
          job_id: null,
          error: null,
          started_at: null,
          finished_at: null,
        }))
        .where('id', '=', row.id)
        .execute()
    }
    const pollToken = newPollToken()
    await trx
      .updateTable('batches')
      .set({
        status: 'running',
        finished_at: null,
        completed_event_sent: false,
        poll_token: pollToken,
      })
      .where('id', '=', batchId)
      .execute()
    await deps.jobs.queue.sendTask(trx, BATCH_ADVANCE_QUEUE, {
      batchId,
      pollToken,
    } satisfies BatchAdvance)
  })
  return getBatch(deps, { userId, batchId })
}
