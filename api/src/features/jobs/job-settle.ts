import type { DB, GenerationJobStatus } from '@reelgraph/db'
import { type Kysely, sql, type Transaction } from 'kysely'
import { refundSpendIn } from '../credits/credit-ledger.ts'
import type { JobsContext } from './job-deps.ts'
import { showJobState, writeResult } from './job-document.ts'
import type { JobKinds } from './job-kind.ts'
import { recordOutcome } from './job-outcomes.ts'
import { type JobRow, OPEN_JOB_STATUSES } from './job-store.ts'

/**
 * The two ways a job ends without a result (issue 12): it fails (refunded), or it is
 * cancelled (refunded unless the provider was already paid). Each is one transaction on the
 * locked job row, with the refund in it, so a job is refunded at most once and never both
 * failed and cancelled.
 */

type Deps = JobsContext

/** Why a job failed: the api error code it answers with, and words a person can act on. */
export interface Failure {
  code:
    | 'PROVIDER_ERROR'
    | 'PROVIDER_TIMEOUT'
    | 'INTERNAL'
    | 'FORBIDDEN'
    | 'NOT_FOUND'
    | 'BAD_REQUEST'
    /** The result would pass the storage quota of the project's owner (issue 40 item 5). */
    | 'PAYLOAD_TOO_LARGE'
  reason: string
}

/** The kind's name in ledger rows ("Image generation failed"). */
function actionOf(kinds: JobKinds, kind: string): string {
  return kinds.get(kind)?.ledger.action ?? 'Generation'
}

/** A provider's reason without its closing "Please try again." (the job's message adds it). */
export function reasonOnly(message: string): string {
  return message.replace(/\s*Please try again( later)?\.$/, '')
}

/** "Your 1 credit was refunded." / "Your 2 credits were refunded." */
function refundedWords(n: number): string {
  return n === 1 ? 'Your 1 credit was refunded.' : `Your ${n} credits were refunded.`
}

/** Locks the job's row; undefined when it is gone. */
async function lockJob(trx: Transaction<DB>, id: string): Promise<JobRow | undefined> {
  return trx
    .selectFrom('generation_jobs')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
}

/**
 * Gives the job's charge back (once: the ledger keys the refund by the charge): all of it,
 * or for a `make-video` chain what its delivered steps did not use (issue 13 item 6).
 * @returns the credits given back.
 */
async function refund(
  trx: Transaction<DB>,
  kinds: JobKinds,
  row: JobRow,
  why: string,
): Promise<number> {
  const credits = row.cost - row.delivered_cost
  if (row.spend_transaction_id === null || credits <= 0) return 0
  await refundSpendIn(trx, row.spend_transaction_id, `${actionOf(kinds, row.kind)} ${why}`, credits)
  return credits
}

async function settle(
  db: Kysely<DB>,
  id: string,
  decide: (
    trx: Transaction<DB>,
    row: JobRow,
  ) => Promise<{
    status: GenerationJobStatus
    message: string
    refunded: number
    error_code?: string
  } | null>,
  /** Runs in the same transaction once the row is settled (issue 41: a failure's events). */
  after?: (trx: Transaction<DB>, settled: JobRow) => Promise<void>,
): Promise<JobRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await lockJob(trx, id)
    if (!row || !OPEN_JOB_STATUSES.includes(row.status)) return undefined
    const change = await decide(trx, row)
    if (!change) return undefined
    const settled = await trx
      .updateTable('generation_jobs')
      .set({ ...change, stage: null, progress: null, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await after?.(trx, settled)
    return settled
  })
}

/**
 * Fails an open job for good: refunds its charge and records `failure` (the reason, then what
 * was refunded) with its outcome's events (`deps.outcomes`, in the same transaction; issue 41
 * item 3), tells this process's waiters, and shows it on the node.
 * @returns the failed row, or undefined when the job had already ended.
 */
export async function failJob(
  deps: Deps,
  id: string,
  failure: Failure,
): Promise<JobRow | undefined> {
  const failed = await settle(
    deps.db,
    id,
    async (trx, row) => {
      const refunded = await refund(trx, deps.kinds, row, 'failed')
      const back = refunded > 0 ? ` ${refundedWords(refunded)}` : ''
      return {
        status: 'failed',
        message: `${reasonOnly(failure.reason)}${back} Please try again.`,
        refunded,
        error_code: failure.code,
      }
    },
    (trx, settled) => recordOutcome(deps, trx, settled),
  )
  if (failed) {
    deps.signals.finished(id)
    await showJobState(deps, failed)
  }
  return failed
}

/**
 * Cancels an open job: refunds its charge unless the provider was already paid (then says so
 * in its message, after `reason`: default "Cancelled."; a run's waiting job says why it did not
 * run, issue 42 item 4), stops its running provider call (at once in this process, within
 * JOB_POLL_MS elsewhere), takes it off the queue if it had not started, and shows it on the node.
 * @returns the cancelled row, or undefined when the job had already ended.
 */
export async function cancelOpenJob(
  deps: Deps,
  id: string,
  reason = 'Cancelled.',
): Promise<JobRow | undefined> {
  const cancelled = await settle(
    deps.db,
    id,
    async (trx, row) => {
      if (row.provider_paid) {
        return {
          status: 'cancelled',
          message: `${reason} The AI provider had already delivered (and been paid for) this result, so no credits were refunded.`,
          refunded: 0,
        }
      }
      const refunded = await refund(trx, deps.kinds, row, 'cancelled')
      return {
        status: 'cancelled',
        message: refunded > 0 ? `${reason} ${refundedWords(refunded)}` : reason,
        refunded,
      }
    },
    // Issue 42 item 4: the jobs of a run that wait for this one hear of it.
    (trx, settled) => recordOutcome(deps, trx, settled, 'cancelled'),
  )
  if (cancelled) {
    deps.signals.cancelled(id)
    deps.signals.finished(id)
    await deps.queue.dequeue(id).catch((err: unknown) => {
      deps.logger.warn({ err, jobId: id }, 'a cancelled job could not be taken off the queue')
    })
    await showJobState(deps, cancelled)
  }
  return cancelled
}

/**
 * A job the queue gave up on behind the worker's back (its worker died on the last attempt,
 * or it ran past its expiry): fails and refunds it if it is still open; writes its result if
 * it succeeded but the result never reached the document.
 */
export async function settleDeadJob(deps: Deps, row: JobRow): Promise<void> {
  if (row.status === 'succeeded') {
    if (!row.result_written) await writeResult(deps, row)
    return
  }
  await failJob(deps, row.id, {
    code: 'INTERNAL',
    reason: 'The generation stopped before it could finish (the worker running it was lost).',
  })
}
