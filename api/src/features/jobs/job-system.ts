import type { DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Env } from '../../env.ts'
import { GenerationQueue } from './job-queue.ts'
import { runGenerationJob, type WorkerDeps } from './job-runner.ts'
import { settleDeadJob } from './job-settle.ts'
import { JobSignals } from './job-signals.ts'
import { findJob } from './job-store.ts'

/**
 * The jobs of one process (issue 12): the queue, the in-process signals, and (when asked)
 * the workers that run jobs here. Starts lazily: the first enqueue (or `start()` at boot)
 * creates pg-boss's schema and, with workers, begins taking jobs.
 */
export class JobSystem {
  readonly queue: GenerationQueue
  readonly signals = new JobSignals()
  #workers: WorkerDeps | undefined
  #started: Promise<void> | undefined
  readonly #env: Env

  constructor(db: Kysely<DB>, env: Env, logger: Logger) {
    this.#env = env
    this.queue = new GenerationQueue(
      db,
      {
        retryLimit: env.JOB_RETRY_LIMIT,
        retryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS,
        heartbeatSeconds: env.JOB_HEARTBEAT_SECONDS,
        monitorSeconds: env.JOB_MONITOR_SECONDS,
      },
      logger.child({ component: 'jobs' }),
    )
  }

  /**
   * Runs jobs in this process once started, `JOB_WORKER_CONCURRENCY` at once and
   * `JOB_USER_CONCURRENCY` per user (call before {@link start}).
   */
  runWorkersHere(deps: WorkerDeps): void {
    this.#workers = deps
  }

  /** Starts the queue and, if asked, this process's workers; once. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.queue.start()
      const deps = this.#workers
      if (!deps) return
      await this.queue.work(
        {
          concurrency: this.#env.JOB_WORKER_CONCURRENCY,
          userConcurrency: this.#env.JOB_USER_CONCURRENCY,
        },
        (delivery) => runGenerationJob(deps, delivery),
      )
      await this.queue.workDead(async (jobId) => {
        const row = await findJob(deps.db, jobId)
        if (row) await settleDeadJob(deps, row)
      })
    })()
    return this.#started
  }

  /** Stops taking jobs; running ones get `graceMs` to finish, then the lease hands them on. */
  async stop(graceMs?: number): Promise<void> {
    await this.queue.stop(graceMs)
  }
}
