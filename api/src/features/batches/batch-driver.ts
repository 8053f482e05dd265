import { randomUUID } from 'node:crypto'
import type { BatchRowRecord } from '@reelgraph/db'
import {
  BATCH_MESSAGES,
  makeVideoInput,
  type MakeVideoInput,
  templateProjectName,
} from '@reelgraph/shared'
import { sql } from 'kysely'
import type { Logger } from 'pino'
import { z } from 'zod'
import type { WorkerDeps } from '../../app-env.ts'
import { BATCH_POLL_MS, BATCH_START_STALE_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import { cancelJob } from '../jobs/job-service.ts'
import { OPEN_JOB_STATUSES } from '../jobs/job-store.ts'
import type { QueuedTask } from '../jobs/queued-task.ts'
import { createProjectFromTemplate, getTemplate } from '../templates/template-service.ts'
import { submitMakeVideo } from '../video/video-service.ts'
import {
  BATCH_ADVANCE_QUEUE,
  type BatchAdvance,
  type BatchEventDeps,
  failStartingRow,
  lockBatch,
  settleRowOfJob,
} from './batch-rows.ts'

/**
 * The batch driver (issue 42 item 3, decision 033): a pg-boss queue of its own (`QueuedTask`)
 * that starts a running batch's rows, a few at a time per account, as others end. Nothing of
 * it lives in a process: each run reads the batch from the database, so a restart loses
 * nothing. It runs when a batch starts or retries (then with the batch's poll token, and again
 * every `BATCH_POLL_MS` while the token is current: the poll chain), and when one of its rows'
 * jobs succeeds or fails (sent by `batchOutcomes` in the job's own transaction).
 */

/** What the driver needs: the services a row's start calls. */
export type BatchDriverDeps = Pick<
  WorkerDeps,
  'db' | 'env' | 'jobs' | 'documents' | 'tasks' | 'catalog' | 'assets' | 'logger'
>

const advanceSchema = z.object({ batchId: z.number().int(), pollToken: z.string().optional() })

/** A new poll token for a batch's poll chain (start, retry). */
export function newPollToken(): string {
  return randomUUID()
}

function eventDeps(deps: BatchDriverDeps): BatchEventDeps {
  return { queue: deps.jobs.queue, appUrl: deps.env.APP_URL }
}

/**
 * One run of the driver for batch `batchId`: ends the rows whose jobs ended without telling
 * (a job cancelled from its node) or were lost while starting, starts queued rows while the
 * account has fewer than `BATCH_USER_CONCURRENCY` rows with a job, and with the batch's
 * current `pollToken`, queues the next poll.
 * @throws whatever the database throws (the queue runs it again)
 * @see issue 42 item 3
 */
export async function advanceBatch(deps: BatchDriverDeps, advance: BatchAdvance): Promise<void> {
  const { batchId, pollToken } = advance
  const batch = await deps.db
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', batchId)
    .executeTakeFirst()
  if (!batch) return
  if (batch.status === 'running' || batch.status === 'cancelled') {
    await reconcileRows(deps, batch.id)
  }
  if (batch.status === 'running') {
    for (;;) {
      const row = await claimRow(deps, { batchId: batch.id, userId: batch.user_id })
      if (!row) break
      await startRow(deps, { userId: batch.user_id, templateId: batch.template_id, row })
    }
  }
  if (pollToken) {
    await deps.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('batches')
        .select(['poll_token', 'status'])
        .where('id', '=', batchId)
        .executeTakeFirst()
      if (current?.status !== 'running' || current.poll_token !== pollToken) return
      await deps.jobs.queue.sendTask(
        trx,
        BATCH_ADVANCE_QUEUE,
        { batchId, pollToken } satisfies BatchAdvance,
        { startAfterMs: BATCH_POLL_MS },
      )
    })
  }
}

