import {
  describeJobProgress,
  type JobProgress,
  type JobStageWeight,
  jobProgressPercent,
} from '@reelgraph/shared'
import { JOB_POLL_MS, JOB_PROGRESS_WRITE_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import type { JobsContext } from './job-deps.ts'
import { showJobState, writeResult } from './job-document.ts'
import { type JobContext, type JobKind, kindOf } from './job-kind.ts'
import { recordOutcome } from './job-outcomes.ts'
import type { Delivery } from './job-queue.ts'
import { type Failure, failJob, reasonOnly } from './job-settle.ts'
import { findJob, jobInfoOf, OPEN_JOB_STATUSES, updateJob } from './job-store.ts'
import { createProgressWriter } from './progress-writer.ts'

/**
 * The worker's side of a job (issue 12; issue 21: any kind of its map, none by name): claim
 * it, run its kind's `produce` with a timeout, retry transient failures through the queue,
 * refund a final failure once, and have its kind write the result into the project.
 */

/** Why a job stopped: cancelled here or elsewhere (the row says cancelled). */
class Cancelled extends Error {}

/** A stage and its words with " (attempt k of n)" after the first attempt. */
function stageWords(progress: JobProgress, attempt: number, attempts: number): string {
  const words = describeJobProgress(progress)
  return attempt > 1 ? `${words} (attempt ${attempt} of ${attempts})` : words
}

/**
 * Writes a job's typed progress onto its row and node, as a percent of the whole job (from
 * its kind's stages: the one place progress is scaled) and the stage's words: at once when
 * the stage changes, else at most every JOB_PROGRESS_WRITE_MS (`createProgressWriter`);
 * writes never overlap or fail the job.
 */
function progressWriter(
  deps: JobsContext,
  jobId: string,
  stages: readonly JobStageWeight[],
): (progress: JobProgress) => void {
  return createProgressWriter<JobProgress>({
    intervalMs: JOB_PROGRESS_WRITE_MS,
    urgent: (previous, next) => previous?.stage !== next.stage,
    write: (progress) =>
      updateJob(deps.db, jobId, ['running'], {
        progress: jobProgressPercent(stages, progress),
        stage: describeJobProgress(progress),
      })
        .then((row) => (row ? showJobState(deps, row) : undefined))
        .catch((err: unknown) => deps.logger.warn({ err, jobId }, 'job progress not written')),
  })
}

/**
 * Watches for a cancel of job `jobId`: at once when it is cancelled in this process, else by
 * polling the row every JOB_POLL_MS. Returns the signal and the stop function.
 */
function watchCancel(deps: JobsContext, jobId: string): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController()
  const cancel = () => controller.abort(new Cancelled('The job was cancelled.'))
  const unsubscribe = deps.signals.onCancelled(jobId, cancel)
  const timer = setInterval(() => {
    findJob(deps.db, jobId)
      .then((row) => {
        if (row?.status === 'cancelled') cancel()
      })
      .catch(() => {})
  }, JOB_POLL_MS)
  return {
    signal: controller.signal,
    stop() {
      clearInterval(timer)
      unsubscribe()
    },
  }
}

/**
 * Runs one delivery of a job. Returns when the job needs nothing more from this delivery
 * (succeeded, failed for good and refunded, cancelled, or already settled); throws to have the
 * queue retry it later (a transient provider failure before the last attempt, or a result that
 * could not be written into the document).
 */
export async function runGenerationJob(deps: JobsContext, delivery: Delivery): Promise<void> {
  const { db, logger } = deps
  const found = await findJob(db, delivery.jobId)
  if (!found) return
  if (found.status === 'succeeded') {
    if (!found.result_written) await writeResult(deps, found)
    return
  }
  let kind: JobKind
  let input: unknown
  try {
    kind = kindOf(deps.kinds, found.kind)
    input = kind.input.parse(found.input)
  } catch (err) {
    logger.error({ err, jobId: found.id, kind: found.kind }, 'a job this worker cannot run')
    await failJob(deps, found.id, {
      code: 'INTERNAL',
      reason: 'Something went wrong while generating.',
    })
    return
  }
  const attempt = delivery.retryCount + 1
  const attempts = delivery.retryLimit + 1
  const row = await updateJob(db, found.id, OPEN_JOB_STATUSES, {
    status: 'running',
    stage: stageWords(kind.firstProgress(input), attempt, attempts),
    progress: null,
    attempts: found.attempts + 1,
  })
  if (!row) return // cancelled, failed or finished meanwhile
  await showJobState(deps, row)

  const cancel = watchCancel(deps, row.id)
  const signal = AbortSignal.any([
    cancel.signal,
    delivery.signal,
    AbortSignal.timeout(kind.timeoutMs(input)),
  ])
  const stillRunning = async (patch: Parameters<typeof updateJob>[3]) => {
    const marked = await updateJob(db, row.id, ['running'], patch)
    if (!marked) throw new Cancelled('The job was cancelled.')
  }
  const context: JobContext = {
    job: jobInfoOf(row),
    signal,
    progress: progressWriter(deps, row.id, kind.stages(input)),
    paid: () => stillRunning({ provider_paid: true }),
    delivered: (credits) =>
      stillRunning({ delivered_cost: Math.max(0, Math.min(row.cost, credits)) }),
  }
  let result: unknown
  try {
    result = kind.result.parse(await kind.produce(input, context))
  } catch (err) {
    if (cancel.signal.aborted || err instanceof Cancelled) return
    if (delivery.signal.aborted) throw err // the queue took the job back: another worker runs it
    const last = delivery.retryCount >= delivery.retryLimit
    const transient = err instanceof ProviderError ? err.transient : !(err instanceof AppError)
    if (transient && !last) {
      logger.warn({ err, jobId: row.id, attempt }, 'generation failed; the job will be retried')
      const waiting = await updateJob(db, row.id, ['running'], {
        stage: `${reasonOnly(err instanceof Error ? err.message : 'The provider failed.')} Trying again shortly (attempt ${attempt + 1} of ${attempts}).`,
      })
      if (waiting) await showJobState(deps, waiting)
      throw err
    }
    logger.warn({ err, jobId: row.id, attempt }, 'generation failed')
    await failJob(deps, row.id, failureOf(err))
    return
  } finally {
    cancel.stop()
  }

  // The success and its events (webhooks; issue 41 item 3) commit together.
  const done = await db.transaction().execute(async (trx) => {
    const succeeded = await updateJob(trx, row.id, ['running'], {
      status: 'succeeded',
      result: JSON.stringify(result),
      progress: 100,
      stage: null,
    })
    if (succeeded) await recordOutcome(deps, trx, succeeded)
    return succeeded
  })
  if (!done) {
    // Cancelled while the result was being stored: what it made would be orphans.
    await kind.discard?.(result)
    return
  }
  deps.signals.finished(done.id)
  await writeResult(deps, done)
}

function failureOf(err: unknown): Failure {
  if (err instanceof ProviderError) {
    if (err.kind === 'timeout') {
      return { code: 'PROVIDER_TIMEOUT', reason: 'The AI provider took too long to answer.' }
    }
    return { code: 'PROVIDER_ERROR', reason: err.message }
  }
  if (
    err instanceof AppError &&
    (err.code === 'FORBIDDEN' ||
      err.code === 'NOT_FOUND' ||
      err.code === 'BAD_REQUEST' ||
      // A result past the owner's storage quota (issue 40 item 5): final, refunded, in words.
      err.code === 'PAYLOAD_TOO_LARGE')
  ) {
    return { code: err.code, reason: err.message }
  }
  return { code: 'INTERNAL', reason: 'Something went wrong while generating.' }
}
