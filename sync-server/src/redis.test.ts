import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { type DB } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, docToGraph, getNodesMap, type Graph, updateNodeData } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDocumentGateway } from './document-gateway.ts'
import { redisConnection } from './extensions/redis.ts'
import { type RunningSyncServer, startSyncServer } from './server.ts'
import {
  captureLogger,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  storedGraphs,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

const REDIS_URL = process.env.REDIS_URL

describe('redisConnection', () => {
  it('reads host, port, credentials, database and TLS from the URL', () => {
    expect(redisConnection('redis://127.0.0.1:6379')).toEqual({
      host: '127.0.0.1',
      port: 6379,
      options: { db: 0 },
    })
    expect(redisConnection('rediss://u:p%40ss@cache:6380/2')).toEqual({
      host: 'cache',
      port: 6380,
      options: { username: 'u', password: 'p@ss', db: 2, tls: {} },
    })
    expect(() => redisConnection('http://x')).toThrow(/redis/)
  })
})

describe.skipIf(!REDIS_URL).each(testDatabaseKinds())(
  'two sync servers through Redis on $name',
  (kind) => {
    let database: TestDatabase
    let db: Kysely<DB>
    let a: RunningSyncServer
    let b: RunningSyncServer
    const logger = captureLogger()
    const clients: TestClient[] = []
    /** One namespace per run, so parallel runs on the same Redis do not hear each other. */
    const prefix = `reelgraph-test-${randomUUID()}`

    /** A server on `port` (0: a free one; a restarted server reuses its old port). */
    const start = (port = 0) =>
      startSyncServer({
        db,
        logger,
        port,
        host: '127.0.0.1',
        secureCookies: false,
        storeThrottleMs: 100,
        retryBaseMs: 50,
        redisUrl: REDIS_URL,
        redisPrefix: prefix,
      })

    const connect = (server: RunningSyncServer, projectId: number, cookie: string) => {
      const client = connectClient({ port: server.port, projectId, cookie })
      clients.push(client)
      return client
    }

    const sameJson = (x: unknown, y: unknown) => isDeepStrictEqual(x, y)

    beforeAll(async () => {
      database = await kind.create()
      // PGlite is in-process: both servers share this one `db` (on Postgres they could not).
      db = database.db
      a = await start()
      b = await start()
    })

    afterEach(() => {
      for (const client of clients.splice(0)) client.destroy()
    })

    afterAll(async () => {
      await a?.close()
      await b?.close()
      await database?.dispose()
    })

    it('converges edits both ways and stores the merged graph once', async () => {
      const { userId, cookie } = await createUser(db)
      const projectId = await createProject(db, userId, sampleGraph())
      const alice = connect(a, projectId, cookie)
      const bob = connect(b, projectId, cookie)
      await waitFor(() => alice.isSynced() && bob.isSynced(), 'both providers synced')

      const fromAlice = textNode('from alice')
      const fromBob = textNode('from bob', 300)
      addNode(alice.doc, fromAlice)
      addNode(bob.doc, fromBob)
      await waitFor(
        () => getNodesMap(alice.doc).has(fromBob.id) && getNodesMap(bob.doc).has(fromAlice.id),
        'each sees the other’s node',
      )
      // Concurrent edits of the same node on both servers.
      updateNodeData(alice.doc, fromBob.id, { content: 'alice was here' })
      updateNodeData(bob.doc, fromAlice.id, { content: 'bob was here' })
      await waitFor(
        () => sameJson(docToGraph(alice.doc), docToGraph(bob.doc)),
        'both docs converge',
      )
      const graph = docToGraph(alice.doc)
      expect(graph.nodes.find((n) => n.id === fromAlice.id)?.data.content).toBe('bob was here')
      expect(graph.nodes.find((n) => n.id === fromBob.id)?.data.content).toBe('alice was here')
      expect(graph.nodes).toHaveLength(sampleGraph().nodes.length + 2)

      await waitFor(() => alice.isSaved() && bob.isSaved(), 'both clients told it is saved')
      const row = await waitFor(async () => {
        const s = await storedGraphs(db, projectId)
        return sameJson(s.state, graph) && sameJson(s.json, graph) ? s : null
      }, 'the database holds the merged graph')
      // Each node exactly once, in the JSON and in the Yjs state.
      expect(new Set(row.json.nodes.map((n) => n.id)).size).toBe(row.json.nodes.length)
      expect(row.json).toEqual(row.state)
    })

    it('applies a REST change made on server A to a provider on server B', async () => {
      const { userId, cookie } = await createUser(db)
      const projectId = await createProject(db, userId, sampleGraph())
      const bob = connect(b, projectId, cookie)
      await waitFor(() => bob.isSynced(), 'bob synced')
      const next: Graph = { nodes: [textNode('rest', 50)], connections: [] }
      await createDocumentGateway(a).applyGraph(projectId, next)
      await waitFor(() => sameJson(docToGraph(bob.doc), next), 'bob sees the REST change')
      const row = await storedGraphs(db, projectId)
      expect(row.json).toEqual(next)
      expect(row.state).toEqual(next)
    })

    it('keeps edits on B while A is closed, and a client back on A converges', async () => {
      const { userId, cookie } = await createUser(db)
      const projectId = await createProject(db, userId, sampleGraph())
      const alice = connect(a, projectId, cookie)
      const bob = connect(b, projectId, cookie)
      await waitFor(() => alice.isSynced() && bob.isSynced(), 'both providers synced')
      const port = a.port
      await a.close()
      const whileAway = textNode('while A was away')
      addNode(bob.doc, whileAway)
      const offline = textNode('alice offline')
      addNode(alice.doc, offline)
      await waitFor(() => bob.isSaved(), 'bob’s edit stored by B')

      a = await start(port)
      await waitFor(
        () =>
          getNodesMap(alice.doc).has(whileAway.id) &&
          getNodesMap(bob.doc).has(offline.id) &&
          sameJson(docToGraph(alice.doc), docToGraph(bob.doc)),
        'alice back on A converges with bob on B',
        20_000,
      )
      const graph = docToGraph(bob.doc)
      await waitFor(async () => {
        const s = await storedGraphs(db, projectId)
        return sameJson(s.state, graph) && sameJson(s.json, graph)
      }, 'the database holds both edits')
    })
  },
)
