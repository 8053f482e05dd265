import { type Env, loadEnv } from '@reelgraph/api'

/**
 * The worker's settings: the api's (providers, costs, timeouts, asset storage, the JOB_*
 * settings; one `.env` serves both), read once at boot, plus two it cannot do without.
 */
export type WorkerEnv = Env & { DATABASE_URL: string; REDIS_URL: string }

/**
 * Parses the worker's settings from `source` (default `process.env`).
 * @throws Error listing every bad variable, and that a worker process needs DATABASE_URL
 *   (the shared queue: a worker on its own PGlite would share it with no one) and REDIS_URL
 *   (its document writes reach the sync servers' open documents through Redis; without Redis
 *   only the in-process worker of `npm start` exists).
 */
export function loadWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  const env = loadEnv(source)
  const missing = [
    ...(env.DATABASE_URL
      ? []
      : ['  DATABASE_URL: a worker process needs the shared Postgres database']),
    ...(env.REDIS_URL
      ? []
      : [
          '  REDIS_URL: a worker process writes into documents through Redis, like a second sync server',
        ]),
  ]
  if (missing.length > 0) throw new Error(`Invalid environment:\n${missing.join('\n')}`)
  return env as WorkerEnv
}
