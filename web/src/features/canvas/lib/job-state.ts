import {
  type GenerationAction,
  isJobFinished,
  JOB_FIELD_KEYS,
  type JobFields,
  type JobKind,
  type JobStatus,
  type NodeData,
  readJobFields,
} from '@reelgraph/shared'

/**
 * A generation's job as the canvas shows it (issue 12), read from the flat job fields the
 * server writes onto the generator node's data (shared `JOB_FIELDS`): every member sees
 * the same state live, and it survives reloads. Pure functions, no React.
 */

/** The job fields a generator node's flow data carries, named as in the doc (shared). */
export type { JobFields }
/** The job fields of a node's data, as every generator type reads them (shared). */
export { readJobFields }

/** A node's job, normalized. */
export interface JobState {
  id: string
  /** What the job makes; null when the node's fields do not say (older jobs). */
  kind: JobKind | null
  status: JobStatus
  /** 0-100, whole; null when the provider reports none (an indeterminate bar). */
  progress: number | null
  /** What is happening ("Writing the script"); '' when the server said nothing. */
  stage: string
  /** Why it failed or was cancelled; '' when the server said nothing. */
  message: string
  /** Credits given back, 0 or more. */
  refunded: number
  /** ISO time of the last change, when known. */
  updatedAt: string | null
}

const JOB_KEY_SET: ReadonlySet<string> = new Set(JOB_FIELD_KEYS)

/**
 * A node's data without the job fields: what a pasted copy starts with (the job belongs to
 * the node that started it; a copy showing it would offer to cancel someone else's job).
 */
export function withoutJobFields(data: Readonly<NodeData>): NodeData {
  const out: NodeData = {}
  for (const [key, value] of Object.entries(data)) if (!JOB_KEY_SET.has(key)) out[key] = value
  return out
}

/** The node's job, or null when it has none (no id or no known status). */
export function jobStateOf(fields: Readonly<JobFields>): JobState | null {
  if (!fields.jobId || !fields.jobStatus) return null
  const progress =
    fields.jobProgress === undefined
      ? null
      : Math.min(100, Math.max(0, Math.round(fields.jobProgress)))
  return {
    id: fields.jobId,
    kind: fields.jobKind ?? null,
    status: fields.jobStatus,
    progress,
    stage: fields.jobStage?.trim() ?? '',
    message: fields.jobMessage?.trim() ?? '',
    refunded: Math.max(0, Math.round(fields.jobRefunded ?? 0)),
    updatedAt: fields.jobUpdatedAt ?? null,
  }
}

/** True while the job is queued or running: the Generate button is busy, Cancel is offered. */
export function isJobActive(job: JobState | null): boolean {
  return job !== null && !isJobFinished(job.status)
}

/**
 * What a node's job makes: a generation, a video (a render, or "Make video"; issue 13), or a
 * generated clip (the Video Generator, issue 22).
 */
export type JobAction = GenerationAction | 'video' | 'clip'

/**
 * The action a node's job is about: `fallback` (the node's own generation) unless the job
 * says it makes a video (the Script Generator's "Make video", issue 13 item 6) or a clip
 * (issue 22).
 */
export function jobActionOf(job: JobState | null, fallback: JobAction): JobAction {
  if (job?.kind === 'clip') return 'clip'
  return job?.kind === 'make-video' || job?.kind === 'video' ? 'video' : fallback
}

const ACTION_WORD: Record<JobAction, string> = {
  script: 'script',
  scenes: 'scenes',
  image: 'image',
  video: 'video',
  clip: 'clip',
}

/**
 * The spec §8 alert of a failed job, as a call that failed with it would show it: "Failed to
 * generate image: <the job's message, or Unknown error>" (the toast of a job followed after
 * its 202).
 */
export function jobFailureAlert(action: JobAction, job: JobState): string {
  return `Failed to generate ${ACTION_WORD[action]}: ${job.message || 'Unknown error'}`
}

/** The server's own refund sentence ("Your 2 credits were refunded."), said by the refund line. */
const REFUND_SENTENCE = /\s*Your \d+ credits? (?:was|were) refunded\./g

/**
 * What the node says about its job, and what is announced (politely) when it changes:
 * "Queued"; the stage while running ("Generating..." when the server names none); the spec
 * §8 alert when it failed ("Failed to generate image: <message or Unknown error>", without
 * the refund sentence: {@link refundText} says it); "Cancelled", or the server's words when
 * nothing was refunded (they say why); and "Done" when it succeeded (announced only: the node
 * looks as usual).
 */
export function jobStatusText(action: JobAction, job: JobState): string {
  switch (job.status) {
    case 'queued':
      return 'Queued'
    case 'running':
      return job.stage || 'Generating...'
    case 'succeeded':
      return 'Done'
    case 'failed': {
      const reason = job.message.replace(REFUND_SENTENCE, '').trim()
      return `Failed to generate ${ACTION_WORD[action]}: ${reason || 'Unknown error'}`
    }
    case 'cancelled':
      return job.refunded > 0 || !job.message ? 'Cancelled' : job.message
  }
}

/** "Refunded 2 credits" ("1 credit"); null when nothing was given back. */
export function refundText(refunded: number): string | null {
  if (refunded <= 0) return null
  return `Refunded ${refunded} ${refunded === 1 ? 'credit' : 'credits'}`
}

/** The progress bar's spoken value: "40%", or "In progress" when the amount is unknown. */
export function progressValueText(progress: number | null): string {
  return progress === null ? 'In progress' : `${progress}%`
}