/**
 * The batch's running rows brought up to date: a row whose job ended is ended as its job did
 * (`settleRowOfJob`); a row without a job for `BATCH_START_STALE_MS` was lost with the process
 * starting it: it adopts the Make video job of its project if one was submitted, else goes back
 * to the queue (in a cancelled batch: is cancelled).
 */
async function reconcileRows(deps: BatchDriverDeps, batchId: number): Promise<void> {
  const rows = await deps.db
    .selectFrom('batch_rows as r')
    .leftJoin('generation_jobs as j', 'j.id', 'r.job_id')
    .innerJoin('batches as b', 'b.id', 'r.batch_id')
    .select([
      'r.id',
      'r.job_id',
      'r.project_id',
      'r.started_at',
      'b.status as batchStatus',
      'b.user_id',
      'j.status as jobStatus',
      'j.message',
    ])
    .where('r.batch_id', '=', batchId)
    .where('r.status', '=', 'running')
    .execute()
  for (const row of rows) {
    if (row.job_id !== null) {
      if (row.jobStatus && !OPEN_JOB_STATUSES.includes(row.jobStatus)) {
        await deps.db.transaction().execute((trx) =>
          settleRowOfJob(trx, eventDeps(deps), {
            id: row.job_id!,
            status: row.jobStatus!,
            message: row.message,
          }),
        )
      }
      continue
    }
    const startedAt = row.started_at ? new Date(row.started_at).getTime() : 0
    if (Date.now() - startedAt < BATCH_START_STALE_MS) continue
    const adopted =
      row.project_id === null
        ? undefined
        : await deps.db
            .selectFrom('generation_jobs')
            .select(['id', 'status', 'message'])
            .where('project_id', '=', row.project_id)
            .where('user_id', '=', row.user_id)
            .where('kind', '=', 'make-video')
            .where('created_at', '>=', new Date(startedAt))
            .orderBy('created_at', 'desc')
            .executeTakeFirst()
    await deps.db.transaction().execute(async (trx) => {
      await lockBatch(trx, batchId)
      if (adopted) {
        await trx
          .updateTable('batch_rows')
          .set({ job_id: adopted.id })
          .where('id', '=', row.id)
          .where('status', '=', 'running')
          .where('job_id', 'is', null)
          .execute()
        await settleRowOfJob(trx, eventDeps(deps), adopted)
      } else {
        await trx
          .updateTable('batch_rows')
          .set(
            row.batchStatus === 'cancelled'
              ? { status: 'cancelled', finished_at: sql`now()` }
              : { status: 'queued', started_at: null },
          )
          .where('id', '=', row.id)
          .where('status', '=', 'running')
          .where('job_id', 'is', null)
          .execute()
      }
    })
  }
}

/**
 * Takes the batch's next queued row (lowest row number) and marks it running, unless the
 * account already has `BATCH_USER_CONCURRENCY` running rows over all its batches. The user's
 * row is locked while counting, so two drivers never start more than the bound together.
 * @returns the claimed row, or undefined when none may start now.
 */
async function claimRow(
  deps: BatchDriverDeps,
  { batchId, userId }: { batchId: number; userId: number },
): Promise<BatchRowRecord | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute()
    const running = await trx
      .selectFrom('batch_rows as r')
      .innerJoin('batches as b', 'b.id', 'r.batch_id')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('b.user_id', '=', userId)
      .where('r.status', '=', 'running')
      .executeTakeFirstOrThrow()
    if (Number(running.n) >= deps.env.BATCH_USER_CONCURRENCY) return undefined
    const next = await trx
      .selectFrom('batch_rows')
      .select('id')
      .where('batch_id', '=', batchId)
      .where('status', '=', 'queued')
      .orderBy('row_number')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst()
    if (!next) return undefined
    return trx
      .updateTable('batch_rows')
      .set({ status: 'running', started_at: sql`now()`, error: null, finished_at: null })
      .where('id', '=', next.id)
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}

