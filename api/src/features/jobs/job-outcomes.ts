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
  settled(context: OutcomeContext): Promise<void>
  /**
   * A succeeded job's result has just reached its project's document (issue 42 item 4: a run's
   * waiting jobs may read it now), in the transaction that records so.
   */
  written?(context: OutcomeContext): Promise<void>
  /** Job `job` has just been cancelled (issue 42 item 4), in the transaction that records it. */
  cancelled?(context: OutcomeContext): Promise<void>
}

/** What an outcome listener is told: the job as recorded, in `trx`, and the queue. */
export interface OutcomeContext {
  trx: Transaction<DB>
  job: JobRow
  queue: GenerationQueue
}

/** The moments a listener hears of: {@link JobOutcomes}' methods. */
export type OutcomeEvent = 'settled' | 'written' | 'cancelled'

/**
 * One listener telling each of `listeners` in turn (webhooks, a run's waiting jobs: issue 42
 * item 4); the first that throws stops the rest, as one listener's throw would.
 */
export function combineOutcomes(...listeners: JobOutcomes[]): JobOutcomes {
  const tell = (event: OutcomeEvent) => async (context: OutcomeContext) => {
    for (const listener of listeners) await listener[event]?.(context)
  }
  return { settled: tell('settled'), written: tell('written'), cancelled: tell('cancelled') }
}

/**
 * Runs `outcomes[event]` (default `settled`) for `job` inside `trx` behind a savepoint: a failure there is rolled
 * back to it and logged, and the job's own outcome still commits (an event lost is better than
 * a job that cannot end).
 * @see issue 41 item 3
 */
export async function recordOutcome(
  deps: { outcomes?: JobOutcomes | undefined; queue: GenerationQueue; logger: Logger },
  trx: Transaction<DB>,
  job: JobRow,
  event: OutcomeEvent = 'settled',
): Promise<void> {
  const listener = deps.outcomes?.[event]
  if (!listener) return
  await sql`savepoint job_outcome`.execute(trx)
  try {
    await listener.call(deps.outcomes, { trx, job, queue: deps.queue })
    await sql`release savepoint job_outcome`.execute(trx)
  } catch (err) {
    await sql`rollback to savepoint job_outcome`.execute(trx)
    deps.logger.error({ err, jobId: job.id }, 'what follows a job’s end was not recorded')
  }
}
