import { randomUUID } from 'node:crypto'
import type { DB } from '@reelgraph/db'
import { docInputHash, isJobFinished } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { JOB_EXPIRY_MARGIN_SECONDS, JOB_POLL_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import type { BackgroundTasks } from '../../lib/background-tasks.ts'
import { spendCreditsIn } from '../credits/credit-ledger.ts'
import { requireProjectRole } from '../access/project-access.ts'
import type { JobsContext } from './job-deps.ts'
import { showJobState } from './job-document.ts'
import { type JobKind, kindOf } from './job-kind.ts'
import { cancelOpenJob } from './job-settle.ts'
import { findJob, findJobByKey, type JobRow } from './job-store.ts'
import { captured, isCapturing } from './submission-capture.ts'

/**
 * The api's side of generation jobs (issue 12): submit (validate the target, charge once,
 * enqueue, in one transaction), wait for a job up to a limit, read and cancel a job. Kinds
 * come from the job system's map (issue 21): their input schema, cost, ledger type, timeout.
 */

/** What the job services need: the database, the job system, and background work. */
export interface JobServiceDeps {
  db: Kysely<DB>
  jobs: JobsContext & { start(): Promise<void> }
  tasks: BackgroundTasks
}

/** An `Idempotency-Key` a client may send so a retried request is charged once. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/

/** A generation to run as a job. */
export interface GenerationRequest {
  userId: number
  /** The name of a registered kind (`script`, `image`, ...). */
  kind: string
  /** The kind's input (validated by the kind's schema: the image's seed already chosen). */
  input: unknown
  /** Where the result goes: both, or neither (the job then only answers its result). */
  projectId?: number | undefined
  nodeId?: string | undefined
  /** Credits to charge; default the kind's `cost(input)`. */
  cost?: number | undefined
  /** The ledger row's description, e.g. "Script: Tide pools". */
  description: string
  idempotencyKey?: string | undefined
}

/**
 * Submits a generation: checks the target (the user must be an owner or editor of
 * `projectId`), then in one transaction records the job, charges its cost and enqueues it.
 * With an idempotency key used before by this user for this kind, answers that job instead
 * (nothing is charged again). The node's input hash is read from the document and kept on the
 * job (issue 42 item 4). Inside `captureSubmission` it stops before recording anything and
 * hands the submission over.
 * @returns the job's row (queued, or whatever the earlier job with this key is now).
 * @throws AppError 400 for a malformed Idempotency-Key or a node without a project; 404/403
 *   for a project the user may not generate into; 402 when the user cannot pay (no job);
 *   Error for a kind that is not registered or an input its schema refuses (a bug).
 */
export async function submitGeneration(
  deps: JobServiceDeps,
  request: GenerationRequest,
): Promise<JobRow> {
  const { db, jobs } = deps
  const kind = kindOf(jobs.kinds, request.kind)
  const input = kind.input.parse(request.input)
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
  // What the node's inputs are now, stored on it with the result (issue 42 item 4).
  const inputHash =
    request.projectId !== undefined && request.nodeId !== undefined
      ? await nodeInputHash(jobs, request.projectId, request.nodeId)
      : null
  const cost = request.cost ?? kind.cost(input)
  if (isCapturing()) {
    captured({
      kind: request.kind,
      input,
      cost,
      projectId: request.projectId ?? null,
      nodeId: request.nodeId ?? null,
      description: request.description,
      inputHash,
    })
  }
  await jobs.start()
  const id = randomUUID()
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
        input: JSON.stringify(input),
        idempotency_key: key,
        input_hash: inputHash,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!inserted) return undefined // the same key, concurrently: answered below
    if (cost === 0) {
      await jobs.queue.enqueue(trx, {
        jobId: id,
        userId: request.userId,
        expireInSeconds: expiryOf(kind, input),
      })
      return inserted
    }
    const spend = await spendCreditsIn(trx, {
      userId: request.userId,
      amount: cost,
      type: kind.ledger.type,
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
      expireInSeconds: expiryOf(kind, input),
    })
    return charged
  })
  if (!row) {
    const earlier = key ? await findJobByKey(db, key) : undefined
    if (!earlier) throw new Error('A job with this idempotency key vanished')
    return earlier
  }
  // Shown on the node without holding up the answer; a later state is never overwritten.
  deps.tasks.run('show the queued job', () => showJobState(jobs, row))
  return row
}

/**
 * Node `nodeId`'s input hash in its project's document now (shared's `docInputHash`), or null
 * for a node that is no generator or a document that cannot be read (the result is then
 * hashed as it is written).
 */
async function nodeInputHash(
  jobs: Pick<JobsContext, 'documents' | 'logger'>,
  projectId: number,
  nodeId: string,
): Promise<string | null> {
  try {
    return await jobs.documents.transact(projectId, (doc) => docInputHash(doc, nodeId))
  } catch (err) {
    jobs.logger.warn({ err, projectId, nodeId }, 'the node’s input hash was not read')
    return null
  }
}

/** How long the queue lets a job of `kind` stay active, in seconds (its timeout and a margin). */
export function expiryOf<Input>(kind: JobKind<Input>, input: Input): number {
  return Math.ceil(kind.timeoutMs(input) / 1000) + JOB_EXPIRY_MARGIN_SECONDS
}

/**
 * Waits until `job` has finished or `timeoutMs` passed: told at once when it finishes in
 * this process, else by reading the row every JOB_POLL_MS. With no time to wait (0) it
 * answers `job` as given, never reading it again: a caller that promised an answer at once
 * gets the job as it enqueued it, whatever a worker did meanwhile.
 * @returns the job's row as it is then (finished, or still queued / running).
 */
export async function waitForJob(
  deps: Pick<JobServiceDeps, 'db' | 'jobs'>,
  job: JobRow,
  timeoutMs: number,
): Promise<JobRow> {
  if (timeoutMs <= 0) return job
  const { id } = job
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
  db: Kysely<DB>,
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
  deps: Pick<JobServiceDeps, 'db' | 'jobs'>,
  { userId, jobId }: JobAccess,
): Promise<JobRow> {
  const row = await requireJob(deps.db, { userId, jobId, needed: 'editor' })
  if (isJobFinished(row.status)) return row
  return (await cancelOpenJob(deps.jobs, jobId)) ?? (await requireJob(deps.db, { userId, jobId }))
}
