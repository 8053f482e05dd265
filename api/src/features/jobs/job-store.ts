import type { DB, GenerationJobStatus } from '@reelgraph/db'
import {
  type Job,
  type JobNodeState,
  FINISHED_JOB_STATUSES,
  JOB_ID_PATTERN,
} from '@reelgraph/shared'
import { type Kysely, type Selectable, sql, type Updateable } from 'kysely'
import type { JobInfo } from './job-kind.ts'

/**
 * The `generation_jobs` rows (issue 12): the record of every generation job, read by the
 * api and written by the workers. Every state change is a conditional update (only from the
 * statuses it may follow), so a cancel, a worker and a retry racing each other cannot undo one
 * another.
 */

/** A job row. */
export type JobRow = Selectable<DB['generation_jobs']>

/** Statuses in which a job may still change. */
export const OPEN_JOB_STATUSES: GenerationJobStatus[] = ['queued', 'running']

/** The job as the api answers it (`jobSchema`). */
export function toJobJson(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    projectId: row.project_id,
    nodeId: row.node_id,
    progress: row.progress,
    stage: row.stage,
    message: row.message,
    cost: row.cost,
    refunded: row.refunded,
    result: row.status === 'succeeded' ? (row.result ?? null) : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

/** The job's state as its generator node shows it. */
export function nodeStateOf(row: JobRow): JobNodeState {
  const finished = FINISHED_JOB_STATUSES.includes(row.status)
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    progress: row.status === 'succeeded' ? 100 : row.progress,
    stage: finished ? null : row.stage,
    message: row.message,
    refunded: row.status === 'failed' || row.status === 'cancelled' ? row.refunded : null,
    updatedAt: row.updated_at,
  }
}

/** Who a job is for, as its kind's hooks see it. */
export function jobInfoOf(row: JobRow): JobInfo {
  return {
    id: row.id,
    userId: row.user_id,
    projectId: row.project_id,
    nodeId: row.node_id,
    cost: row.cost,
    createdAt: row.created_at,
    inputHash: row.input_hash,
  }
}

/** The job with id `id`, or undefined (also for an id that is not a UUID). */
export async function findJob(db: Kysely<DB>, id: string): Promise<JobRow | undefined> {
  if (!JOB_ID_PATTERN.test(id)) return undefined
  return db.selectFrom('generation_jobs').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The job started with idempotency key `key`, or undefined. */
export async function findJobByKey(db: Kysely<DB>, key: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('generation_jobs')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirst()
}

/**
 * Applies `patch` to job `id` if its status is one of `from` (and stamps `updated_at`).
 * @returns the updated row, or undefined when the job was not in one of those statuses.
 */
export async function updateJob(
  db: Kysely<DB>,
  id: string,
  from: readonly GenerationJobStatus[],
  patch: Updateable<DB['generation_jobs']>,
): Promise<JobRow | undefined> {
  return db
    .updateTable('generation_jobs')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst()
}
