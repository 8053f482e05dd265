import { randomUUID } from 'node:crypto'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { docToGraph, type GraphNode } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDocumentGateway } from './document-gateway.ts'
import { type RunningSyncServer, startSyncServer } from './server.ts'
import {
  captureLogger,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  storedDocumentGraph,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

const REDIS_URL = process.env.REDIS_URL

/**
 * A REST PATCH written as stored (issue 23 item 3) by a process that does not have the
 * document open reaches an editor on another process through Redis, and is stored once.
 */
describe.skipIf(!REDIS_URL).each(testDatabaseKinds())(
  'a REST change written as stored, through Redis, on $name (issue 23)',
  (kind) => {
    let database: TestDatabase
    let api: RunningSyncServer
    let sync: RunningSyncServer
    const prefix = `reelgraph-test-${randomUUID()}`
    const logger = captureLogger()

    beforeAll(async () => {
      database = await kind.create()
      const start = () =>
        startSyncServer({
          db: database.db,
          logger,
          port: 0,
          host: '127.0.0.1',
          secureCookies: false,
          storeThrottleMs: 50,
          redisUrl: REDIS_URL,
          redisPrefix: prefix,
        })
      api = await start()
      sync = await start()
    })
    afterAll(async () => {
      await api.close()
      await sync.close()
      await database.dispose()
    })

    it('reaches an editor on another process, without opening the document where it is written', async () => {
      const { userId, cookie } = await createUser(database.db)
      const graph = sampleGraph()
      const projectId = await createProject(database.db, userId, graph)
      const editor = connectClient({ port: sync.port, projectId, cookie })
      try {
        await waitFor(() => editor.isSynced(), 'the editor synced')
        const added = textNode('written by the REST autosave', 700)
        const next = {
          nodes: [...graph.nodes, added].sort((a: GraphNode, b: GraphNode) =>
            a.id < b.id ? -1 : 1,
          ),
          connections: graph.connections,
        }
        const answered = await createDocumentGateway(api).applyGraph(projectId, next)
        expect(answered).toEqual(next)
        expect(api.hocuspocus.getDocumentsCount()).toBe(0)
        await waitFor(
          () => docToGraph(editor.doc).nodes.some((n) => n.id === added.id),
          'the change on the other process',
        )
        expect(docToGraph(editor.doc)).toEqual(next)
        expect(await storedDocumentGraph(database.db, projectId)).toEqual(next)
      } finally {
        editor.destroy()
      }
    })
  },
)
