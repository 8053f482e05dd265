import { randomUUID } from 'node:crypto'
import type { DB } from '@reelgraph/db'
import type { Kysely, Transaction } from 'kysely'
import { spendCreditsIn } from '../credits/credit-ledger.ts'
import type { JobsContext } from './job-deps.ts'
import { kindOf } from './job-kind.ts'
import { expiryOf, type JobServiceDeps } from './job-service.ts'
import { showJobState } from './job-document.ts'
import type { JobRow } from './job-store.ts'
import type { CapturedSubmission } from './submission-capture.ts'

/**
 * Jobs that wait for their inputs (issue 42 item 4, decision 034): a run records all its jobs
 * and charges them in one transaction; those whose node reads the result of another job of the
 * run are `waiting` (queued, off the queue) with a `job_inputs` row per input job. The state is
 * in Postgres only, so any process releases them, after a restart too: when an input's result
 * is written (or it fails or is cancelled) the job system's outcome listener hears of it in
 * that transaction, and the runs feature's queued task decides (`runs/run-release.ts`).
 */

/** One job of a run to record: its submission, and the jobs (of this run) it waits for. */
export interface RunJobSpec {
  /** Its id, chosen by the caller so the waits can name it. */
  id: string
  submission: CapturedSubmission
  /** Ids of jobs of the same run it waits for; empty: queued at once. */
  waitsFor: readonly string[]
}

/** A new job id for {@link recordRunJobs}. */
export function newJobId(): string {
  return randomUUID()
}

/** The stage a waiting job shows. */
export const WAITING_STAGE = 'Waiting for its inputs'

/**
 * Records the jobs of a run in one transaction (issue 42 item 4): each charged its cost (a
 * spend of its own, so each is refunded on its own), those without waits queued at once, the
 * others `waiting` with their `job_inputs`; then shows each on its node.
 * @returns the rows, in the order given.
 * @throws AppError 402 when the user cannot pay for them all (nothing is recorded or charged).
 */
export async function recordRunJobs(
  deps: JobServiceDeps,
  { userId, jobs }: { userId: number; jobs: readonly RunJobSpec[] },
): Promise<JobRow[]> {
  if (jobs.length === 0) return []
  await deps.jobs.start()
  const rows = await deps.db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute()
    const recorded: JobRow[] = []
    for (const spec of jobs) {
      const s = spec.submission
      const waiting = spec.waitsFor.length > 0
      let row = await trx
        .insertInto('generation_jobs')
        .values({
          id: spec.id,
          user_id: userId,
          project_id: s.projectId,
          node_id: s.nodeId,
          kind: s.kind,
          stage: waiting ? WAITING_STAGE : 'Waiting for a worker',
          cost: s.cost,
          input: JSON.stringify(s.input),
          idempotency_key: null,
          input_hash: s.inputHash,
          waiting,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      if (s.cost > 0) {
        const spend = await spendCreditsIn(trx, {
          userId,
          amount: s.cost,
          type: kindOf(deps.jobs.kinds, s.kind).ledger.type,
          description: s.description,
          idempotencyKey: `job:${spec.id}`,
        })
        row = await trx
          .updateTable('generation_jobs')
          .set({ spend_transaction_id: spend.transactionId })
          .where('id', '=', spec.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      }
      recorded.push(row)
    }
    for (const spec of jobs) {
      if (spec.waitsFor.length > 0) {
        await trx
          .insertInto('job_inputs')
          .values(spec.waitsFor.map((input) => ({ job_id: spec.id, input_job_id: input })))
          .execute()
      } else {
        await enqueue(
          deps.jobs,
          trx,
          recorded.find((r) => r.id === spec.id)!,
        )
      }
    }
    return recorded
  })
  deps.tasks.run('show the run’s jobs', async () => {
    for (const row of rows) await showJobState(deps.jobs, row)
  })
  return rows
}

async function enqueue(jobs: JobsContext, trx: Transaction<DB>, row: JobRow): Promise<void> {
  const kind = kindOf(jobs.kinds, row.kind)
  await jobs.queue.enqueue(trx, {
    jobId: row.id,
    userId: row.user_id,
    expireInSeconds: expiryOf(kind, kind.input.parse(row.input)),
  })
}

/** The jobs waiting for job `jobId` (their ids), read in `trx` or `db`. */
export async function jobsWaitingFor(
  db: Kysely<DB> | Transaction<DB>,
  jobId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('job_inputs')
    .select('job_id')
    .where('input_job_id', '=', jobId)
    .execute()
  return rows.map((r) => r.job_id)
}

/** The jobs job `jobId` waits for, as they are now. */
export async function inputJobsOf(db: Kysely<DB>, jobId: string): Promise<JobRow[]> {
  return db
    .selectFrom('job_inputs')
    .innerJoin('generation_jobs', 'generation_jobs.id', 'job_inputs.input_job_id')
    .selectAll('generation_jobs')
    .where('job_inputs.job_id', '=', jobId)
    .execute()
}

/**
 * Puts waiting job `jobId` on the queue with the input read now (its inputs all succeeded and
 * were written): once, only while it still waits. Its charge stays what the run was quoted.
 * @returns the row, or undefined when it no longer waits (released, cancelled).
 */
export async function releaseWaitingJob(
  jobs: JobsContext,
  { jobId, submission }: { jobId: string; submission: CapturedSubmission },
): Promise<JobRow | undefined> {
  await jobs.queue.start()
  const row = await jobs.db.transaction().execute(async (trx) => {
    const released = await trx
      .updateTable('generation_jobs')
      .set({
        input: JSON.stringify(submission.input),
        input_hash: submission.inputHash,
        waiting: false,
        stage: 'Waiting for a worker',
      })
      .where('id', '=', jobId)
      .where('status', '=', 'queued')
      .where('waiting', '=', true)
      .returningAll()
      .executeTakeFirst()
    if (released) await enqueue(jobs, trx, released)
    return released
  })
  if (row) await showJobState(jobs, row)
  return row
}
