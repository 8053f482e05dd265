import { z } from 'zod'
import { projectIdSchema } from './ids.ts'

/**
 * Generation as durable jobs (issue 12): what the api, the worker and the canvas agree on.
 *
 * Every generation (script, scenes, image; narration and video next) is a job: the api
 * validates, checks the role, charges once, enqueues and answers; a worker runs the
 * provider and writes the result into the project's document on the server. The job's
 * state lives on the node that started it, in the document (so every member sees it live
 * and it survives reloads), as the flat data fields of {@link JOB_DATA_KEYS}.
 */

/**
 * The kinds of job the canvas words (what a job makes): one generation, a video render, or
 * `make-video`, the whole chain from a Script Generator's topic to a rendered video (issue 13
 * item 6). The server runs whatever kinds its registry holds (issue 21: `api/src/job-kinds.ts`);
 * a job's `kind` is any such name, and the canvas words the ones it knows.
 */
export const JOB_KINDS = ['script', 'scenes', 'image', 'video', 'make-video', 'clip'] as const
export type JobKind = (typeof JOB_KINDS)[number]

/**
 * The shape of any job kind's name (stored on the job row and on the node): lower-case
 * letters, digits and `-`, at most 40, starting with a letter.
 */
export const JOB_KIND_NAME_PATTERN = /^[a-z][a-z0-9-]{0,39}$/

/** A job's life: queued -> running -> succeeded | failed | cancelled. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/** Statuses after which nothing more happens to a job. */
export const FINISHED_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled']

/** True when nothing more will happen to a job in `status`. */
export function isJobFinished(status: JobStatus): boolean {
  return FINISHED_JOB_STATUSES.includes(status)
}

/**
 * The job state on the generator node that started it: flat keys of the node's `data`
 * (data values are strings, numbers or booleans). Written by the server only; the canvas
 * reads them to show the state, the progress, Cancel, and the busy generate button.
 */
export const JOB_DATA_KEYS = {
  /** The job's id (`GET /api/jobs/:id`). */
  id: 'jobId',
  /**
   * One of {@link JOB_KINDS}: what the job makes, so a node that starts two kinds (the
   * Script Generator: a script, or a whole video) says the right thing.
   */
  kind: 'jobKind',
  /** One of {@link JOB_STATUSES}. */
  status: 'jobStatus',
  /** 0-100, where the provider reports progress; absent otherwise. */
  progress: 'jobProgress',
  /** What is happening, for a person ("Waiting for a worker", "Writing the script"). */
  stage: 'jobStage',
  /** Why it failed or was cancelled, in words a person can act on. */
  message: 'jobMessage',
  /** Credits given back after a failure or a cancel (0 when the provider was already paid). */
  refunded: 'jobRefunded',
  /** ISO time of the last change, so a stale "running" can be told apart. */
  updatedAt: 'jobUpdatedAt',
} as const

/** A job as `GET /api/jobs/:id` and `POST /api/jobs/:id/cancel` answer it. */
export const jobSchema = z
  .object({
    id: z.string(),
    /** The kind's name: one of {@link JOB_KINDS}, or another kind the server runs. */
    kind: z.string(),
    status: z.enum(JOB_STATUSES),
    projectId: z.number().int().nullable(),
    nodeId: z.string().nullable(),
    progress: z.number().min(0).max(100).nullable(),
    stage: z.string().nullable(),
    message: z.string().nullable(),
    /** Credits charged for the job. */
    cost: z.number().int(),
    /** Credits given back (after a failure or a cancel). */
    refunded: z.number().int(),
    /** The result in the spec §7 shape of its call, once succeeded. */
    result: z.unknown().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Job' })
export type Job = z.infer<typeof jobSchema>

/**
 * The answer of a generation call whose job has not finished within its wait
 * (`JOB_WAIT_MS`): HTTP 202 with the job to follow (`GET /api/jobs/:id`).
 */
export const jobAcceptedSchema = z
  .object({ jobId: z.string(), status: z.enum(JOB_STATUSES) })
  .meta({ id: 'JobAccepted' })
export type JobAccepted = z.infer<typeof jobAcceptedSchema>

/**
 * Where a generation's result goes (issue 12): the project and the generator node that
 * started it. With both, the worker writes the result into the document and the job's state
 * onto that node; without them (older clients), the call only answers the result.
 */
export const jobTargetSchema = z.object({
  projectId: projectIdSchema.optional(),
  nodeId: z.string().max(64).optional(),
})
