/**
 * Work sent to a queue of its own rather than run as a generation (issue 41 item 3: webhook
 * deliveries): a pg-boss queue, sent to inside the caller's transaction (`GenerationQueue.
 * sendTask`), possibly for later, and run by the job system of every process that runs
 * workers. Like a `ScheduledTask` it carries no charge, no row in `generation_jobs` and no
 * node; its own rows (if any) are its feature's.
 */
export interface QueuedTask {
  /** Its pg-boss queue name: lower-case letters, digits and `-`. */
  readonly name: string
  /** Runs at once in one process. */
  readonly concurrency: number
  /** The longest one run takes before pg-boss takes it back, in seconds. */
  readonly expireInSeconds: number
  /**
   * Runs again after a run that threw (a bug, the database away), at most this many times, 30 s
   * apart: a task's own schedule (a webhook's retries) is its own business.
   */
  readonly retryLimit: number
  /**
   * One run with what was sent (validate it: it comes back from the database).
   * @throws to have it run again later (up to `retryLimit`).
   */
  run(data: unknown, signal: AbortSignal): Promise<void>
}
