import { databaseConnection, type DB } from '@reelgraph/db'
import type { Kysely, Transaction } from 'kysely'
import { fromKysely, fromPglite, type Job, type JobWithMetadata, PgBoss, type Queue } from 'pg-boss'
import type { Logger } from 'pino'
import {
  JOB_NOTIFY_POLLING_INTERVAL_SECONDS,
  JOB_POLLING_INTERVAL_SECONDS,
  JOB_QUEUE_RETENTION_SECONDS,
  JOB_RETRY_DELAY_MAX_SECONDS,
} from '../../config.ts'
import type { QueuedTask } from './queued-task.ts'
import type { ScheduledTask } from './scheduled-task.ts'

/**
 * The generation queue: pg-boss on the app's own database (docs/decisions/006; issue 12).
 * On Postgres pg-boss has its own small pool; on PGlite it shares the app's one connection
 * through pg-boss's PGlite backend. Jobs are enqueued inside the transaction that charges for
 * them, so a job exists exactly when it was paid for.
 */

/** The queue every generation goes through. */
export const GENERATION_QUEUE = 'generation'
/**
 * Where pg-boss moves a job that failed for good without our handler saying so (its worker
 * died on the last attempt, or it expired): a handler there fails and refunds it.
 */
export const GENERATION_DEAD_QUEUE = 'generation-dead'

/** A task queue as the queue makes it: its name, its lease and its retries after a throw. */
type QueuedTaskQueue = Pick<QueuedTask, 'name' | 'expireInSeconds' | 'retryLimit'>

/** Wait before a queued task that threw runs again, in seconds (its own schedule aside). */
const TASK_RETRY_DELAY_SECONDS = 30

/**
 * How long after a task's wait its workers here are woken, in ms: a little past the due time,
 * so the database (whose clock decides) sees it due.
 */
const TASK_WAKE_MARGIN_MS = 50

/** What a queued generation carries: only its id; the row in `generation_jobs` has the rest. */
export interface QueuedGeneration {
  jobId: string
}

/** Retries, leases and monitoring of the queue (from the settings). */
export interface QueueSettings {
  retryLimit: number
  retryDelaySeconds: number
  heartbeatSeconds: number
  monitorSeconds: number
}

/** One delivery of a job to a worker, as the handler sees it. */
export interface Delivery {
  jobId: string
  /** 0 on the first attempt, then one more per retry (or per worker that died holding it). */
  retryCount: number
  retryLimit: number
  /** Aborted when pg-boss takes the job back (its lease lapsed) or the worker stops. */
  signal: AbortSignal
}

/** How a worker runs jobs. */
export interface WorkOptions {
  /** Jobs this process runs at once. */
  concurrency: number
  /** Jobs one user has running at once, on every worker together. */
  userConcurrency: number
}

/**
 * The generation queue over pg-boss. `start()` is idempotent and lazy callers share it, so a
 * process that never generates never creates pg-boss's schema.
 */
export class GenerationQueue {
  readonly #boss: PgBoss
  readonly #settings: QueueSettings
  readonly #taskQueues: readonly QueuedTaskQueue[]
  /** This process's pg-boss workers of each task queue, to wake when a retry comes due. */
  readonly #taskWorkers = new Map<string, string[]>()
  #started: Promise<void> | undefined

  /**
   * @param taskQueues the queues of {@link QueuedTask}s, made at start by every process (one
   *   that only sends to them too)
   */
  constructor(
    db: Kysely<DB>,
    settings: QueueSettings,
    logger: Logger,
    taskQueues: readonly QueuedTaskQueue[] = [],
  ) {
    const connection = databaseConnection(db)
    const common = {
      useListenNotify: true,
      superviseIntervalSeconds: settings.monitorSeconds,
      monitorIntervalSeconds: settings.monitorSeconds,
      // No instance registry (a row per process, refreshed every 30 s): nothing here reads it.
      registerInstance: false,
    }
    this.#boss =
      connection.kind === 'pglite'
        ? new PgBoss({ ...common, db: fromPglite(connection.pglite), backend: 'pglite' })
        : new PgBoss({
            ...common,
            connectionString: connection.url,
            max: 4,
            application_name: 'reelgraph-jobs',
          })
    this.#settings = settings
    this.#taskQueues = taskQueues
    this.#boss.on('error', (err) => logger.error({ err }, 'job queue error'))
    this.#boss.on('warning', (warning) => logger.warn({ warning }, 'job queue warning'))
  }

