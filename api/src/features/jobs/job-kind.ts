import {
  JOB_KIND_NAME_PATTERN,
  type CreditTransactionType,
  type JobNodeState,
  type JobProgress,
  type JobStageWeight,
  type ResultWrite,
} from '@reelgraph/shared'
import type { z } from 'zod'

/**
 * What a job kind is (issue 21 item 1; graphile-worker's `TaskList` is the model): the runner,
 * the settling of failures and cancels, and the submit service know only this interface and
 * the map of kinds they are given; each kind (a script, an image, a render...) is a module of
 * its own feature, and the runtime hands the map to the job system. Adding a kind is one new
 * module plus one line in the map (`api/src/job-kinds.ts`).
 */

/** The job a kind's hooks work for: who asked, where its result goes, what it was charged. */
export interface JobInfo {
  id: string
  userId: number
  /** The project and node its result and state go to, or null (the call only answers). */
  projectId: number | null
  nodeId: string | null
  /** Credits it was charged. */
  cost: number
  createdAt: Date
  /**
   * The hash of its node's inputs when its input was read (issue 42 item 4: shared's
   * `generatorInputHash`), to store with the result; null or absent when none was taken.
   */
  inputHash?: string | null
}

/** What `produce` gets besides the job's input. */
export interface JobContext {
  job: JobInfo
  /** Aborted when the job is cancelled, times out, or the queue takes it back. */
  signal: AbortSignal
  /**
   * Reports how far the job is (typed; issue 21 item 5). Throttled by the runner (a new stage
   * is written at once), so call it as often as the work knows more.
   */
  progress(progress: JobProgress): void
  /**
   * The provider delivered and is paid: from now on a cancel refunds nothing.
   * @throws Error when the job was cancelled meanwhile (stop working: nothing is kept).
   */
  paid(): Promise<void>
  /**
   * The steps done so far used `credits` of the charge (a running total, at most the cost):
   * a failure or cancel refunds only the rest (make video's chain).
   * @throws Error when the job was cancelled meanwhile.
   */
  delivered(credits: number): Promise<void>
}

/**
 * What `write` gets: the job, the input it answered, and the final state to show on its node
 * in the same change.
 */
export interface WriteContext<Input = unknown> {
  job: JobInfo & { projectId: number; nodeId: string }
  input: Input
  state: JobNodeState
}

/**
 * How a result reached the document (shared's `ResultWrite`): written (now or before), or
 * not placed because the node that made it is gone or the project is at its node limit (both
 * logged, neither retried).
 */
export type WriteOutcome = ResultWrite

/** True when a write's result is in the document (now or before): its hash may be stored. */
export function placed(outcome: WriteOutcome): boolean {
  return outcome === 'written' || outcome === 'already-written'
}

/**
 * One kind of job. `Input` is what the submit service stored (validated again when a worker
 * reads it), `Result` what the job's call answers (spec §7 shape) and `write` places.
 */
export interface JobKind<Input = unknown, Result = unknown> {
  /** Its name, stored on the job row (`script`, `video`...): lower-case letters, digits, `-`. */
  readonly name: string
  readonly input: z.ZodType<Input>
  readonly result: z.ZodType<Result>
  /** The ledger row of its charge, and its name in refund rows ("Image generation failed"). */
  readonly ledger: { type: CreditTransactionType; action: string }
  /** Its charge in credits for `input` (a render's depends on its scenes). */
  cost(input: Input): number
  /** The longest `produce` may run, in ms: past it the job fails as timed out. */
  timeoutMs(input: Input): number
  /** Its stages for `input`, in order, with their shares of the progress bar. */
  stages(input: Input): readonly JobStageWeight[]
  /** Where a worker that takes it starts. */
  firstProgress(input: Input): JobProgress
  /**
   * Does the work.
   * @throws ProviderError (`transient` ones are retried by the queue), AppError for a request
   *   that cannot be served (final), or the signal's reason when cancelled.
   */
  produce(input: Input, context: JobContext): Promise<Result>
  /**
   * Writes the result into the job's project, with `state` on its node in the same change
   * (absent: only the state is shown). Writing twice writes the same values.
   * @throws Error when the document cannot be opened or stored (the job is retried).
   */
  write?(result: Result, context: WriteContext<Input>): Promise<WriteOutcome>
  /**
   * Removes what a result leaves behind when nothing will point at it: the job was cancelled
   * while it was being stored. Never throws.
   */
  discard?(result: Result): Promise<void>
}

/**
 * A kind of any input and result: a map holds kinds of different types, and each is only
 * ever called with what its own `input` schema parsed (TypeScript has no existential types).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobKind = JobKind<any, any>

/** The kinds a job system runs, by name. */
export type JobKinds = ReadonlyMap<string, AnyJobKind>

/**
 * The map of `kinds` by name.
 * @throws Error when two kinds share a name or a name is not shared's `JOB_KIND_NAME_PATTERN`.
 */
export function jobKindMap(kinds: readonly AnyJobKind[]): JobKinds {
  const map = new Map<string, AnyJobKind>()
  for (const kind of kinds) {
    if (!JOB_KIND_NAME_PATTERN.test(kind.name)) throw new Error(`Bad job kind name: ${kind.name}`)
    if (map.has(kind.name)) throw new Error(`Two job kinds are named ${kind.name}`)
    map.set(kind.name, kind)
  }
  return map
}

/**
 * Kind `name` of `kinds`.
 * @throws Error when there is none: a row of a kind this process does not run.
 */
export function kindOf(kinds: JobKinds, name: string): JobKind {
  const kind = kinds.get(name)
  if (!kind) throw new Error(`No job kind named ${name} is registered`)
  return kind
}
