import { randomUUID } from 'node:crypto'
import type { CreditTransactionType } from '@reelgraph/db'
import { isJobFinished, type JobKind } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { JOB_EXPIRY_MARGIN_SECONDS, JOB_POLL_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import { spendCreditsIn } from '../credits/credit-ledger.ts'
import { requireProjectRole } from '../projects/project-access.ts'
import { showJobState } from './job-document.ts'
import { providerTimeoutMs } from './job-runner.ts'
import { cancelOpenJob } from './job-settle.ts'
import { findJob, findJobByKey, type JobRow } from './job-store.ts'

/**
 * The api's side of generation jobs (issue 12): submit (validate the target, charge once,
 * enqueue, in one transaction), wait for a job up to a limit, read and cancel a job.
 */

/** The ledger type of each kind's charge (spec §4 plus ARCHITECTURE decision 4). */
const TRANSACTION_TYPES: Record<JobKind, CreditTransactionType> = {
  script: 'script_generation',
  scenes: 'scene_generation',
  image: 'image_generation',
  video: 'video_generation',
  // The whole chain, charged once (issue 13 item 6); it ends in a video.
  'make-video': 'video_generation',
}

/** An `Idempotency-Key` a client may send so a retried request is charged once. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/

/** A generation to run as a job. */
export interface GenerationRequest {
  userId: number
  kind: JobKind
  /** The validated request body the provider gets (the image's seed already chosen). */
  input: Record<string, unknown>
  /** Where the result goes: both, or neither (the job then only answers its result). */
  projectId?: number | undefined
  nodeId?: string | undefined
  /** Credits to charge; default the kind's cost (`env.costs`). A render's depends on its scenes. */
  cost?: number | undefined
  /** The ledger row's description, e.g. "Script: Tide pools". */
  description: string
  idempotencyKey?: string | undefined
}

/**
 * Submits a generation: checks the target (the user must be an owner or editor of
 * `projectId`), then in one transaction records the job, charges its cost and enqueues it.
 * With an idempotency key used before by this user for this kind, answers that job instead
 * (nothing is charged again).
 * @returns the job's row (queued, or whatever the earlier job with this key is now).
 * @throws AppError 400 for a malformed Idempotency-Key or a node without a project; 404/403
 *   for a project the user may not generate into; 402 when the user cannot pay (no job).
 */
export async function submitGeneration(
  deps: Pick<AppDeps, 'db' | 'env' | 'jobs' | 'documents' | 'logger' | 'tasks'>,
  request: GenerationRequest,
): Promise<JobRow> {
  const { db, env, jobs } = deps
  if (
    request.idempotencyKey !== undefined &&
    !IDEMPOTENCY_KEY_PATTERN.test(request.idempotencyKey)
  ) {
    throw new AppError(
      'BAD_REQUEST',
      'The Idempotency-Key header must be 8 to 100 letters, digits, "-" or "_".',
    )
  }
  if (request.nodeId !== undefined && request.projectId === undefined) {
    throw new AppError('BAD_REQUEST', 'A nodeId needs the projectId of its project.')
  }
  const key =
    request.idempotencyKey === undefined
      ? null
      : `${request.kind}:${request.userId}:${request.idempotencyKey}`
  if (key) {
    const earlier = await findJobByKey(db, key)
    if (earlier) return earlier
  }
  // Into a project the user may edit, checked before charging (issue 6).
  if (request.projectId !== undefined) {
    await requireProjectRole(db, {
      userId: request.userId,
      projectId: request.projectId,
      needed: 'editor',
    })
  }
  await jobs.start()
  const id = randomUUID()
  if (request.cost === undefined && request.kind === 'make-video') {
    throw new Error('A make-video job is charged its whole chain: pass its cost')
  }
  const cost = request.cost ?? env.costs[request.kind as Exclude<JobKind, 'make-video'>]
  const row = await db.transaction().execute(async (trx) => {
    // The user's row first: the job's foreign key would take a share lock on it, and two
    // requests each holding one while waiting for the spend's update lock would deadlock.
    await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', request.userId)
      .forUpdate()
      .execute()
    const inserted = await trx
      .insertInto('generation_jobs')
      .values({
        id,
        user_id: request.userId,
        project_id: request.projectId ?? null,
        node_id: request.nodeId ?? null,
        kind: request.kind,
        stage: 'Waiting for a worker',
        cost,
        input: JSON.stringify(request.input),
        idempotency_key: key,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!inserted) return undefined // the same key, concurrently: answered below
    if (cost === 0) {
      await jobs.queue.enqueue(trx, {
        jobId: id,
        userId: request.userId,
        expireInSeconds: expiryOf(deps, request.kind),
      })
      return inserted
    }
    const spend = await spendCreditsIn(trx, {
      userId: request.userId,
      amount: cost,
      type: TRANSACTION_TYPES[request.kind],
      description: request.description,
      idempotencyKey: `job:${id}`,
    })
    const charged = await trx
      .updateTable('generation_jobs')
      .set({ spend_transaction_id: spend.transactionId })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await jobs.queue.enqueue(trx, {
      jobId: id,
      userId: request.userId,
      expireInSeconds: expiryOf(deps, request.kind),
    })
    return charged
  })
  if (!row) {
    const earlier = key ? await findJobByKey(db, key) : undefined
    if (!earlier) throw new Error('A job with this idempotency key vanished')
    return earlier
  }
  // Shown on the node without holding up the answer; a later state is never overwritten.
  deps.tasks.run('show the queued job', () => showJobState(deps, row))
  return row
}

function expiryOf(deps: Pick<AppDeps, 'env'>, kind: JobKind): number {
  return Math.ceil(providerTimeoutMs(deps.env, kind) / 1000) + JOB_EXPIRY_MARGIN_SECONDS
}

/**
 * Waits until job `id` has finished or `timeoutMs` passed: told at once when it finishes in
 * this process, else by reading the row every JOB_POLL_MS.
 * @returns the job's row as it is then (finished, or still queued / running).
 */
export async function waitForJob(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  id: string,
  timeoutMs: number,
): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const row = await findJob(deps.db, id)
    if (!row) throw new Error(`Job ${id} vanished`)
    const left = deadline - Date.now()
    if (isJobFinished(row.status) || left <= 0) return row
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(JOB_POLL_MS, left))
      const unsubscribe = deps.jobs.signals.onFinished(id, done)
      function done() {
        clearTimeout(timer)
        unsubscribe()
        resolve()
      }
    })
  }
}

