import type { DB } from '@reelgraph/db'
import { sql, type Transaction } from 'kysely'
import type { Logger } from 'pino'
import type { GenerationQueue } from './job-queue.ts'
import type { JobRow } from './job-store.ts'

/**
 * What else happens when a job ends (issue 41 item 3: the webhooks' events), without the jobs
 * feature knowing who listens: the runtime hands the job system one {@link JobOutcomes}, and
 * the jobs code calls it inside the transaction that records the job's success or failure, so
 * what it writes (and enqueues) exists exactly when the outcome does.
 */
export interface JobOutcomes {
  /**
   * Job `job` has just succeeded or failed (its row as recorded, in `trx`). Writes and
   * enqueues only through `trx` (on PGlite, anything else would wait for the transaction).
   * @throws whatever the database throws: {@link recordOutcome} contains it.
   */
  settled(context: { trx: Transaction<DB>; job: JobRow; queue: GenerationQueue }): Promise<void>
}

/**
 * Runs `outcomes.settled` for `job` inside `trx` behind a savepoint: a failure there is rolled
 * back to it and logged, and the job's own outcome still commits (an event lost is better than
 * a job that cannot end).
 * @see issue 41 item 3
 */
export async function recordOutcome(
  deps: { outcomes?: JobOutcomes | undefined; queue: GenerationQueue; logger: Logger },
  trx: Transaction<DB>,
  job: JobRow,
): Promise<void> {
  if (!deps.outcomes) return
  await sql`savepoint job_outcome`.execute(trx)
  try {
    await deps.outcomes.settled({ trx, job, queue: deps.queue })
    await sql`release savepoint job_outcome`.execute(trx)
  } catch (err) {
    await sql`rollback to savepoint job_outcome`.execute(trx)
    deps.logger.error({ err, jobId: job.id }, 'what follows a job’s end was not recorded')
  }
}