  /** Starts pg-boss (creating or migrating its schema) and the two queues; once. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.#boss.start()
      const { retryLimit, retryDelaySeconds, heartbeatSeconds } = this.#settings
      for (const [name, options] of [
        [GENERATION_DEAD_QUEUE, { retryLimit: 5, retryDelay: 5, retryBackoff: true }],
        [
          GENERATION_QUEUE,
          {
            retryLimit,
            retryDelay: retryDelaySeconds,
            retryBackoff: true,
            retryDelayMax: JOB_RETRY_DELAY_MAX_SECONDS,
            heartbeatSeconds,
            deadLetter: GENERATION_DEAD_QUEUE,
          },
        ],
      ] as const) {
        await this.#ensureQueue(name, options)
      }
      for (const task of this.#taskQueues) {
        await this.#ensureQueue(task.name, {
          retryLimit: task.retryLimit,
          retryDelay: TASK_RETRY_DELAY_SECONDS,
          expireInSeconds: task.expireInSeconds,
        })
      }
    })()
    return this.#started
  }

  /**
   * Creates queue `name` with `options`, or updates it to them when it exists (a setting
   * changed since), notified at once and its finished jobs deleted after the retention.
   */
  async #ensureQueue(
    name: string,
    options: Omit<Queue, 'name' | 'partition' | 'policy'>,
  ): Promise<void> {
    const queue = { ...options, notify: true, deleteAfterSeconds: JOB_QUEUE_RETENTION_SECONDS }
    if (await this.#boss.getQueue(name)) await this.#boss.updateQueue(name, queue)
    else await this.#boss.createQueue(name, queue)
  }

  /**
   * Sends `data` to the queue of task `name` inside `trx` (it exists once `trx` commits), to
   * run after `startAfterMs` (default: at once). When this process runs that task, its workers
   * are woken when the wait is over, so the run starts then rather than at their next poll.
   * @see issue 41 item 3 (webhook deliveries and their retries)
   */
  async sendTask(
    trx: Transaction<DB>,
    name: string,
    data: object,
    options: { startAfterMs?: number } = {},
  ): Promise<void> {
    await this.start()
    const waitMs = Math.max(0, options.startAfterMs ?? 0)
    await this.#boss.send(name, data, {
      // pg-boss reads a number as seconds, fractions too (a Postgres interval).
      ...(waitMs > 0 ? { startAfter: waitMs / 1000 } : {}),
      db: fromKysely(trx),
    })
    if (waitMs > 0 && this.#taskWorkers.has(name)) {
      setTimeout(() => this.#wake(name), waitMs + TASK_WAKE_MARGIN_MS).unref()
    }
  }

  #wake(name: string): void {
    for (const id of this.#taskWorkers.get(name) ?? []) this.#boss.notifyWorker(id)
  }

  /**
   * Runs `task` here, `task.concurrency` runs at once. A run that throws is logged and run
   * again up to `task.retryLimit` times.
   * @see issue 41 item 3
   */
  async workTask(task: QueuedTask, logger: Pick<Logger, 'error'>): Promise<void> {
    await this.start()
    const ids: string[] = []
    this.#taskWorkers.set(task.name, ids)
    for (let slot = 0; slot < task.concurrency; slot++) {
      const self: { id?: string } = {}
      self.id = await this.#boss.work(
        task.name,
        {
          localConcurrency: 1,
          pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS,
          notifyPollingIntervalSeconds: JOB_NOTIFY_POLLING_INTERVAL_SECONDS,
        },
        async ([job]) => {
          if (!job) return
          try {
            await task.run(job.data, job.signal)
          } catch (err) {
            logger.error({ err, task: task.name }, 'a queued task failed; it runs again later')
            throw err
          } finally {
            if (self.id) this.#boss.notifyWorker(self.id)
          }
        },
      )
      ids.push(self.id)
    }
  }

  /**
   * Enqueues job `jobId` inside `trx` (it exists once `trx` commits), grouped by user for
   * the per-user concurrency, to be taken back after `expireInSeconds` active.
   */
  async enqueue(
    trx: Transaction<DB>,
    job: { jobId: string; userId: number; expireInSeconds: number },
  ): Promise<void> {
    await this.start()
    await this.#boss.send(GENERATION_QUEUE, { jobId: job.jobId } satisfies QueuedGeneration, {
      id: job.jobId,
      group: { id: String(job.userId) },
      expireInSeconds: job.expireInSeconds,
      db: fromKysely(trx),
    })
  }

  /** Takes a queued (not yet started) job off the queue; nothing happens to a running one. */
  async dequeue(jobId: string): Promise<void> {
    await this.start()
    await this.#boss.cancel(GENERATION_QUEUE, jobId)
  }

  /**
   * Runs `handler` for each job, `concurrency` at once here and `userConcurrency` per user
   * everywhere. A handler that throws has its job retried with backoff until the retry limit,
   * then the job moves to the dead-letter queue.
   */
  async work(options: WorkOptions, handler: (delivery: Delivery) => Promise<void>): Promise<void> {
    await this.start()
    // One pg-boss worker per slot, each told to fetch again as soon as its job is done: a
    // pg-boss worker otherwise waits out its polling interval after every job, which caps a
    // process at `concurrency` jobs per 0.5 s however long the queue is.
    for (let slot = 0; slot < options.concurrency; slot++) {
      const self: { id?: string } = {}
      self.id = await this.#boss.work(
        GENERATION_QUEUE,
        {
          localConcurrency: 1,
          groupConcurrency: options.userConcurrency,
          includeMetadata: true,
          pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS,
          notifyPollingIntervalSeconds: JOB_NOTIFY_POLLING_INTERVAL_SECONDS,
        },
        async ([job]: JobWithMetadata<QueuedGeneration>[]) => {
          try {
            if (job) await handler(deliveryOf(job, job.retryLimit))
          } finally {
            if (self.id) this.#boss.notifyWorker(self.id)
          }
        },
      )
    }
  }

  /**
   * Schedules `task` on its cron (in UTC; an empty cron drops its schedule) and runs it here:
   * a queue of its own, one run active at a time over every process (pg-boss's `singleton`
   * policy), retried once after a failure, taken back after `expireInSeconds`.
   * @see issue 40 item 5 (the asset collector)
   */
  async runOnSchedule(
    task: ScheduledTask,
    options: { expireInSeconds: number },
    logger: Pick<Logger, 'warn' | 'error'>,
  ): Promise<void> {
    await this.start()
    if (!(await this.#boss.getQueue(task.name))) {
      await this.#boss.createQueue(task.name, {
        policy: 'singleton',
        retryLimit: 1,
        retryDelay: 60,
        expireInSeconds: options.expireInSeconds,
        deleteAfterSeconds: JOB_QUEUE_RETENTION_SECONDS,
      })
    }
    if (!task.cron) {
      await this.#boss.unschedule(task.name)
      return
    }
    await this.#boss.schedule(task.name, task.cron, null, { tz: 'UTC' })
    await this.#boss.work(
      task.name,
      {
        pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS,
        notifyPollingIntervalSeconds: JOB_NOTIFY_POLLING_INTERVAL_SECONDS,
      },
      async ([job]) => {
        if (!job) return
        try {
          await task.run(job.signal)
        } catch (err) {
          logger.error({ err, task: task.name }, 'a scheduled task failed')
          throw err
        }
      },
    )
  }

  /** The cron `name` is scheduled on, or null when it has none (tests, operators). */
  async scheduleOf(name: string): Promise<string | null> {
    await this.start()
    return (await this.#boss.getSchedule(name))?.cron ?? null
  }

  /** Runs `handler` for each job that failed for good behind our back (see GENERATION_DEAD_QUEUE). */
  async workDead(handler: (jobId: string) => Promise<void>): Promise<void> {
    await this.start()
    await this.#boss.work<QueuedGeneration>(
      GENERATION_DEAD_QUEUE,
      {
        pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS,
        notifyPollingIntervalSeconds: JOB_NOTIFY_POLLING_INTERVAL_SECONDS,
      },
      async ([job]) => {
        if (job) await handler(job.data.jobId)
      },
    )
  }

  /**
   * Stops working: no new job is taken; running handlers get `graceMs` to finish, then
   * their jobs are left to the lease (another worker runs them).
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.#started) return
    await this.#started.catch(() => {})
    await this.#boss.stop({ graceful: true, timeout: graceMs, close: true })
  }
}

function deliveryOf(job: Job<QueuedGeneration>, retryLimit: number): Delivery {
  return {
    jobId: job.data.jobId,
    retryCount: job.retryCount,
    retryLimit,
    signal: job.signal,
  }
}
