/**
 * Convergence under random edits and disconnects (issue 6, Tests: "Convergence").
 *
 * Each run: 3 to 5 providers on one project (on one sync server, or, with REDIS_URL, spread
 * over two sync servers joined through Redis) make batches of random add, move, edit,
 * delete and connect operations through shared's graph-doc functions; between batches some
 * providers disconnect (they keep editing offline) and others reconnect. At the end everyone
 * reconnects; every client's `docToGraph` and the stored `projects.nodes/connections` must be
 * the same JSON.
 *
 * Replay: fast-check prints the seed and the failing run's inner seed; rerun with
 * CONVERGENCE_SEED=<seed> (and CONVERGENCE_RUNS to change the number of runs).
 */
import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { type DB } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addConnection,
  addNode,
  docToGraph,
  getNodesMap,
  type Graph,
  moveNodes,
  removeNodes,
  updateNodeData,
} from '@reelgraph/shared'
import fc from 'fast-check'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningSyncServer, startSyncServer } from './server.ts'
import {
  captureLogger,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

const REDIS_URL = process.env.REDIS_URL
const SEED = process.env.CONVERGENCE_SEED ? Number(process.env.CONVERGENCE_SEED) : undefined
const RUNS = Number(process.env.CONVERGENCE_RUNS ?? 5)

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(testDatabaseKinds())('convergence on $name', (kind) => {
  let database: TestDatabase
  let db: Kysely<DB>
  /** One sync server alone. */
  const single: RunningSyncServer[] = []
  /** With REDIS_URL: two sync servers joined through Redis under a prefix of their own. */
  const linked: RunningSyncServer[] = []
  const logger = captureLogger()
  const prefix = `reelgraph-convergence-${randomUUID()}`

  const start = (redisUrl?: string) =>
    startSyncServer({
      db,
      logger,
      port: 0,
      host: '127.0.0.1',
      secureCookies: false,
      storeThrottleMs: 50,
      // The test reads the REST JSON, which compaction writes: soon after the edits stop.
      compactIdleMs: 100,
      retryBaseMs: 50,
      redisUrl,
      redisPrefix: redisUrl ? prefix : undefined,
    })

  beforeAll(async () => {
    database = await kind.create()
    db = database.db
    single.push(await start())
    if (REDIS_URL) linked.push(await start(REDIS_URL), await start(REDIS_URL))
  })

  afterAll(async () => {
    for (const server of [...single, ...linked]) await server.close()
    await database?.dispose()
  })

  const storedJson = async (projectId: number): Promise<Graph> => {
    const row = await db
      .selectFrom('projects')
      .select(['nodes', 'connections'])
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow()
    return { nodes: row.nodes, connections: row.connections } as Graph
  }

  /** One random operation by `client` on its own doc. */
  const randomOperation = (client: TestClient, random: () => number, label: string) => {
    const ids = [...getNodesMap(client.doc).keys()]
    const pick = () => ids[Math.floor(random() * ids.length)]
    const roll = random()
    if (roll < 0.3 || ids.length < 2) {
      addNode(client.doc, textNode(label, Math.round(random() * 1000)))
    } else if (roll < 0.5) {
      const id = pick()
      if (id) moveNodes(client.doc, new Map([[id, { x: random() * 1000, y: random() * 1000 }]]))
    } else if (roll < 0.7) {
      const id = pick()
      if (id) updateNodeData(client.doc, id, { content: label })
    } else if (roll < 0.8) {
      const id = pick()
      if (id) removeNodes(client.doc, [id])
    } else {
      const source = pick()
      const target = pick()
      if (source && target) addConnection(client.doc, { source, target })
    }
  }

  async function run(servers: RunningSyncServer[], seed: number): Promise<void> {
    const random = prng(seed)
    const { userId, cookie } = await createUser(db)
    const projectId = await createProject(db, userId, sampleGraph())
    const count = 3 + Math.floor(random() * 3)
    const clients: TestClient[] = []
    try {
      for (let i = 0; i < count; i++) {
        const server = servers[i % servers.length]
        if (!server) throw new Error('no server')
        clients.push(connectClient({ port: server.port, projectId, cookie }))
      }
      await waitFor(() => clients.every((c) => c.isSynced()), 'every provider synced')
      const online = clients.map(() => true)
      const batches = 3 + Math.floor(random() * 3)
      for (let batch = 0; batch < batches; batch++) {
        for (const [i, client] of clients.entries()) {
          const ops = 1 + Math.floor(random() * 5)
          for (let op = 0; op < ops; op++) randomOperation(client, random, `c${i}b${batch}o${op}`)
        }
        await sleep(Math.floor(random() * 60))
        // Random disconnects and reconnects between batches (offline edits continue).
        for (const [i, client] of clients.entries()) {
          if (random() < 0.3) {
            if (online[i]) client.socket.disconnect()
            else void client.socket.connect()
            online[i] = !online[i]
          }
        }
        // connect() does nothing until the socket has closed, so let closes finish.
        await waitFor(
          () => clients.every((c, i) => online[i] || c.socket.status === 'disconnected'),
          'disconnected providers closed',
        )
      }
      for (const [i, client] of clients.entries()) {
        if (!online[i]) void client.socket.connect()
      }
      await waitFor(
        () => clients.every((c) => c.isSynced() && c.isAcknowledged()),
        `every provider reconnected and acknowledged (seed ${seed})`,
        20_000,
      ).catch((error: unknown) => {
        const states = clients.map(
          (c) =>
            `${c.socket.status}/auth=${c.provider.isAuthenticated}/synced=${c.provider.isSynced}/unsynced=${c.provider.hasUnsyncedChanges}`,
        )
        throw new Error(`${String(error)}: ${states.join(', ')}`)
      })
      const first = clients[0]
      if (!first) throw new Error('no client')
      const graph = await waitFor(() => {
        const g = docToGraph(first.doc)
        return clients.every((c) => isDeepStrictEqual(docToGraph(c.doc), g)) ? g : null
      }, `every client holds the same graph (seed ${seed})`)
      await waitFor(
        async () => isDeepStrictEqual(await storedJson(projectId), graph),
        `the database holds the clients' graph (seed ${seed})`,
        20_000,
      ).catch(() => null)
      expect(await storedJson(projectId)).toEqual(graph)
      for (const client of clients) expect(docToGraph(client.doc)).toEqual(graph)
    } finally {
      for (const client of clients) client.destroy()
    }
  }

  const property = (servers: () => RunningSyncServer[]) => async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => run(servers(), seed)),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    )
  }

  it(
    'clients and the database converge after random edits and reconnects on one server',
    property(() => single),
    120_000,
  )

  it.skipIf(!REDIS_URL)(
    'clients and the database converge after random edits and reconnects on two servers through Redis',
    property(() => linked),
    120_000,
  )
})
