import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { describeLookalike } from '@reelgraph/shared'
import {
  attachSyncServer,
  type MetricsServer,
  metricsWhere,
  startMetricsServer,
  SYNC_SETTING_NAMES,
  type SyncServer,
} from '@reelgraph/sync-server'
import { createApp } from './app.ts'
import type { AppDeps } from './app-env.ts'
import { type Env, loadEnv, settingLookalikes } from './env.ts'
import { createLogger } from './lib/logger.ts'
import { closeOnSignal, createRuntime } from './runtime.ts'

/** A running server and how to stop it. */
export interface RunningServer {
  server: ServerType
  port: number
  deps: AppDeps
  /** The sync server mounted at SYNC_PATH (`/sync`) on the same port. */
  sync: SyncServer
  /** The port of 127.0.0.1 serving only `/metrics` (METRICS_PORT; issue 40 item 6), if set. */
  metricsPort: number | undefined
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
  const runtime = await createRuntime(env, { logger, serveMetrics: true })
  const { deps, sync } = runtime
  // Generation jobs (issue 12): the queue always; workers here unless JOB_WORKERS=false (then
  // `npm start -w worker` processes run them).
  await deps.jobs.start()
  const app = createApp(deps, { webDistDir: env.WEB_DIST_DIR || undefined })
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, () => resolve(s))
  })
  // serve() without a createServer option makes a node:http server.
  const syncAttachment = attachSyncServer(server as Server, sync.hocuspocus)
  const port = (server.address() as AddressInfo).port
  // METRICS_PORT (issue 40 item 6): the metrics without a token, for this machine only.
  let metricsServer: MetricsServer | undefined
  if (env.METRICS_PORT !== undefined && deps.metrics) {
    metricsServer = await startMetricsServer({ registry: deps.metrics, port: env.METRICS_PORT })
  }
  logger.info(
    {
      port,
      database: env.DATABASE_URL ? 'postgres' : 'pglite',
      mail: env.SMTP_URL ? 'smtp' : 'files',
      metrics: metricsWhere({
        port,
        token: env.METRICS_TOKEN !== undefined,
        metricsPort: metricsServer?.port,
      }),
    },
    `Reelgraph is listening on ${env.APP_URL}`,
  )
  return {
    server,
    port,
    deps,
    sync,
    metricsPort: metricsServer?.port,
    async close() {
      await metricsServer?.close()
      // Sockets first (the HTTP server waits for them), then the requests, then the rest.
      await syncAttachment.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await runtime.close()
    },
  }
}

/** Runs the server until SIGINT/SIGTERM, then shuts down gracefully. */
export async function main(): Promise<void> {
  const running = await startServer()
  closeOnSignal(() => running.close(), running.deps.logger, 'shutting down')
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
