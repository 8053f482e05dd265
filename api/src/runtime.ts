import { join } from 'node:path'
import { createDb, type DB, migrateToLatest } from '@reelgraph/db'
import {
  closeSyncServer,
  createDocumentGateway,
  createSyncServer,
  type SyncServer,
} from '@reelgraph/sync-server'
import type { Kysely } from 'kysely'
import { collectDefaultMetrics, Registry } from 'prom-client'
import type { Logger } from 'pino'
import type { AppDeps, WorkerDeps } from './app-env.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitRules } from './config.ts'
import type { Env } from './env.ts'
import { assetCollectionTask } from './features/assets/asset-collection.ts'
import { batchAdvanceTask } from './features/batches/batch-driver.ts'
import { batchOutcomes } from './features/batches/batch-outcomes.ts'
import { createAssetStorage } from './features/assets/index.ts'
import { activePriceIds, seedCatalog } from './features/billing/catalog.ts'
import { seedBuiltinTemplates } from './features/templates/builtin-templates.ts'
import { createBillingGateway } from './features/billing/index.ts'
import { createModelCatalog } from './features/generation/catalog/model-catalog.ts'
import { createAiProviders } from './features/generation/providers/index.ts'
import type { JobKinds } from './features/jobs/job-kind.ts'
import { JobSystem } from './features/jobs/job-system.ts'
import { registerJobMetrics } from './features/metrics/job-metrics.ts'
import { webhookDeliveryTask } from './features/webhooks/webhook-delivery.ts'
import { webhookOutcomes } from './features/webhooks/webhook-events.ts'
import { combineOutcomes } from './features/jobs/job-outcomes.ts'
import { runOutcomes, runReleaseTask } from './features/runs/run-release.ts'
import { createJobKinds, type JobKindDeps } from './job-kinds.ts'
import { BackgroundTasks } from './lib/background-tasks.ts'
import { createLogger } from './lib/logger.ts'
import { outboundSettings } from './lib/outbound/guarded-fetch.ts'
import { type Mailer, mailerFromEnv } from './services/mailer.ts'
import { connectRateLimitRedis, createRateLimits } from './services/rate-limiter.ts'

/**
 * The one place Reelgraph's server side is assembled (issue 21 item 2): the database, the
 * sync server and its document gateway, the AI providers and the model catalog (issue 22),
 * asset storage, the job kinds and
 * the job system with its webhook deliveries, the mailer, and for a process that serves HTTP
 * rate limits and billing.
 * `npm start` (api/src/server.ts), the worker process (worker/src/worker.ts) and the test
 * app (api/src/testing/test-app.ts) all start from here and stop through `close()`.
 */

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  /**
   * `app` (default): everything an api process needs. `worker`: only what running jobs
   * needs (no rate limits or billing: a worker takes no request; a mailer, for the notice
   * that a webhook was disabled).
   */
  role?: 'app' | 'worker'
  /** An open, migrated database to use (tests); default: open one from `env` and migrate it. */
  db?: Kysely<DB>
  /** Default: a logger at `env.LOG_LEVEL`. */
  logger?: Logger
  /** Default: SMTP or `.eml` files from `env` (`mailerFromEnv`). */
  mailer?: Mailer
  /** Default: `DEFAULT_RATE_LIMITS`. */
  rateLimitRules?: RateLimitRules
  /**
   * Count rate limits in the database even when `REDIS_URL` is set (tests: a shared Redis
   * would carry one test's counts into another's).
   */
  rateLimitsInDatabase?: boolean
  /**
   * The job kinds, from the kinds' dependencies; default `createJobKinds` (every kind
   * Reelgraph runs). Tests add their own kinds here.
   */
  jobKinds?: (deps: JobKindDeps) => JobKinds
  /** Serve the process's metrics at `/metrics` (issue 23 item 4): the api server does. */
  serveMetrics?: boolean
}

/** An assembled process. */
export interface Runtime<Deps> {
  deps: Deps
  /** The sync server behind `deps.documents` (mounted at `/sync` by the api process). */
  sync: SyncServer
  /**
   * Stops taking jobs (running ones get `graceMs`, then the lease hands them on), stores every
   * open document, finishes background work, closes Redis and, if it opened it, the database.
   */
  close(graceMs?: number): Promise<void>
}

/**
 * Assembles a process for `env`. With workers (`env.JOB_WORKERS`, always for the `worker`
 * role) the job system runs jobs here once started; nothing starts until `deps.jobs.start()`.
 * @throws Error when the database cannot be opened or migrated, or a production server (api
 *   or worker) has no way to send email.
 */
