/**
 * Sync: writer-to-reader latency with N providers on one document (issue 3 benchmarks;
 * target: p99 under 50 ms at N = 50).
 *
 * One sync server in its own process (`sync-server/src/testing/sync-server-process.ts`, the
 * production extensions and debounce) on PGlite in a fresh data directory, or on
 * BENCH_DATABASE_URL's Postgres. For each N, N `@hocuspocus/provider` clients (each with its
 * own WebSocket and awareness, as browsers have) open one 100-node project (make-graph.mjs
 * 100 1); one of them writes at 20 Hz for DURATION_MS, each write a node move plus a
 * timestamp in the node's data (one transaction, as a drag does); every other provider
 * records now minus that timestamp when it sees the write. The first second of each run is
 * not counted, and an unmeasured run first warms the server up (JIT, first store). With
 * writes every 50 ms the store runs at the 10 s max debounce, so each run includes one
 * store (on PGlite it runs on the server's thread and holds it for tens of milliseconds).
 *
 * All clients share this process (and one clock), so a reader's figure includes waiting for
 * the readers before it to handle the same broadcast: with 200 clients in one process the
 * tail is partly client-side. Run: npm run sync -w bench   (optional: N values, e.g. 10 50)
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createDb, migrateToLatest } from '@reelgraph/db'
import {
  connectClient,
  createProject,
  createUser,
  spawnSyncServer,
  type TestClient,
  waitFor,
} from '../../sync-server/src/testing/sync-test-kit.ts'
import { freshDataDir } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'
import { measureWriteLatency, sleep } from './write-latency.ts'

const PROVIDER_COUNTS = process.argv.slice(2).map(Number).filter(Boolean)
const NS = PROVIDER_COUNTS.length > 0 ? PROVIDER_COUNTS : [10, 50, 200]
const DURATION_MS = 10_000

const databaseUrl = process.env.BENCH_DATABASE_URL
const dataDir = freshDataDir()
const pgliteDir = join(dataDir, 'pg')
const db = createDb({ databaseUrl, pgliteDir })
await migrateToLatest(db)
const { cookie } = await createUser(db)
const owner = await db
  .selectFrom('users')
  .select('id')
  .orderBy('id', 'desc')
  .executeTakeFirstOrThrow()
const graph = makeGraph(100, 1)
const projects = new Map<number, number>()
for (const n of NS) projects.set(n, await createProject(db, owner.id, graph))
const warmupProject = await createProject(db, owner.id, graph)
if (!databaseUrl) await db.destroy()

const server = await spawnSyncServer(
  databaseUrl ? ['--database-url', databaseUrl] : ['--pglite-dir', pgliteDir],
)

interface Result {
  providers: number
  readers: number
  writes: number
  samples: number
  missed: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  connectSeconds: number
}

async function run(n: number, projectId: number, durationMs = DURATION_MS): Promise<Result> {
  const connecting = performance.now()
  const clients: TestClient[] = []
  for (let i = 0; i < n; i++) clients.push(connectClient({ port: server.port, projectId, cookie }))
  await waitFor(() => clients.every((c) => c.isSynced()), `${n} providers synced`, 180_000)
  const connectSeconds = (performance.now() - connecting) / 1000
  await sleep(1000)
  const [writer, ...readers] = clients
  if (!writer) throw new Error('no writer')
  const {
    writes,
    latencies: [latencies = []],
  } = await measureWriteLatency(writer, [readers], durationMs)
  const expected = readers.length * writes
  for (const client of clients) client.destroy()
  await sleep(500)
  return {
    providers: n,
    readers: readers.length,
    writes,
    samples: latencies.length,
    // A reader that sees two writes in one update records only the later (no sample lost
    // to the network, just coalesced), so `missed` counts coalesced as well as lost writes.
    missed: expected - latencies.length,
    p50Ms: round(quantile(latencies, 0.5)),
    p99Ms: round(quantile(latencies, 0.99)),
    maxMs: round(Math.max(...latencies)),
    connectSeconds: round(connectSeconds, 1),
  }
}

const results: Result[] = []
try {
  await run(10, warmupProject, 3000)
  for (const n of NS) results.push(await run(n, projects.get(n) ?? 0))
} finally {
  server.child.kill('SIGTERM')
  await server.exited
  await rm(dataDir, { recursive: true, force: true })
  if (databaseUrl) {
    await db.deleteFrom('users').where('id', '=', owner.id).execute()
    await db.destroy()
  }
}
console.log(
  JSON.stringify(
    {
      benchmark: 'sync writer-to-reader latency, one writer at 20 Hz, 100-node document',
      database: databaseUrl ? 'postgres' : 'pglite',
      durationSeconds: DURATION_MS / 1000,
      results,
      targetP99MsAtN50: 50,
    },
    null,
    2,
  ),
)
