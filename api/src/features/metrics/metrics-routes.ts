import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'

/**
 * `GET /metrics`: the process's metrics in Prometheus text format (issue 23 item 4): Node's
 * own, the embedded sync server's and the job queue's, each described in the README. Not
 * under `/api`, and not routed by the compose proxy: an operator reads it from inside
 * (`curl http://app:3000/metrics`).
 */
export const metricsRoutes = new Hono<AppEnv>().get('/metrics', async (c) => {
  const registry = c.var.deps.metrics
  if (!registry) throw new AppError('NOT_FOUND', 'Not found.')
  return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType })
})
