import { docToGraph, inputFailedMessage, nodeInWords, prepareRunNode } from '@reelgraph/shared'
import type { Logger } from 'pino'
import { z } from 'zod'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { cancelOpenJob } from '../jobs/job-settle.ts'
import { findJob, type JobRow } from '../jobs/job-store.ts'
import type { JobOutcomes } from '../jobs/job-outcomes.ts'
import type { QueuedTask } from '../jobs/queued-task.ts'
import { captureSubmission } from '../jobs/submission-capture.ts'
import { inputJobsOf, jobsWaitingFor, releaseWaitingJob } from '../jobs/waiting-jobs.ts'
import { runNode } from './run-node.ts'

/**
 * The release of a run's waiting jobs (issue 42 item 4, decision 034), durable and for every
 * process: the job system's outcome listener ({@link runOutcomes}) sends one `run-release` task
 * per waiting job in the transaction where one of its inputs' results was written, or it
 * failed, or it was cancelled; the task ({@link runReleaseTask}, run by any worker process)
 * reads the rows and decides — all inputs written: read the job's input from the live document
 * and queue it; an input failed or cancelled: cancel it, refunded, in words (which tells its
 * own waiting jobs in turn); else nothing yet. No state in a process.
 */

/** The queue of the release task. */
export const RUN_RELEASE_QUEUE = 'run-release'

const releaseData = z.object({ jobId: z.uuid() })

/** The job system's listener that wakes a run's waiting jobs (issue 42 item 4). */
export const runOutcomes: JobOutcomes = {
  // A success is acted on once its result is in the document (`written`), not before.
  async settled({ trx, job, queue }) {
    if (job.status === 'failed') await wake(trx, job, queue)
  },
  async written({ trx, job, queue }) {
    await wake(trx, job, queue)
  },
  async cancelled({ trx, job, queue }) {
    await wake(trx, job, queue)
  },
}

async function wake(
  trx: Parameters<JobOutcomes['settled']>[0]['trx'],
  job: JobRow,
  queue: Parameters<JobOutcomes['settled']>[0]['queue'],
): Promise<void> {
  for (const jobId of await jobsWaitingFor(trx, job.id)) {
    await queue.sendTask(trx, RUN_RELEASE_QUEUE, { jobId })
  }
}

/** What the release needs: what running a node needs, and a logger. */
export type RunReleaseDeps = Pick<
  AppDeps,
  'db' | 'env' | 'jobs' | 'documents' | 'tasks' | 'catalog' | 'assets'
> & { logger: Pick<Logger, 'info' | 'warn'> }

/** The input node's name for words: its type's title and id. */
async function inputName(deps: RunReleaseDeps, input: JobRow): Promise<string> {
  if (input.project_id === null || input.node_id === null) return `job ${input.id}`
  const nodeId = input.node_id
  const type = await deps.documents
    .transact(input.project_id, (doc) => docToGraph(doc).nodes.find((n) => n.id === nodeId)?.type)
    .catch(() => undefined)
  return nodeInWords({ id: nodeId, type: type ?? '' })
}

/**
 * Decides about waiting job `jobId` (see the module): release, cancel, or wait on.
 * @throws when the database or document cannot be read (the task runs again later).
 */
export async function releaseOrCancel(deps: RunReleaseDeps, jobId: string): Promise<void> {
  const job = await findJob(deps.db, jobId)
  if (!job || job.status !== 'queued' || !job.waiting) return
  const inputs = await inputJobsOf(deps.db, jobId)
  const stopped = inputs.find((i) => i.status === 'failed' || i.status === 'cancelled')
  if (stopped) {
    const status = stopped.status === 'failed' ? 'failed' : 'cancelled'
    await cancelOpenJob(
      deps.jobs,
      jobId,
      inputFailedMessage(await inputName(deps, stopped), status),
    )
    return
  }
  if (!inputs.every((i) => i.status === 'succeeded' && i.result_written)) return
  if (job.project_id === null || job.node_id === null) return
  const projectId = job.project_id
  const nodeId = job.node_id
  try {
    await deps.documents.transact(projectId, (doc, origin) => prepareRunNode(doc, nodeId, origin))
    const submission = await captureSubmission(() =>
      runNode(deps, { userId: job.user_id, projectId, nodeId }),
    )
    if (submission.kind !== job.kind) {
      throw new AppError('BAD_REQUEST', 'Its node changed type since the run was planned.')
    }
    await releaseWaitingJob(deps.jobs, { jobId, submission })
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    deps.logger.info({ jobId, err: err.message }, 'a waiting job of a run cannot run')
    await cancelOpenJob(deps.jobs, jobId, `Not run: ${err.message}`)
  }
}

/**
 * The `run-release` queued task (issue 42 item 4): one decision per message, run by the job
 * system of every process that runs workers.
 * @param deps read when a message runs (the runtime builds them after the job system)
 */
export function runReleaseTask(deps: () => RunReleaseDeps): QueuedTask {
  return {
    name: RUN_RELEASE_QUEUE,
    concurrency: 2,
    expireInSeconds: 120,
    retryLimit: 5,
    async run(data) {
      const parsed = releaseData.safeParse(data)
      if (!parsed.success) return
      await releaseOrCancel(deps(), parsed.data.jobId)
    },
  }
}
