import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDb, migrateToLatest } from '@reelgraph/db'
import { describeLookalike } from '@reelgraph/shared'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { attachSyncServer } from './attach.ts'
import {
  closeSyncServer,
  createSyncServer,
  type SyncServer,
  type SyncServerOptions,
} from './create-sync-server.ts'
import { loadSyncEnv, syncSettingLookalikes } from './env.ts'
import { createSyncLogger } from './logger.ts'
import {
  answerPublicMetrics,
  isMetricsPath,
  type MetricsServer,
  metricsWhere,
  startMetricsServer,
} from './metrics-endpoint.ts'

/** A listening sync server (its Hocuspocus instance and extension handles) and how to stop it. */
export interface RunningSyncServer extends SyncServer {
  port: number
  httpServer: Server
  /** The port of the separate metrics server on 127.0.0.1 (`metricsPort`), if one was asked for. */
  metricsPort: number | undefined
  /**
   * Stops accepting sockets, closes the open ones, stores every pending change, stops
   * listening. Does not close the database.
   */
  close(): Promise<void>
}

/** {@link SyncServerOptions} and where to listen. */
export interface StartSyncServerOptions extends SyncServerOptions {
  /** 0 picks a free port (tests). */
  port: number
  host?: string | undefined
  /**
   * METRICS_TOKEN (issue 40 item 6): `/metrics` on `port` answers only a request carrying it
   * as a bearer token (401 otherwise); unset, it answers 404 there.
   */
  metricsToken?: string | undefined
  /**
   * METRICS_PORT (issue 40 item 6): also serve `/metrics`, without a token, on this port of
   * 127.0.0.1 (0: a free one); unset: no such server.
   */
  metricsPort?: number | undefined
}

/**
 * Starts a sync server on its own HTTP server: WebSockets at `/sync`, `GET /healthz` for
 * load balancers, `GET /metrics` (Prometheus text, issue 23 item 4) only with `metricsToken`
 * (else 404) and on `metricsPort` of 127.0.0.1 if asked (issue 40 item 6), 404 for anything
 * else.
 * @throws Error when a port cannot be listened on
 */
export async function startSyncServer(options: StartSyncServerOptions): Promise<RunningSyncServer> {
  const sync = createSyncServer(options)
  const httpServer = createServer((req, res) => {
    if (isMetricsPath(req.url)) {
      answerPublicMetrics(req, res, sync.registry, options.metricsToken)
      return
    }
    const ok = req.method === 'GET' && req.url === '/healthz'
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'Not Found')
  })
  const attachment = attachSyncServer(httpServer, sync.hocuspocus)
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(options.port, options.host, () => {
      httpServer.off('error', reject)
      resolve()
    })
  })
  let metricsServer: MetricsServer | undefined
  const stop = async () => {
    await metricsServer?.close()
    await attachment.close()
    await closeSyncServer(sync, options.logger)
    await new Promise<void>((resolve) => httpServer.close(() => resolve()))
  }
  if (options.metricsPort !== undefined) {
    try {
      metricsServer = await startMetricsServer({
        registry: sync.registry,
        port: options.metricsPort,
      })
    } catch (err) {
      await stop()
      throw err
    }
  }
  return {
    port: (httpServer.address() as AddressInfo).port,
    httpServer,
    metricsPort: metricsServer?.port,
    ...sync,
    close: stop,
  }
}

/**
 * The standalone process (production, `npm start -w sync-server`): Postgres from
 * DATABASE_URL (migrated at boot, like the api: Kysely's migration lock makes concurrent
 * boots safe), listens on SYNC_PORT, and on SIGINT/SIGTERM stores every pending change
 * before exiting.
 */
export async function main(): Promise<void> {
  const env = loadSyncEnv()
  const logger = createSyncLogger(env.LOG_LEVEL)
  // Unknown look-alike variables are ignored by the schema: say so (issue 11 item 9).
  for (const finding of syncSettingLookalikes()) {
    logger.warn(
      { variable: finding.name, suggestion: finding.suggestion },
      describeLookalike(finding),
    )
  }
  const db = createDb({
    databaseUrl: env.DATABASE_URL,
    onPoolError: (err) =>
      logger.warn({ err }, 'idle database connection failed; the pool replaces it'),
  })
  const applied = await migrateToLatest(db)
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated')
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const running = await startSyncServer({
    registry,
    memoryBudgetBytes: env.SYNC_MEMORY_BUDGET_MB,
    db,
    logger,
    port: env.SYNC_PORT,
    host: env.SYNC_HOST,
    secureCookies: env.secureCookies,
    allowedOrigins: env.allowedOrigins,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    metricsToken: env.METRICS_TOKEN,
    metricsPort: env.METRICS_PORT,
  })
  logger.info(
    {
      port: running.port,
      metrics: metricsWhere({
        port: running.port,
        token: env.METRICS_TOKEN !== undefined,
        metricsPort: running.metricsPort,
      }),
      redis: env.REDIS_URL !== undefined,
      memoryBudgetMb: Math.round(running.budget.limitBytes / 1024 / 1024),
    },
    'sync server listening (WebSocket path /sync)',
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: storing open documents')
    await running.close()
    await db.destroy()
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
