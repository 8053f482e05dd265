import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

/** The interface a separate metrics port listens on: this machine only (issue 40 item 6). */
const METRICS_HOST = '127.0.0.1'

/**
 * Whether a request path names `/metrics` however it is written: percent-encoded
 * (`/%6detrics`), with repeated or trailing slashes (`//metrics`, `/metrics/`), or with a
 * query. Such a request gets the same answer as `/metrics` itself, so no spelling reaches the
 * metrics without the token (issue 40 item 6).
 * @param url the request target as received (`req.url`)
 */
export function isMetricsPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0] ?? ''
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return false // malformed escapes: no route of ours
  }
  return decoded.replace(/\/+/g, '/').replace(/\/$/, '').toLowerCase() === '/metrics'
}

/**
 * Whether an `Authorization` header carries `token` as a bearer token (RFC 6750), compared
 * in constant time: both sides are hashed with SHA-256 first, so neither the bytes nor the
 * length of the token leak through timing.
 * @param header the request's `Authorization` header, if any
 * @param token the operator's METRICS_TOKEN
 * @see issue 40 item 6
 */
export function bearerTokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '')
  const sent = createHash('sha256')
    .update(match?.[1] ?? '')
    .digest()
  const expected = createHash('sha256').update(token).digest()
  return timingSafeEqual(sent, expected) && match !== null
}

/** Writes the registry's metrics (Prometheus text) as the answer to `res`. */
function answerMetrics(registry: Registry, res: ServerResponse): void {
  registry.metrics().then(
    (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
    () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable'),
  )
}

/**
 * Answers a request for `/metrics` on a public port (issue 40 item 6): 404 when no
 * METRICS_TOKEN is set (the metrics are then only on METRICS_PORT, if anywhere), 401 with
 * `WWW-Authenticate: Bearer` without the token or with a wrong one, else the metrics.
 * @param token the operator's METRICS_TOKEN, or undefined when unset
 */
export function answerPublicMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  registry: Registry,
  token: string | undefined,
): void {
  if (token === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
  } else if (!bearerTokenMatches(req.headers.authorization, token)) {
    res
      .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
      .end('Send METRICS_TOKEN as a bearer token: Authorization: Bearer <token>.')
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET' }).end('Use GET.')
  } else {
    answerMetrics(registry, res)
  }
}

/**
 * Where a process serves `/metrics`, for its boot log line (issue 40 item 6): on its public
 * `port` when METRICS_TOKEN is set, on {@link METRICS_HOST}`:metricsPort` when a metrics
 * server runs, else not at all. The api process and the standalone sync server both log it.
 */
export function metricsWhere(input: {
  port: number
  token: boolean
  metricsPort: number | undefined
}): string {
  const where = [
    ...(input.token ? [`port ${input.port} with METRICS_TOKEN`] : []),
    ...(input.metricsPort !== undefined ? [`${METRICS_HOST}:${input.metricsPort}`] : []),
  ]
  return where.length > 0 ? where.join(' and ') : 'not served (set METRICS_TOKEN or METRICS_PORT)'
}

/** A metrics server started by {@link startMetricsServer}. */
export interface MetricsServer {
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  port: number
  server: Server
  close(): Promise<void>
}

/**
 * Starts a tiny HTTP server on `127.0.0.1:port` that serves only `GET /metrics` (no token:
 * only this machine reaches it) and answers 404 to anything else (issue 40 item 6:
 * METRICS_PORT). The api process and the standalone sync server both use it.
 * @param options.port the port; 0 picks a free one (tests)
 * @throws Error when the port cannot be listened on (in use, not permitted)
 */
export async function startMetricsServer(options: {
  registry: Registry
  port: number
}): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (isMetricsPath(req.url) && (req.method === 'GET' || req.method === 'HEAD')) {
      answerMetrics(options.registry, res)
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, METRICS_HOST, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
