import { pingDb } from '@reelgraph/db'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
export const healthRoutes = new Hono<AppEnv>()
  .get('/healthz', (c) => c.json({ status: 'ok' }))
  .get('/readyz', async (c) => {
    try {
      await pingDb(c.var.db)
    } catch (err) {
      c.var.logger.warn({ err }, 'readiness check failed')
      throw new AppError('NOT_READY', 'The database is not reachable.')
    }
    return c.json({ status: 'ready' })
  })
