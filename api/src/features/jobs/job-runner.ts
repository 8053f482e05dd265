import type {
  GenerateImageOutput,
  GenerateImageRequest,
  GenerateScenesInput,
  GenerateScriptInput,
  JobKind,
} from '@reelgraph/shared'
import { SCENE_COUNT_MAX } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { JOB_POLL_MS, JOB_PROGRESS_WRITE_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { produceMadeVideo } from '../video/make-video-job.ts'
import { ProviderError } from '../generation/providers/types.ts'
import {
  discardVideoFiles,
  produceVideo,
  type VideoJobInput,
  type VideoJobProgress,
  type VideoJobResult,
} from '../video/video-job.ts'
import { type Failure, failJob, reasonOnly } from './job-settle.ts'
import { showJobState, writeResult } from './job-document.ts'
import type { Delivery } from './job-queue.ts'
import { findJob, type JobRow, OPEN_JOB_STATUSES, updateJob } from './job-store.ts'
import { createProgressWriter } from './progress-writer.ts'

/**
 * The worker's side of a generation job (issue 12): claim it, call the provider with a
 * timeout, retry transient failures through the queue, refund a final failure once, and
 * write the result into the project's document.
 */

/** What a worker needs: no mailer, billing or rate limits. */
export type WorkerDeps = Pick<
  AppDeps,
  'db' | 'env' | 'logger' | 'ai' | 'assets' | 'documents' | 'jobs'
>

/** What a person reads while the job runs. */
const RUNNING_STAGES: Record<JobKind, string> = {
  script: 'Writing the script',
  scenes: 'Splitting the script into scenes',
  image: 'Generating the image',
  video: 'Rendering the video',
  'make-video': 'Writing the script',
}

/** Why a job stopped: cancelled here or elsewhere (the row says cancelled). */
class Cancelled extends Error {}

/** The provider's answer, in the spec §7 shape of the job's call. */
async function produce(
  deps: WorkerDeps,
  row: JobRow,
  signal: AbortSignal,
  paid: () => Promise<void>,
): Promise<unknown> {
  const { ai, db, assets } = deps
  switch (row.kind) {
    case 'script': {
      const script = await ai.text.generateScript(row.input as GenerateScriptInput, signal)
      await paid()
      return { script }
    }
    case 'scenes': {
      const input = row.input as GenerateScenesInput
      const scenes = await ai.text.generateScenes(input, signal)
      await paid()
      if (scenes.length !== input.sceneCount) {
        throw new ProviderError(
          'malformed',
          `The AI provider returned ${scenes.length} scenes instead of ${input.sceneCount}.`,
        )
      }
      return { scenes }
    }
    case 'image': {
      const input = row.input as GenerateImageRequest & { seed: number }
      const image = await ai.image.generateImage(input, signal, progressWriter(deps, row.id))
      await paid()
      const stored = await storeGeneratedImage(db, assets, {
        userId: row.user_id,
        projectId: input.projectId,
        image,
      })
      return {
        imageUrl: stored.url,
        assetId: stored.assetId,
        seed: input.seed,
      } satisfies GenerateImageOutput
    }
    case 'video':
      // Our own compute, never "paid": a cancel or a failure refunds it whole.
      return produceVideo(
        deps,
        row.user_id,
        row.input as VideoJobInput,
        signal,
        stageWriter(deps, row.id),
      )
    case 'make-video':
      // Paid step by step: a cancel or a failure refunds what was not delivered yet.
      return produceMadeVideo(deps, row, signal, {
        onProgress: stageWriter(deps, row.id),
        delivered: async (credits) => {
          const marked = await updateJob(db, row.id, ['running'], {
            delivered_cost: Math.min(row.cost, credits),
          })
          if (!marked) throw new Cancelled('The job was cancelled.')
        },
      })
  }
}

/**
 * Writes a render's stage and progress onto the job (row and node): at once when the stage
 * changes, else at most every JOB_PROGRESS_WRITE_MS (`createProgressWriter`); writes never
 * overlap or fail the job.
 */
function stageWriter(deps: WorkerDeps, jobId: string): (progress: VideoJobProgress) => void {
  return createProgressWriter<VideoJobProgress>({
    intervalMs: JOB_PROGRESS_WRITE_MS,
    urgent: (previous, next) => previous?.stage !== next.stage,
    write: (progress) =>
      updateJob(deps.db, jobId, ['running'], {
        progress: Math.max(0, Math.min(100, progress.percent)),
        stage: progress.stage,
      })
        .then((row) => (row ? showJobState(deps, row) : undefined))
        .catch((err: unknown) => deps.logger.warn({ err, jobId }, 'job progress not written')),
  })
}

/**
 * Writes a provider's progress onto the job (row and node): at most every
 * JOB_PROGRESS_WRITE_MS, the latest report always in the end (`createProgressWriter`);
 * writes never overlap or fail the job.
 */
function progressWriter(deps: WorkerDeps, jobId: string): (percent: number) => void {
  return createProgressWriter<number>({
    intervalMs: JOB_PROGRESS_WRITE_MS,
    write: (percent) =>
      updateJob(deps.db, jobId, ['running'], { progress: Math.max(0, Math.min(100, percent)) })
        .then((row) => (row ? showJobState(deps, row) : undefined))
        .catch((err: unknown) => deps.logger.warn({ err, jobId }, 'job progress not written')),
  })
}

/** The provider timeout of a job, in ms. */
export function providerTimeoutMs(env: WorkerDeps['env'], kind: JobKind): number {
  if (kind === 'video') return env.VIDEO_RENDER_TIMEOUT_MS
  if (kind === 'make-video') {
    // The whole chain: two text calls, an image per scene (at most SCENE_COUNT_MAX), a render.
    return (
      2 * env.AI_TEXT_TIMEOUT_MS +
      SCENE_COUNT_MAX * env.AI_IMAGE_TIMEOUT_MS +
      env.VIDEO_RENDER_TIMEOUT_MS
    )
  }
  return kind === 'image' ? env.AI_IMAGE_TIMEOUT_MS : env.AI_TEXT_TIMEOUT_MS
}

/**
 * Watches for a cancel of job `jobId`: at once when it is cancelled in this process, else by
 * polling the row every JOB_POLL_MS. Returns the signal and the stop function.
 */
function watchCancel(deps: WorkerDeps, jobId: string): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController()
  const cancel = () => controller.abort(new Cancelled('The job was cancelled.'))
  const unsubscribe = deps.jobs.signals.onCancelled(jobId, cancel)
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
 * Runs one delivery of a generation job. Returns when the job needs nothing more from this
 * delivery (succeeded, failed for good and refunded, cancelled, or already settled); throws to
 * have the queue retry it later (a transient provider failure before the last attempt, or a
 * result that could not be written into the document).
 */
export async function runGenerationJob(deps: WorkerDeps, delivery: Delivery): Promise<void> {
  const { db, logger } = deps
  const found = await findJob(db, delivery.jobId)
  if (!found) return
  if (found.status === 'succeeded') {
    if (!found.result_written) await writeResult(deps, found)
    return
  }
  const attempt = delivery.retryCount + 1
  const row = await updateJob(db, found.id, OPEN_JOB_STATUSES, {
    status: 'running',
    stage:
      attempt > 1
        ? `${RUNNING_STAGES[found.kind]} (attempt ${attempt} of ${delivery.retryLimit + 1})`
        : RUNNING_STAGES[found.kind],
    progress: null,
    attempts: found.attempts + 1,
  })
  if (!row) return // cancelled, failed or finished meanwhile
  await showJobState(deps, row)

  const cancel = watchCancel(deps, row.id)
  const signal = AbortSignal.any([
    cancel.signal,
    delivery.signal,
    AbortSignal.timeout(providerTimeoutMs(deps.env, row.kind)),
  ])
  let result: unknown
  try {
    result = await produce(deps, row, signal, async () => {
      const paid = await updateJob(db, row.id, ['running'], { provider_paid: true })
      if (!paid) throw new Cancelled('The job was cancelled.')
    })
  } catch (err) {
    if (cancel.signal.aborted || err instanceof Cancelled) return
    if (delivery.signal.aborted) throw err // the queue took the job back: another worker runs it
    const last = delivery.retryCount >= delivery.retryLimit
    const transient = err instanceof ProviderError ? err.transient : !(err instanceof AppError)
    if (transient && !last) {
      logger.warn({ err, jobId: row.id, attempt }, 'generation failed; the job will be retried')
      const waiting = await updateJob(db, row.id, ['running'], {
        stage: `${reasonOnly(err instanceof Error ? err.message : 'The provider failed.')} Trying again shortly (attempt ${attempt + 1} of ${delivery.retryLimit + 1}).`,
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

  const done = await updateJob(db, row.id, ['running'], {
    status: 'succeeded',
    result: JSON.stringify(result),
    progress: 100,
    stage: null,
  })
  if (!done) {
    // Cancelled while the result was being stored: a render's files would be orphans.
    if (row.kind === 'video' || row.kind === 'make-video') {
      await discardVideoFiles(deps, [result as VideoJobResult])
    }
    return
  }
  deps.jobs.signals.finished(done.id)
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
    (err.code === 'FORBIDDEN' || err.code === 'NOT_FOUND' || err.code === 'BAD_REQUEST')
  ) {
    return { code: err.code, reason: err.message }
  }
  return { code: 'INTERNAL', reason: 'Something went wrong while generating.' }
}
