import { Hono } from 'hono'
import { timingSafeEqual } from 'hono/utils/buffer'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'

/**
 * Whether an `Authorization` header carries `token` as a bearer token (RFC 6750), compared
 * in constant time (hono's `timingSafeEqual`: SHA-256 of both sides, then every byte).
 * @see issue 40 item 6
 */
export async function bearerTokenMatches(
  header: string | undefined,
  token: string,
): Promise<boolean> {
  const sent = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? ''
  return (await timingSafeEqual(sent, token)) && sent !== ''
}

/**
 * `GET /metrics`: the process's metrics in Prometheus text format (issue 23 item 4): Node's
 * own, the embedded sync server's and the job queue's, each described in the README. Not
 * public (issue 40 item 6): on this port only with METRICS_TOKEN as a bearer token (401
 * UNAUTHENTICATED without it or with another), 404 when no token is set; METRICS_PORT serves
 * them without a token on 127.0.0.1 (`server.ts`). The router decodes the path first, so
 * `/%6detrics` lands here too; `/metrics/` and `//metrics` are no route (404).
 */
export const metricsRoutes = new Hono<AppEnv>().get('/metrics', async (c) => {
  const registry = c.var.deps.metrics
  const token = c.var.deps.env.METRICS_TOKEN
  if (!registry || token === undefined) throw new AppError('NOT_FOUND', 'Not found.')
  if (!(await bearerTokenMatches(c.req.header('authorization'), token))) {
    c.header('WWW-Authenticate', 'Bearer')
    throw new AppError(
      'UNAUTHENTICATED',
      'Send METRICS_TOKEN as a bearer token: Authorization: Bearer <token>.',
    )
  }
  return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType })
})