export async function createRuntime(
  env: Env,
  options: RuntimeOptions & { role: 'worker' },
): Promise<Runtime<WorkerDeps>>
export async function createRuntime(env: Env, options?: RuntimeOptions): Promise<Runtime<AppDeps>>
export async function createRuntime(
  env: Env,
  options: RuntimeOptions = {},
): Promise<Runtime<AppDeps | WorkerDeps>> {
  const role = options.role ?? 'app'
  const logger = options.logger ?? createLogger(env.LOG_LEVEL)
  // Before anything opens: a production server without a way to deliver email refuses to. A
  // worker sends email too: the notice that a webhook was disabled (issue 41 item 3).
  const mailer = options.mailer ?? mailerFromEnv(env, logger)
  const ownsDb = options.db === undefined
  const db =
    options.db ??
    createDb({
      databaseUrl: env.DATABASE_URL,
      pgliteDir: join(env.DATA_DIR, 'pg'),
      onPoolError: (err) =>
        logger.warn({ err }, 'idle database connection failed; the pool replaces it'),
    })
  if (ownsDb) {
    const applied = await migrateToLatest(db)
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated')
  }
  if (role === 'app') await seedCatalog(db, activePriceIds(env), env.storageQuotas)
  // The builtin templates (issue 42 item 2), by key: their ids stay across restarts.
  if (role === 'app') await seedBuiltinTemplates(db)

  const syncLogger = logger.child({ component: 'sync' })
  // One registry for the process's metrics (issue 23 item 4): Node's own, the embedded sync
  // server's, the job queue's; served at /metrics by a server that asks for it.
  const metrics = options.serveMetrics ? new Registry() : undefined
  if (metrics) collectDefaultMetrics({ register: metrics })
  const sync = createSyncServer({
    ...(metrics && { registry: metrics }),
    memoryBudgetBytes: env.SYNC_MEMORY_BUDGET_MB,
    db,
    logger: syncLogger,
    secureCookies: env.NODE_ENV === 'production',
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    allowedOrigins: env.allowedOrigins,
  })
  const documents = createDocumentGateway(sync)
  const ai = createAiProviders(env, logger)
  const catalog = createModelCatalog(env, { logger })
  const assets = createAssetStorage(env)
  const kindDeps: JobKindDeps = { db, env, logger, ai, catalog, assets, documents }
  // Webhooks (issue 41 item 3): events recorded with each job's outcome, delivered by workers.
  const webhookDeliveries = webhookDeliveryTask({
    db,
    logger: logger.child({ component: 'webhooks' }),
    mailer,
    queue: () => jobs.queue,
    settings: {
      retryDelaysMs: env.WEBHOOK_RETRY_DELAYS,
      disableAfterFailures: env.WEBHOOK_DISABLE_AFTER_FAILURES,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      allow: outboundSettings(env).allow,
    },
    appUrl: env.APP_URL,
  })
  // Batch runs (issue 42 item 3): the driver that starts a batch's rows as others end.
  const batchDriver = batchAdvanceTask({
    deps: () => core,
    logger: logger.child({ component: 'batches' }),
  })
  const jobs: JobSystem = new JobSystem({
    db,
    logger,
    documents,
    kinds: (options.jobKinds ?? createJobKinds)(kindDeps),
    settings: {
      retryLimit: env.JOB_RETRY_LIMIT,
      retryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS,
      heartbeatSeconds: env.JOB_HEARTBEAT_SECONDS,
      monitorSeconds: env.JOB_MONITOR_SECONDS,
      workerConcurrency: env.JOB_WORKER_CONCURRENCY,
      userConcurrency: env.JOB_USER_CONCURRENCY,
    },
    runWorkers: role === 'worker' || env.JOB_WORKERS,
    scheduledTasks: [assetCollectionTask({ db, storage: assets, logger, env })],
    // A run's waiting jobs (issue 42 item 4): released or cancelled as their inputs end.
    queuedTasks: [webhookDeliveries, batchDriver, runReleaseTask(() => ({ ...core, logger }))],
    outcomes: combineOutcomes(
      runOutcomes,
      webhookOutcomes({ appUrl: env.APP_URL }),
      // Batch runs (issue 42 item 3): a row ends with its job, the next one starts.
      batchOutcomes({ appUrl: env.APP_URL, logger: logger.child({ component: 'batches' }) }),
    ),
  })
  const tasks = new BackgroundTasks(logger)
  const core: WorkerDeps = { db, env, logger, documents, ai, catalog, assets, jobs, tasks }

  // Rate limits are shared by every api process: in Redis when there is one, else in the
  // app's database (issue 11 item 6).
  const rateLimitRedis =
    role === 'app' && env.REDIS_URL && !options.rateLimitsInDatabase
      ? connectRateLimitRedis(env.REDIS_URL, logger)
      : undefined
  const deps: AppDeps | WorkerDeps =
    role === 'app'
      ? {
          ...core,
          mailer,
          rateLimits: createRateLimits(
            options.rateLimitRules ?? DEFAULT_RATE_LIMITS,
            rateLimitRedis ? { kind: 'redis', client: rateLimitRedis } : { kind: 'postgres', db },
          ),
          billing: createBillingGateway(env, db),
          metrics,
        }
      : core
  if (metrics) registerJobMetrics(metrics, db)

  return {
    deps,
    sync,
    async close(graceMs) {
      // Jobs first: running ones finish (or are left to the lease) while documents still open.
      await jobs.stop(graceMs)
      await closeSyncServer(sync, syncLogger)
      await tasks.drain()
      rateLimitRedis?.disconnect() // no request is in flight any more
      if (ownsDb) await db.destroy()
    },
  }
}

/**
 * Runs until SIGINT or SIGTERM, then stops through `close` once and exits: the one shutdown
 * routine of the api and worker processes.
 */
export function closeOnSignal(close: () => Promise<void>, logger: Logger, what: string): void {
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, what)
    try {
      await close()
    } catch (err) {
      logger.error({ err }, 'shutting down failed')
      process.exit(1)
    }
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}
