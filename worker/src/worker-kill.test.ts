import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { databaseConnection, mergeStoredDocument, readProjectDocument } from '@reelgraph/db'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addUser,
  chatCompletion,
  createTestApp,
  json,
  never,
  startTestServer,
  type TestApp,
  type TestServer,
  until,
} from '@reelgraph/api/testing'
import { createGraphNode, docToGraph, JOB_DATA_KEYS } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'

/**
 * Issue 12 item 5: a worker process killed mid-job. Its job's heartbeat stops, pg-boss hands
 * the job to another worker process, and the user is charged once with one result node.
 * Needs Postgres (TEST_DATABASE_URL) and Redis (REDIS_URL): separate processes share nothing
 * else.
 */

const postgres = testDatabaseKinds().find((k) => k.name === 'postgres')
const redisUrl =
  process.env.REDIS_URL ?? (process.env.TEST_DATABASE_URL ? 'redis://127.0.0.1:6379' : undefined)
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))
/** This run's Redis channels: other tests and processes on the same Redis stay apart. */
const REDIS_PREFIX = `reelgraph-jobs-${process.pid}-${Date.now()}`
const SCRIPT = { style: 'Casual', tone: 'Enthusiastic', format: 'Tutorial', topic: 'Tide pools' }

describe.skipIf(!postgres || !redisUrl)(
  'a worker process killed mid-job (Postgres and Redis)',
  () => {
    let t: TestApp
    let server: TestServer
    let databaseUrl: string
    const children: ChildProcess[] = []

    function startWorkerProcess(): ChildProcess {
      const child = spawn(process.execPath, [WORKER], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          REDIS_PREFIX,
          AI_TEXT_PROVIDER: 'openai',
          OPENAI_BASE_URL: `${server.url}/v1`,
          OPENAI_API_KEY: 'test-key',
          // The smallest heartbeat pg-boss allows, looked at every second.
          JOB_HEARTBEAT_SECONDS: '10',
          JOB_MONITOR_SECONDS: '1',
          JOB_RETRY_DELAY_SECONDS: '0',
          WORKER_PORT: '0',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      })
      children.push(child)
      return child
    }

    beforeAll(async () => {
      server = await startTestServer()
      // Only enqueues: the workers are the child processes. Its sync server shares documents
      // with them through Redis, as a production sync server does.
      t = await createTestApp(postgres!, undefined, {
        REDIS_URL: redisUrl!,
        REDIS_PREFIX,
        JOB_WORKERS: 'false',
        JOB_WAIT_MS: '0',
        JOB_HEARTBEAT_SECONDS: '10',
        JOB_MONITOR_SECONDS: '1',
      })
      const connection = databaseConnection(t.deps.db)
      if (connection.kind !== 'postgres') throw new Error('Postgres expected')
      databaseUrl = connection.url
    })
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
      await t.close()
      await server.close()
    })

    it('hands the job to a second worker: charged once, one result node, seen live', async () => {
      const owner = await addUser(t, 'Kim', { credits: 5 })
      const generator = createGraphNode('script-generator', { x: 0, y: 0 })
      const created = await t.request('POST', '/api/projects', {
        body: { name: 'Kill', nodes: [generator], connections: [] },
        cookie: owner.cookie,
      })
      const projectId = (await created.json()).id as number
      // The first worker's provider call never answers; the next one does.
      let calls = 0
      server.handle((_, res) => {
        calls++
        if (calls === 1) return never(_, res)
        json(res, 200, chatCompletion('The script, written by the second worker.'))
      })

      // A member's open document on this process's sync server: the worker processes' writes
      // reach it through Redis.
      const watcher = await t.sync.hocuspocus.openDirectConnection(String(projectId))
      const added: string[] = []
      watcher.document!.getMap('nodes').observe((event) => {
        for (const [id, change] of event.changes.keys) if (change.action === 'add') added.push(id)
      })

      const first = startWorkerProcess()
      const res = await t.request('POST', '/api/ai/generate-script', {
        body: { ...SCRIPT, projectId, nodeId: generator.id },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      await until(
        async () => calls,
        (n) => n === 1,
        30_000,
      )
      first.kill('SIGKILL')
      await new Promise((resolve) => first.once('exit', resolve))

      startWorkerProcess()
      const done = await until(
        async () =>
          await (await t.request('GET', `/api/jobs/${jobId}`, { cookie: owner.cookie })).json(),
        (job) => job.status === 'succeeded',
        45_000,
      )
      expect(done.result).toEqual({ script: 'The script, written by the second worker.' })
      expect(calls).toBe(2)

      const rows = await t.deps.db
        .selectFrom('credit_transactions')
        .select(['transaction_type', 'amount'])
        .where('user_id', '=', owner.id)
        .execute()
      expect(rows).toEqual([{ transaction_type: 'script_generation', amount: -1 }])
      const job = await t.deps.db
        .selectFrom('generation_jobs')
        .select(['attempts', 'refunded'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow()
      expect(job).toEqual({ attempts: 2, refunded: 0 })

      const stored = await until(
        async () => {
          const stored = await readProjectDocument({ db: t.deps.db, projectId })
          if (!stored) throw new Error('The project document is not stored.')
          const doc = new Y.Doc()
          Y.applyUpdate(doc, mergeStoredDocument(stored))
          return docToGraph(doc)
        },
        (g) => g.nodes.some((n) => n.data[JOB_DATA_KEYS.status] === 'succeeded'),
        10_000,
      )
      expect(stored.nodes.filter((n) => n.type === 'editable-text')).toHaveLength(1)
      expect(stored.connections).toHaveLength(1)
      // Stored and broadcast are two paths (the store may commit before Redis delivers).
      const live = await until(
        async () => docToGraph(watcher.document!),
        (g) => g.nodes.some((n) => n.type === 'editable-text'),
        10_000,
      )
      expect(live.nodes.find((n) => n.type === 'editable-text')?.data.content).toBe(
        'The script, written by the second worker.',
      )
      expect(added).toHaveLength(1)
      await watcher.disconnect()
    }, 90_000)
  },
)
