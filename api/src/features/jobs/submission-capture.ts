import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * A submission read but not made (issue 42 item 4): a run prices its nodes and, when a job's
 * inputs are ready, reads its input the way the node's own Generate button submits it (the
 * MCP server's `runNode`, over the REST submit services), without charging or queueing it
 * there. `submitGeneration` checks, validates and prices as always, then hands what it would
 * store to the capture instead.
 */

/** What `submitGeneration` would have recorded and charged. */
export interface CapturedSubmission {
  kind: string
  /** The kind's input, parsed by its schema. */
  input: unknown
  /** Credits it would charge. */
  cost: number
  projectId: number | null
  nodeId: string | null
  description: string
  /** Its node's input hash now (shared's `generatorInputHash`), or null. */
  inputHash: string | null
}

/** Thrown by `submitGeneration` inside {@link captureSubmission}: carries the submission. */
class SubmissionCaptured extends Error {
  readonly submission: CapturedSubmission
  constructor(submission: CapturedSubmission) {
    super('A submission was captured, not made.')
    this.submission = submission
  }
}

const capturing = new AsyncLocalStorage<true>()

/** True inside {@link captureSubmission}: `submitGeneration` must not record anything. */
export function isCapturing(): boolean {
  return capturing.getStore() === true
}

/** Stops a captured submission where it would be recorded (only `submitGeneration` calls it). */
export function captured(submission: CapturedSubmission): never {
  throw new SubmissionCaptured(submission)
}

/**
 * Runs `submit` (a submit service, e.g. `runNode`) and answers what it would have submitted;
 * nothing is charged, recorded or queued.
 * @throws what `submit` throws before submitting (AppError 400/403/404, ...); Error when it
 *   returned without submitting.
 */
export async function captureSubmission(
  submit: () => Promise<unknown>,
): Promise<CapturedSubmission> {
  try {
    await capturing.run(true, submit)
  } catch (err) {
    if (err instanceof SubmissionCaptured) return err.submission
    throw err
  }
  throw new Error('Nothing was submitted to capture.')
}
