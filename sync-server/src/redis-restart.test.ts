import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, docToGraph, getNodesMap, updateNodeData } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  childDatabaseUrl,
  connectClient,
  createProject,
  createUser,
  redisServerBinary,
  type RedisServerProcess,
  sampleGraph,
  setMemberRole,
  spawnSyncServer,
  startRedisServer,
  storedGraphs,
  type SyncServerProcess,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

/** Two processes need one database they can both open: Postgres only (PGlite is in-process). */
const postgres = testDatabaseKinds().filter((k) => k.name !== 'pglite')

/**
 * Issue 6 "Faults": "A Redis restart does not lose edits either". Runs its own redis-server
 * on a free port (never the shared one) and SIGKILLs it while clients on two sync-server
 * processes keep editing.
 */
describe.skipIf(!redisServerBinary() || postgres.length === 0)(
  'two sync-server processes when Redis restarts',
  () => {
    it('resyncs the processes and loses no acknowledged edit', { timeout: 120_000 }, async () => {
      const database: TestDatabase = await postgres[0]!.create()
      const db = database.db
      const owner = await createUser(db)
      const member = await createUser(db)
      const projectId = await createProject(db, owner.userId, sampleGraph())
      await setMemberRole(db, projectId, member.userId, 'editor')
      const processes: SyncServerProcess[] = []
      const clients: TestClient[] = []
      let redis: RedisServerProcess | undefined
      try {
        redis = await startRedisServer()
        const args = [
          '--database-url',
          await childDatabaseUrl(db),
          '--redis-url',
          redis.url,
          '--redis-prefix',
          `reelgraph-test-${randomUUID()}`,
          '--store-throttle-ms',
          '200',
          '--log-level',
          'info',
        ]
        const a = await spawnSyncServer(args)
        processes.push(a)
        const b = await spawnSyncServer(args)
        processes.push(b)
        const onA = [
          connectClient({ port: a.port, projectId, cookie: owner.cookie }),
          connectClient({ port: a.port, projectId, cookie: member.cookie }),
        ]
        const onB = [
          connectClient({ port: b.port, projectId, cookie: owner.cookie }),
          connectClient({ port: b.port, projectId, cookie: member.cookie }),
        ]
        clients.push(...onA, ...onB)
        await waitFor(() => clients.every((c) => c.isSynced()), 'every provider synced')

        const acknowledged: string[] = []
        /** One node per client, then waits until each client's server has it. */
        const editRound = async (label: string) => {
          const nodes = clients.map((client, i) => {
            const node = textNode(`${label} ${i}`, acknowledged.length * 10 + i)
            addNode(client.doc, node)
            return node
          })
          await waitFor(() => clients.every((c) => c.isAcknowledged()), `${label} acknowledged`)
          acknowledged.push(...nodes.map((n) => n.id))
          return nodes
        }
        const has = (client: TestClient, ids: string[]) =>
          ids.every((id) => getNodesMap(client.doc).has(id))

        const before = await editRound('before')
        await waitFor(
          () =>
            clients.every((c) =>
              has(
                c,
                before.map((n) => n.id),
              ),
            ),
          'live via Redis',
        )

        await redis.kill()
        const during: string[] = []
        for (let round = 0; round < 3; round += 1) {
          during.push(...(await editRound(`during ${round}`)).map((n) => n.id))
        }
        updateNodeData(onA[0]!.doc, before[2]!.id, { content: 'edited on A while Redis was down' })
        await waitFor(() => onA[0]!.isAcknowledged(), 'the edit of B’s node acknowledged by A')

        // ioredis queues publishes while Redis is away and sends them on reconnect, but gives
        // up on them after maxRetriesPerRequest (about 10 s): wait for that on both processes,
        // so only a resync can bring these edits across.
        await waitFor(
          () => processes.every((p) => p.stderr().includes('failed to publish')),
          'both processes dropped the publishes queued during the outage',
          40_000,
        )
        for (const p of processes) expect(p.child.exitCode, 'no crash during the outage').toBeNull()
        await redis.start()
        // No edit until the processes have resynced by themselves: what each received during
        // the outage reaches the other's clients.
        await waitFor(
          () => clients.every((c) => has(c, during)),
          'edits made during the outage on both processes reach every client',
          30_000,
        )
        expect(docToGraph(onB[1]!.doc).nodes.find((n) => n.id === before[2]!.id)?.data).toEqual({
          content: 'edited on A while Redis was down',
        })

        await editRound('after 0')
        await editRound('after 1')

        await waitFor(
          () => {
            const graphs = clients.map((c) => docToGraph(c.doc))
            return graphs.every((g) => isDeepStrictEqual(g, graphs[0]))
          },
          'every client holds the same graph',
          30_000,
        )
        await waitFor(() => clients.every((c) => c.isSaved()), 'every client saved', 30_000)
        const graph = docToGraph(onA[0]!.doc)
        expect(graph.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(acknowledged))
        const stored = await storedGraphs(db, projectId)
        expect(stored.state).toEqual(graph)
        expect(stored.json).toEqual(graph)
        for (const p of processes) expect(p.child.exitCode).toBeNull()
      } catch (err) {
        const logs = processes.map((p) => `${p.stderr()}\n${p.stdout()}`).join('\n')
        throw new Error(`${(err as Error).message}\nchild stderr:\n${logs}`, { cause: err })
      } finally {
        for (const client of clients) client.destroy()
        for (const p of processes) await p.stop()
        await redis?.kill()
        await database.dispose()
      }
    })
  },
)
