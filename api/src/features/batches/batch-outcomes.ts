import { sql } from 'kysely'
import type { Logger } from 'pino'
import type { JobOutcomes, OutcomeContext } from '../jobs/job-outcomes.ts'
import { settleRowOfJob } from './batch-rows.ts'

/**
 * The job system's outcome listener for batches (issue 42 item 3): when a `make-video` job
 * succeeds, fails or is cancelled (from its node too), the batch row running it ends in the
 * job's own transaction, the driver is queued to start the next rows, and the batch's last row
 * records `batch.completed`. Behind a savepoint of its own, so a failure here loses neither the
 * job's outcome nor the other listeners' work (the driver's poll ends the row later).
 * @param appUrl the app's public URL, for the event's URLs
 * @see issue 42 item 3
 */
export function batchOutcomes({ appUrl, logger }: { appUrl: string; logger: Logger }): JobOutcomes {
  const endRow = async ({ trx, job, queue }: OutcomeContext) => {
    if (job.kind !== 'make-video') return
    await sql`savepoint batch_outcome`.execute(trx)
    try {
      await settleRowOfJob(trx, { queue, appUrl }, job)
      await sql`release savepoint batch_outcome`.execute(trx)
    } catch (err) {
      await sql`rollback to savepoint batch_outcome`.execute(trx)
      logger.error({ err, jobId: job.id }, 'the batch row of a job was not ended')
    }
  }
  return { settled: endRow, cancelled: endRow }
}
