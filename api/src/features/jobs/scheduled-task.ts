/**
 * Work that runs on a clock rather than on a request (issue 40 item 5: the asset collector):
 * a pg-boss schedule and queue of its own, run by worker processes, one run at a time over
 * all of them. Kinds of generation stay in the job-kind registry; these carry no charge, no
 * row in `generation_jobs` and no node.
 */
export interface ScheduledTask {
  /** Its pg-boss queue and schedule name: lower-case letters, digits and `-`. */
  readonly name: string
  /** When it runs: a cron expression in UTC; empty: never (a schedule stored before is dropped). */
  readonly cron: string
  /**
   * One run. A throw is logged and the run retried once, later; the next scheduled run comes
   * anyway.
   */
  run(signal: AbortSignal): Promise<void>
}
