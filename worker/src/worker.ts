import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AppDeps } from '@reelgraph/api/app-env'
import { createAssetStorage } from '@reelgraph/api/features/assets/index'
import { createAiProviders } from '@reelgraph/api/features/generation/providers/index'
import type { WorkerDeps } from '@reelgraph/api/features/jobs/job-runner'
import { JobSystem } from '@reelgraph/api/features/jobs/job-system'
import { createLogger } from '@reelgraph/api/lib/logger'
import { createDb, migrateToLatest } from '@reelgraph/db'
import { closeSyncServer, createDocumentGateway, createSyncServer } from '@reelgraph/sync-server'
import { loadWorkerEnv, type WorkerEnv } from './env.ts'

/** A running worker process's parts, and how to stop them. */
export interface RunningWorker {
  deps: WorkerDeps
  /** The port of `GET /healthz`. */
  port: number
  /**
   * Stops taking jobs (running ones get `graceMs`, then their lease hands them to another
   * worker), stores the documents it wrote, closes Redis and the database.
   */
  close(graceMs?: number): Promise<void>
}

/**
 * Starts a worker (issue 12 item 5): the api's job runner on the shared queue, writing into
 * documents through its own Hocuspocus instance joined to the sync servers by Redis (the way
 * a second sync server does), and `GET /healthz` on `WORKER_PORT`.
 */
export async function startWorker(env: WorkerEnv): Promise<RunningWorker> {
  const logger = createLogger(env.LOG_LEVEL).child({ component: 'worker' })
  const db = createDb({
    databaseUrl: env.DATABASE_URL,
    onPoolError: (err) =>
      logger.warn({ err }, 'idle database connection failed; the pool replaces it'),
  })
  const applied = await migrateToLatest(db)
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated')
  const syncLogger = logger.child({ component: 'sync' })
  const sync = createSyncServer({
    db,
    logger: syncLogger,
    secureCookies: env.NODE_ENV === 'production',
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
  })
  const deps: WorkerDeps = {
    db,
    env,
    logger,
    ai: createAiProviders(env, logger),
    assets: createAssetStorage(env),
    documents: createDocumentGateway(sync) satisfies AppDeps['documents'],
    jobs: new JobSystem(db, env, logger),
  }
  deps.jobs.runWorkersHere(deps)
  await deps.jobs.start()
  const health: Server = createServer((req, res) => {
    const ok = req.method === 'GET' && req.url === '/healthz'
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'Not Found')
  })
  await new Promise<void>((resolve) => health.listen(env.WORKER_PORT, resolve))
  const port = (health.address() as AddressInfo).port
  logger.info(
    {
      concurrency: env.JOB_WORKER_CONCURRENCY,
      userConcurrency: env.JOB_USER_CONCURRENCY,
      text: deps.ai.text.info.id,
      image: deps.ai.image.info.id,
      healthPort: port,
    },
    'worker taking generation jobs',
  )
  return {
    deps,
    port,
    async close(graceMs) {
      await deps.jobs.stop(graceMs)
      await new Promise<void>((resolve) => health.close(() => resolve()))
      await closeSyncServer(sync, syncLogger)
      await db.destroy()
    },
  }
}

/** `npm start -w worker`: runs until SIGINT/SIGTERM, then stops gracefully. */
export async function main(): Promise<void> {
  const running = await startWorker(loadWorkerEnv())
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    running.deps.logger.info({ signal }, 'shutting down: finishing running jobs')
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
