import { request } from 'node:http'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { describe, expect, it } from 'vitest'
import { loadSyncEnv } from './env.ts'
import { Registry } from 'prom-client'
import { bearerTokenMatches, isMetricsPath, startMetricsServer } from './metrics-endpoint.ts'
import { useSyncServer } from './testing/sync-fixture.ts'

const TOKEN = 'test-metrics-token-0123456789abcdef'

/**
 * A raw GET of `path` on 127.0.0.1:`port`, sent as written (fetch would normalize `//metrics`
 * and `/%6detrics`), with an optional Authorization header.
 */
function get(
  port: number,
  path: string,
  authorization?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        headers: authorization ? { authorization } : {},
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** Every way of writing `/metrics` a client might try to slip past a check. */
const SPELLINGS = [
  '/metrics',
  '/%6detrics',
  '/%6D%65trics',
  '/metrics/',
  '//metrics',
  '/metrics?x=1',
]

/** A sync server's metrics text carries its own series. */
const METRICS_SERIES = 'reelgraph_sync_open_documents'

describe('isMetricsPath and bearerTokenMatches (issue 40 item 6)', () => {
  it('reads every spelling of /metrics as /metrics, and nothing else', () => {
    for (const path of SPELLINGS) expect(isMetricsPath(path), path).toBe(true)
    for (const path of ['/healthz', '/metricsx', '/sync/metrics', '/%E0%A4%A', '/', undefined]) {
      expect(isMetricsPath(path), String(path)).toBe(false)
    }
  })

  it('accepts only the exact token as a bearer token', () => {
    expect(bearerTokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true)
    expect(bearerTokenMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true)
    for (const header of [
      undefined,
      '',
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      'Bearer ',
    ]) {
      expect(bearerTokenMatches(header, TOKEN), String(header)).toBe(false)
    }
  })

  it('startMetricsServer listens on the loopback interface only and serves only /metrics', async () => {
    const registry = new Registry()
    const metrics = await startMetricsServer({ registry, port: 0 })
    try {
      expect(metrics.server.address()).toMatchObject({ address: '127.0.0.1' })
      expect((await get(metrics.port, '/metrics')).status).toBe(200)
      expect((await get(metrics.port, '/')).status).toBe(404)
    } finally {
      await metrics.close()
    }
  })

  it('reads METRICS_TOKEN and METRICS_PORT, refusing a short token in words', () => {
    const base = { DATABASE_URL: 'postgres://u@db:5432/reelgraph' }
    expect(loadSyncEnv(base).METRICS_TOKEN).toBeUndefined()
    expect(loadSyncEnv(base).METRICS_PORT).toBeUndefined()
    expect(loadSyncEnv({ ...base, METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' })).toMatchObject({
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: 9464,
    })
    expect(() => loadSyncEnv({ ...base, METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16 characters/,
    )
    expect(() => loadSyncEnv({ ...base, METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/)
  })
})

describe.each(testDatabaseKinds())(
  'GET /metrics of the standalone sync server on $name (issue 40 item 6)',
  (kind) => {
    describe('with neither METRICS_TOKEN nor METRICS_PORT', () => {
      const sync = useSyncServer(kind)

      it('answers 404 to every spelling of /metrics, and serves no metrics server', async () => {
        for (const path of SPELLINGS) {
          const res = await get(sync.server.port, path)
          expect(res.status, path).toBe(404)
          expect(res.body).not.toContain(METRICS_SERIES)
        }
        expect(sync.server.metricsPort).toBeUndefined()
        expect((await get(sync.server.port, '/healthz')).status).toBe(200)
      })
    })

    describe('with METRICS_TOKEN', () => {
      const sync = useSyncServer(kind, { metricsToken: TOKEN })

      it('answers 401 without the token or with a wrong one, on every spelling', async () => {
        for (const path of SPELLINGS) {
          for (const authorization of [
            undefined,
            'Bearer wrong-token-0123456789',
            `Basic ${TOKEN}`,
          ]) {
            const res = await get(sync.server.port, path, authorization)
            expect(res.status, `${path} ${authorization}`).toBe(401)
            expect(res.body).not.toContain(METRICS_SERIES)
          }
        }
      })

      it('answers the metrics with the token', async () => {
        const res = await get(sync.server.port, '/metrics', `Bearer ${TOKEN}`)
        expect(res.status).toBe(200)
        expect(res.body).toContain(`${METRICS_SERIES} 0`)
      })
    })

    describe('with METRICS_PORT', () => {
      const sync = useSyncServer(kind, { metricsPort: 0 })

      it('serves the metrics on 127.0.0.1:METRICS_PORT without a token, and not on the public port', async () => {
        const metricsPort = sync.server.metricsPort
        expect(metricsPort).toBeGreaterThan(0)
        expect(metricsPort).not.toBe(sync.server.port)
        const res = await get(metricsPort ?? 0, '/metrics')
        expect(res.status).toBe(200)
        expect(res.body).toContain(`${METRICS_SERIES} 0`)
        // Only /metrics there: not the sync socket's health check or anything else.
        expect((await get(metricsPort ?? 0, '/healthz')).status).toBe(404)
        for (const path of SPELLINGS) {
          const pub = await get(sync.server.port, path)
          expect(pub.status, path).toBe(404)
          expect(pub.body).not.toContain(METRICS_SERIES)
        }
      })
    })
  },
)
