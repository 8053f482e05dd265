import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, docToGraph, getNodesMap, updateNodeData } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  childDatabaseUrl,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  spawnSyncServer,
  storedGraphs,
  type SyncServerProcess,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

const REDIS_URL = process.env.REDIS_URL
/** Two processes need one database they can both open: Postgres only (PGlite is in-process). */
const postgres = testDatabaseKinds().filter((k) => k.name !== 'pglite')

describe.skipIf(!REDIS_URL || postgres.length === 0)(
  'two sync-server processes through Redis',
  () => {
    it('loses no acknowledged edit when one is SIGKILLed while clients edit', async () => {
      const database: TestDatabase = await postgres[0]!.create()
      const db = database.db
      const { userId, cookie } = await createUser(db)
      const projectId = await createProject(db, userId, sampleGraph())
      const args = [
        '--database-url',
        await childDatabaseUrl(db),
        '--redis-url',
        REDIS_URL!,
        '--redis-prefix',
        `reelgraph-test-${randomUUID()}`,
      ]
      const processes: SyncServerProcess[] = []
      const clients: TestClient[] = []
      try {
        // A never stores on its own (long debounce): only B can get A's edits into Postgres.
        const a = await spawnSyncServer([...args, '--store-throttle-ms', '30000'])
        processes.push(a)
        const b = await spawnSyncServer([...args, '--store-throttle-ms', '200'])
        processes.push(b)
        const aliceDoc = new Y.Doc()
        const alice = connectClient({ port: a.port, projectId, cookie, doc: aliceDoc })
        clients.push(alice)
        const bob = connectClient({ port: b.port, projectId, cookie })
        clients.push(bob)
        await waitFor(() => alice.isSynced() && bob.isSynced(), 'both providers synced')

        const acknowledged: string[] = []
        for (let i = 0; i < 5; i += 1) {
          const node = textNode(`alice ${i}`, i * 100)
          addNode(aliceDoc, node)
          const other = textNode(`bob ${i}`, i * 100 + 50)
          addNode(bob.doc, other)
          await waitFor(() => alice.isAcknowledged() && bob.isAcknowledged(), 'acknowledged')
          acknowledged.push(node.id, other.id)
        }
        updateNodeData(aliceDoc, acknowledged[0]!, { content: 'last words of alice on A' })
        await waitFor(() => alice.isAcknowledged(), 'alice’s last edit acknowledged by A')
        // A acknowledges before its Redis publish is out: wait until the edit has reached B
        // (bob sees it), so the kill tests B's storing of what came through Redis, not the
        // race between A's acknowledgement and its publish (seen once under load in CI).
        await waitFor(
          () =>
            docToGraph(bob.doc).nodes.find((n) => n.id === acknowledged[0])?.data.content ===
            'last words of alice on A',
          'alice’s last edit seen by bob on B',
        )
        a.child.kill('SIGKILL')
        expect(await a.exited).toBeNull()

        // B stores what reached it from A through Redis, though no client of B changed it.
        await waitFor(async () => {
          const { nodes } = await db
            .selectFrom('projects')
            .select('nodes')
            .where('id', '=', projectId)
            .executeTakeFirstOrThrow()
          return (nodes as { id: string; data: { content?: string } }[]).some(
            (n) => n.data.content === 'last words of alice on A',
          )
        }, 'alice’s last edit stored by B')

        // Alice keeps editing offline, then her client reconnects to B.
        const offline = textNode('alice offline', 900)
        addNode(aliceDoc, offline)
        alice.destroy()
        const aliceAgain = connectClient({ port: b.port, projectId, cookie, doc: aliceDoc })
        clients.push(aliceAgain)
        await waitFor(
          () =>
            getNodesMap(bob.doc).has(offline.id) &&
            isDeepStrictEqual(docToGraph(aliceDoc), docToGraph(bob.doc)),
          'alice on B converges with bob',
          20_000,
        )
        await waitFor(() => aliceAgain.isSaved() && bob.isSaved(), 'both saved', 20_000)
        const graph = docToGraph(bob.doc)
        for (const id of [...acknowledged, offline.id]) {
          expect(graph.nodes.map((n) => n.id)).toContain(id)
        }
        expect(graph.nodes.find((n) => n.id === acknowledged[0])?.data.content).toBe(
          'last words of alice on A',
        )
        // The stored document (snapshot + log) and the REST JSON as GET serves it.
        const stored = await storedGraphs(db, projectId)
        expect(stored.state).toEqual(graph)
        expect(stored.json).toEqual(graph)
      } catch (err) {
        const logs = processes.map((p) => p.stderr()).join('\n')
        throw new Error(`${(err as Error).message}\nchild stderr:\n${logs}`, { cause: err })
      } finally {
        for (const client of clients) client.destroy()
        for (const p of processes) await p.stop()
        await database.dispose()
      }
    })
  },
)
