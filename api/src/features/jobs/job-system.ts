import type { DB } from '@reelgraph/db'
import type { DocumentGateway } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { JobsContext } from './job-deps.ts'
import type { JobKinds } from './job-kind.ts'
import type { JobOutcomes } from './job-outcomes.ts'
import { GenerationQueue, type QueueSettings } from './job-queue.ts'
import { runGenerationJob } from './job-runner.ts'
import { settleDeadJob } from './job-settle.ts'
import { JobSignals } from './job-signals.ts'
import type { QueuedTask } from './queued-task.ts'
import type { ScheduledTask } from './scheduled-task.ts'
import { findJob } from './job-store.ts'

/** The queue's settings and how many jobs this process and one user run at once. */
export interface JobSettings extends QueueSettings {
  /** Jobs one worker process runs at once. */
  workerConcurrency: number
  /** Jobs one user has running at once, on every worker together. */
  userConcurrency: number
}

/** What a job system is made of. */
export interface JobSystemOptions {
  db: Kysely<DB>
  logger: Logger
  documents: DocumentGateway
  /** The kinds it runs (`api/src/job-kinds.ts`, or a test's own map). */
  kinds: JobKinds
  settings: JobSettings
  /** Run workers in this process once started (else it only enqueues). */
  runWorkers: boolean
  /**
   * Work on a clock that this process's workers run (the asset collector; issue 40 item 5),
   * each taken back after `expireInSeconds` of running.
   */
  scheduledTasks?: readonly ScheduledTask[]
  /**
   * Work sent to queues of its own (webhook deliveries; issue 41 item 3): every process makes
   * their queues, and this process's workers run them.
   */
  queuedTasks?: readonly QueuedTask[]
  /** Told of each job's success or failure inside its transaction (issue 41 item 3). */
  outcomes?: JobOutcomes
}

/** The longest a scheduled task runs before pg-boss takes it back, in seconds: 6 hours. */
const SCHEDULED_TASK_EXPIRE_SECONDS = 6 * 60 * 60

/**
 * The jobs of one process (issue 12; issue 21: it knows kinds only through its map): the
 * queue, the in-process signals, and (when asked) the workers that run jobs here. Starts
 * lazily: the first enqueue (or `start()` at boot) creates pg-boss's schema and, with
 * workers, begins taking jobs.
 */
export class JobSystem implements JobsContext {
  readonly db: Kysely<DB>
  readonly documents: DocumentGateway
  readonly logger: Logger
  readonly kinds: JobKinds
  readonly queue: GenerationQueue
  readonly signals = new JobSignals()
  readonly runsWorkers: boolean
  readonly outcomes: JobOutcomes | undefined
  readonly #settings: JobSettings
  readonly #scheduledTasks: readonly ScheduledTask[]
  readonly #queuedTasks: readonly QueuedTask[]
  #started: Promise<void> | undefined

  constructor(options: JobSystemOptions) {
    this.db = options.db
    this.documents = options.documents
    this.logger = options.logger
    this.kinds = options.kinds
    this.runsWorkers = options.runWorkers
    this.#settings = options.settings
    this.#scheduledTasks = options.scheduledTasks ?? []
    this.#queuedTasks = options.queuedTasks ?? []
    this.outcomes = options.outcomes
    this.queue = new GenerationQueue(
      options.db,
      options.settings,
      options.logger.child({ component: 'jobs' }),
      this.#queuedTasks,
    )
  }

  /** Starts the queue and, if asked, this process's workers; once. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.queue.start()
      if (!this.runsWorkers) return
      await this.queue.work(
        {
          concurrency: this.#settings.workerConcurrency,
          userConcurrency: this.#settings.userConcurrency,
        },
        (delivery) => runGenerationJob(this, delivery),
      )
      await this.queue.workDead(async (jobId) => {
        const row = await findJob(this.db, jobId)
        if (row) await settleDeadJob(this, row)
      })
      for (const task of this.#queuedTasks) await this.queue.workTask(task, this.logger)
      for (const task of this.#scheduledTasks) {
        await this.queue.runOnSchedule(
          task,
          { expireInSeconds: SCHEDULED_TASK_EXPIRE_SECONDS },
          this.logger,
        )
      }
    })()
    return this.#started
  }

  /** Stops taking jobs; running ones get `graceMs` to finish, then the lease hands them on. */
  async stop(graceMs?: number): Promise<void> {
    await this.queue.stop(graceMs)
  }
}
