import { randomUUID } from 'node:crypto'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { registerJobMetrics } from './job-metrics.ts'

describe.each(testDatabaseKinds())('GET /metrics on $name (issue 23 item 4)', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('is not served without a registry', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(404)
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
    const res = await t.request('GET', '/metrics')
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
