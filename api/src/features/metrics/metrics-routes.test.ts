import { randomUUID } from 'node:crypto'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { registerJobMetrics } from './job-metrics.ts'

const TOKEN = 'app-metrics-token-0123456789abcdef'

/** Every way of writing `/metrics` a client might try to slip past a check or a proxy rule. */
const SPELLINGS = [
  '/metrics',
  '/%6detrics',
  '/%6D%65trics',
  '/metrics/',
  '//metrics',
  '/metrics?x=1',
]

describe.each(testDatabaseKinds())('GET /metrics on $name (issue 23 item 4)', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { METRICS_TOKEN: TOKEN })
  })
  afterAll(() => t.close())

  it('is not served without a registry', async () => {
    const res = await t.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(res.status).toBe(404)
  })

  it('answers 401 in words without the token or with a wrong one, however the path is written (issue 40 item 6)', async () => {
    t.deps.metrics = t.sync.registry
    for (const path of SPELLINGS) {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`]) {
        const res = await t.request('GET', path, {
          headers: authorization ? { authorization } : {},
        })
        const what = `${path} ${authorization}`
        expect([401, 404], what).toContain(res.status)
        const body = await res.text()
        expect(body, what).not.toContain('nodejs_')
        expect(body, what).not.toContain('reelgraph_')
        if (path === '/metrics' || path.startsWith('/%6')) {
          expect(res.status, what).toBe(401)
          expect(res.headers.get('www-authenticate'), what).toBe('Bearer')
          expect(JSON.parse(body).error.message, what).toContain('METRICS_TOKEN')
        }
      }
    }
  })

  it('answers Prometheus text: the sync server, its budget, refusals, the log and the jobs', async () => {
    t.deps.metrics = t.sync.registry
    registerJobMetrics(t.sync.registry, t.deps.db)
    // A job waiting for a worker, as the queue's row records it.
    const user = await addUser(t, 'Waiting')
    await t.deps.db
      .insertInto('generation_jobs')
      .values({
        id: randomUUID(),
        user_id: user.id,
        project_id: null,
        node_id: null,
        kind: 'script',
        stage: 'Waiting for a worker',
        cost: 1,
        input: JSON.stringify({ topic: 'Tides' }),
        idempotency_key: null,
      })
      .execute()
    const res = await t.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await res.text()
    for (const series of [
      'reelgraph_sync_open_documents 0',
      'reelgraph_sync_memory_budget_bytes ',
      'reelgraph_sync_document_bytes_estimated 0',
      'reelgraph_sync_refused_connections_total{reason="memory"} 0',
      'reelgraph_sync_refused_connections_total{reason="load-queue"} 0',
      'reelgraph_document_store_seconds_count 0',
      'reelgraph_document_log_rows 0',
    ]) {
      expect(text).toContain(series)
    }
    expect(text).toContain('reelgraph_jobs{kind="script",state="queued"} 1')
  })
})

describe.each(testDatabaseKinds())(
  'GET /metrics on $name without METRICS_TOKEN (issue 40 item 6)',
  (kind) => {
    let t: TestApp

    beforeAll(async () => {
      t = await createTestApp(kind)
    })
    afterAll(() => t.close())

    it('answers 404 on the public port however it is asked, even with a registry', async () => {
      t.deps.metrics = t.sync.registry
      for (const path of SPELLINGS) {
        for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
          const res = await t.request('GET', path, {
            headers: authorization ? { authorization } : {},
          })
          expect(res.status, `${path} ${authorization}`).toBe(404)
          expect(await res.text()).not.toContain('nodejs_')
        }
      }
    })
  },
)