/**
 * The spec §7 answer of a finished job: its result when it succeeded.
 * @throws AppError with the job's failure (PROVIDER_ERROR 502, PROVIDER_TIMEOUT 504, ...,
 *   whose message says what was refunded), or JOB_CANCELLED 409.
 */
export function resultOf(row: JobRow): unknown {
  if (row.status === 'succeeded') return row.result
  if (row.status === 'cancelled') {
    throw new AppError('JOB_CANCELLED', row.message ?? 'The generation was cancelled.')
  }
  const code = (row.error_code ?? 'INTERNAL') as 'PROVIDER_ERROR'
  throw new AppError(code, row.message ?? 'The generation failed. Please try again.')
}

/** The answer to a job that does not exist and to one the user may not see: 404 NOT_FOUND. */
export function jobNotFound(): AppError {
  return new AppError('NOT_FOUND', 'This job does not exist, or it is not yours.')
}

/** Who asks for which job: {@link requireJob}, {@link cancelJob}. */
export interface JobAccess {
  userId: number
  jobId: string
}

/**
 * Job `jobId` if `userId` may see it: a member of its project, or its creator when it has
 * none. `needed`: `editor` to change it (cancel), where a viewer gets 403; default `member`.
 * @throws AppError 404 NOT_FOUND for anyone else (and for an id that is no job).
 */
export async function requireJob(
  db: AppDeps['db'],
  { userId, jobId, needed = 'member' }: JobAccess & { needed?: 'member' | 'editor' },
): Promise<JobRow> {
  const row = await findJob(db, jobId)
  if (!row) throw jobNotFound()
  if (row.project_id === null) {
    if (row.user_id !== userId) throw jobNotFound()
    return row
  }
  try {
    await requireProjectRole(db, { userId, projectId: row.project_id, needed })
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw jobNotFound()
    throw err
  }
  return row
}

/**
 * Cancels job `jobId` for `userId` (issue 12 item 3): while queued or running it stops and
 * is refunded unless the provider was already paid; a finished job is answered as it is.
 * @throws AppError 404 for a job the user may not see, 403 for a viewer of its project.
 */
export async function cancelJob(
  deps: Pick<AppDeps, 'db' | 'documents' | 'logger' | 'jobs'>,
  { userId, jobId }: JobAccess,
): Promise<JobRow> {
  const row = await requireJob(deps.db, { userId, jobId, needed: 'editor' })
  if (isJobFinished(row.status)) return row
  return (await cancelOpenJob(deps, jobId)) ?? (await requireJob(deps.db, { userId, jobId }))
}
