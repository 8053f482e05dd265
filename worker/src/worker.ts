import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { closeOnSignal, createRuntime, type WorkerDeps } from '@reelgraph/api'
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
 * Starts a worker (issue 12 item 5): the api's runtime in its `worker` role (the job kinds on
 * the shared queue, writing into documents through its own Hocuspocus instance joined to the
 * sync servers by Redis, the way a second sync server does), and `GET /healthz` on
 * `WORKER_PORT`.
 */
export async function startWorker(env: WorkerEnv): Promise<RunningWorker> {
  const runtime = await createRuntime(env, { role: 'worker' })
  const { deps } = runtime
  const logger = deps.logger.child({ component: 'worker' })
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
      kinds: [...deps.jobs.kinds.keys()],
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
      await new Promise<void>((resolve) => health.close(() => resolve()))
      await runtime.close(graceMs)
    },
  }
}

/** `npm start -w worker`: runs until SIGINT/SIGTERM, then stops gracefully. */
export async function main(): Promise<void> {
  const running = await startWorker(loadWorkerEnv())
  closeOnSignal(() => running.close(), running.deps.logger, 'shutting down: finishing running jobs')
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