/**
 * Starts claimed row `row`: its project from the template (named from its values with shared's
 * `templateProjectName`; a retried row keeps the project it made), then its Make video job
 * (`submitMakeVideo`, charged at submit). A refusal in words (no credits left, the template
 * gone, a value the template now refuses) fails the row; any other error puts it back in the
 * queue and is thrown. A job whose batch was cancelled meanwhile is cancelled at once.
 */
async function startRow(
  deps: BatchDriverDeps,
  { userId, templateId, row }: { userId: number; templateId: number; row: BatchRowRecord },
): Promise<void> {
  const values = row.values as Record<string, string>
  let job
  try {
    let makeVideo: MakeVideoInput
    if (row.make_video) {
      makeVideo = makeVideoInput.parse(row.make_video)
    } else {
      const template = await getTemplate(deps.db, { userId, templateId })
      const project = await createProjectFromTemplate(deps, {
        userId,
        templateId,
        name: templateProjectName(template.name, template.variables, values),
        values,
      })
      await deps.db
        .updateTable('batch_rows')
        .set({
          project_id: project.id,
          project_name: project.name,
          make_video: project.makeVideo ? JSON.stringify(project.makeVideo) : null,
        })
        .where('id', '=', row.id)
        .execute()
      if (!project.makeVideo) throw new AppError('BAD_REQUEST', BATCH_MESSAGES.noMakeVideo)
      makeVideo = project.makeVideo
    }
    job = await submitMakeVideo(deps, { ...makeVideo, userId })
  } catch (err) {
    if (err instanceof AppError) {
      await deps.db.transaction().execute((trx) =>
        failStartingRow(trx, eventDeps(deps), {
          batchId: row.batch_id,
          rowId: row.id,
          error: err.message,
        }),
      )
      return
    }
    await deps.db
      .updateTable('batch_rows')
      .set({ status: 'queued', started_at: null })
      .where('id', '=', row.id)
      .where('status', '=', 'running')
      .where('job_id', 'is', null)
      .execute()
    throw err
  }
  const submitted = job
  const cancelNow = await deps.db.transaction().execute(async (trx) => {
    const batch = await lockBatch(trx, row.batch_id)
    await trx
      .updateTable('batch_rows')
      .set({ job_id: submitted.id })
      .where('id', '=', row.id)
      .where('status', '=', 'running')
      .execute()
    // It may have ended before its id was recorded: its outcome found no row then.
    const now = await trx
      .selectFrom('generation_jobs')
      .select(['id', 'status', 'message'])
      .where('id', '=', submitted.id)
      .executeTakeFirstOrThrow()
    if (!OPEN_JOB_STATUSES.includes(now.status)) {
      await settleRowOfJob(trx, eventDeps(deps), now)
      return false
    }
    return batch?.status === 'cancelled'
  })
  if (cancelNow) {
    const cancelled = await cancelJob(deps, { userId, jobId: submitted.id })
    await deps.db.transaction().execute((trx) => settleRowOfJob(trx, eventDeps(deps), cancelled))
  }
}

/**
 * The driver's queue (`batch-advance`): every process that runs workers runs it, a few batches
 * at once; a run that throws runs again (`retryLimit`).
 * @param deps the process's dependencies, read when a run starts (the runtime makes the job
 *   system after its tasks)
 * @see issue 42 item 3
 */
export function batchAdvanceTask({
  deps,
  logger,
}: {
  deps: () => BatchDriverDeps
  logger: Logger
}): QueuedTask {
  return {
    name: BATCH_ADVANCE_QUEUE,
    concurrency: 2,
    expireInSeconds: 15 * 60,
    retryLimit: 5,
    async run(data) {
      const advance = advanceSchema.parse(data)
      try {
        await advanceBatch(deps(), advance)
      } catch (err) {
        logger.error({ err, batchId: advance.batchId }, 'a batch could not start its next rows')
        throw err
      }
    },
  }
}
