import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import { createDb, migrateToLatest } from '@reelgraph/db'
import { describeLookalike } from '@reelgraph/shared'
import {
  attachSyncServer,
  closeSyncServer,
  createDocumentGateway,
  createSyncServer,
  SYNC_SETTING_NAMES,
  type SyncServer,
} from '@reelgraph/sync-server'
import { createApp } from './app.ts'
import type { AppDeps } from './app-env.ts'
import { DEFAULT_RATE_LIMITS } from './config.ts'
import { type Env, loadEnv, settingLookalikes } from './env.ts'
import { createAssetStorage } from './features/assets/index.ts'
import { activePriceIds, seedCatalog } from './features/billing/catalog.ts'
import { createBillingGateway } from './features/billing/index.ts'
import { createAiProviders } from './features/generation/providers/index.ts'
import { JobSystem } from './features/jobs/job-system.ts'
import { BackgroundTasks } from './lib/background-tasks.ts'
import { createLogger } from './lib/logger.ts'
import { mailerFromEnv } from './services/mailer.ts'
import { connectRateLimitRedis, createRateLimits } from './services/rate-limiter.ts'

/** A running server and how to stop it. */
export interface RunningServer {
  server: ServerType
  port: number
  deps: AppDeps
  /** The sync server mounted at SYNC_PATH (`/sync`) on the same port. */
  sync: SyncServer
  /**
   * Stops accepting requests and sockets, stores every open document, finishes background
   * work, closes the database.
   */
  close(): Promise<void>
}

/**
 * Starts the api (and the built web app when `WEB_DIST_DIR` has one) on `PORT`:
 * opens the database (PGlite in DATA_DIR/pg unless DATABASE_URL is set), migrates it, and
 * listens.
 * @throws Error when the environment is invalid or migrations fail.
 */
export async function startServer(env: Env = loadEnv()): Promise<RunningServer> {
  const logger = createLogger(env.LOG_LEVEL)
  // Look-alike variables are silently ignored by the schema: say so (issue 11 item 9).
  for (const finding of settingLookalikes(SYNC_SETTING_NAMES)) {
    logger.warn(
      { variable: finding.name, suggestion: finding.suggestion },
      describeLookalike(finding),
    )
  }
  // Before anything starts: a production server without a way to deliver email refuses to.
  const mailer = mailerFromEnv(env, logger)
  const db = createDb({
    databaseUrl: env.DATABASE_URL,
    pgliteDir: join(env.DATA_DIR, 'pg'),
    onPoolError: (err) =>
      logger.warn({ err }, 'idle database connection failed; the pool replaces it'),
  })
  const applied = await migrateToLatest(db)
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated')
  await seedCatalog(db, activePriceIds(env))
  const syncLogger = logger.child({ component: 'sync' })
  const sync = createSyncServer({
    db,
    logger: syncLogger,
    secureCookies: env.NODE_ENV === 'production',
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    allowedOrigins: env.allowedOrigins,
  })
  // Rate limits are shared by every api process: in Redis when there is one, else in the
  // app's database (issue 11 item 6).
  const rateLimitRedis = env.REDIS_URL ? connectRateLimitRedis(env.REDIS_URL, logger) : undefined
  const deps: AppDeps = {
    db,
    env,
    logger,
    mailer,
    rateLimits: createRateLimits(
      DEFAULT_RATE_LIMITS,
      rateLimitRedis ? { kind: 'redis', client: rateLimitRedis } : { kind: 'postgres', db },
    ),
    tasks: new BackgroundTasks(logger),
    documents: createDocumentGateway(sync),
    ai: createAiProviders(env, logger),
    assets: createAssetStorage(env),
    billing: createBillingGateway(env, db),
    jobs: new JobSystem(db, env, logger),
  }
  // Generation jobs (issue 12): the queue always; workers here unless JOB_WORKERS=false (then
  // `npm start -w worker` processes run them).
  if (env.JOB_WORKERS) deps.jobs.runWorkersHere(deps)
  await deps.jobs.start()
  const app = createApp(deps, { webDistDir: env.WEB_DIST_DIR || undefined })
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, () => resolve(s))
  })
  // serve() without a createServer option makes a node:http server.
  const syncAttachment = attachSyncServer(server as Server, sync.hocuspocus)
  const port = (server.address() as AddressInfo).port
  logger.info(
    {
      port,
      database: env.DATABASE_URL ? 'postgres' : 'pglite',
      mail: env.SMTP_URL ? 'smtp' : 'files',
    },
    `Reelgraph is listening on ${env.APP_URL}`,
  )
  return {
    server,
    port,
    deps,
    sync,
    async close() {
      // Jobs first: running ones finish (or are left to the lease) while documents still open.
      await deps.jobs.stop()
      // Sockets first (the HTTP server waits for them), then the stores they leave pending.
      await syncAttachment.close()
      await closeSyncServer(sync, syncLogger)
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await deps.tasks.drain()
      rateLimitRedis?.disconnect() // the HTTP server is closed: no command is pending
      await db.destroy()
    },
  }
}

/** Runs the server until SIGINT/SIGTERM, then shuts down gracefully. */
export async function main(): Promise<void> {
  const running = await startServer()
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    running.deps.logger.info({ signal }, 'shutting down')
    await running.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
