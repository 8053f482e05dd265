/**
 * REST autosave (issue 15 benchmarks; target: 100 editors at 100 saves/s with p99 under
 * 1 s): K editors each `PATCH /api/projects/:id` the whole graph of their own project
 * (`make-graph.mjs 300 7`) once a second for RUN_MS, one node moved each time, the first
 * requests spread over the first second, against the api process (`api/src/server.ts`, the
 * embedded sync server and its document gateway) on BENCH_DATABASE_URL's Postgres (PGlite
 * without it). Reported per K: saves, saves/s (200 answers per second of the run), request
 * p50/p99/max, failures, and the load average before and after. Each editor waits for its
 * answer before its next PATCH is due (a browser autosave has one request in flight).
 *
 * Run: BENCH_DATABASE_URL=postgres://... npm run rest-autosave -w bench [K ...]   (default 50 100)
 */
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createDb, migrateToLatest } from '@reelgraph/db'
import { createProject, createUser } from '../../sync-server/src/testing/sync-test-kit.ts'
import { freshDataDir, startApp } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'
import { sleep } from './write-latency.ts'

/** How long each editor autosaves (as the editors-per-box run). */
const RUN_MS = 20_000
/** One autosave per editor per second (the pace). */
const SAVE_INTERVAL_MS = 1000
const PORT = 3195

const KS = process.argv.slice(2).map(Number).filter(Boolean)
const EDITORS = KS.length > 0 ? KS : [50, 100]

const databaseUrl = process.env.BENCH_DATABASE_URL
const dataDir = freshDataDir()
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const graph = makeGraph(300, 7)

const results = []
for (const k of EDITORS) {
  // The api owns PGlite's directory while it runs: make the rows first.
  const db = createDb({ databaseUrl, pgliteDir: join(dataDir, 'pg') })
  await migrateToLatest(db)
  const { userId, cookie } = await createUser(db)
  const projectIds: number[] = []
  for (let i = 0; i < k; i++) projectIds.push(await createProject(db, userId, graph))
  await db.destroy()
  const app = await startApp({ port: PORT, dataDir, env: { JOB_WORKERS: 'false' } })
  const loadBefore = loadavg()
  const latencies: number[] = []
  let failures = 0
  const started = performance.now()
  await Promise.all(
    projectIds.map(async (projectId, i) => {
      const nodes = graph.nodes.map((n) => ({ ...n, position: { ...n.position } }))
      const offset = (i / projectIds.length) * SAVE_INTERVAL_MS
      for (let n = 0; ; n++) {
        const due = started + offset + n * SAVE_INTERVAL_MS
        if (due - started >= RUN_MS) return
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        const node = nodes[(n * 7 + i) % nodes.length]!
        node.position = { x: n * 10 + i, y: n * 5 }
        const sent = performance.now()
        const res = await fetch(`${app.url}/api/projects/${projectId}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', cookie, origin: app.url },
          body: JSON.stringify({ nodes, connections: graph.connections }),
        })
        await res.arrayBuffer()
        if (res.ok) latencies.push(performance.now() - sent)
        else failures += 1
      }
    }),
  )
  const runSeconds = (performance.now() - started) / 1000
  results.push({
    editors: k,
    saves: latencies.length,
    savesPerSecond: round(latencies.length / runSeconds, 1),
    latencyMs: {
      p50: round(quantile(latencies, 0.5)),
      p99: round(quantile(latencies, 0.99)),
      max: round(Math.max(...latencies)),
    },
    failures,
    loadavg: { before: loadBefore, after: loadavg() },
  })
  console.log(JSON.stringify(results.at(-1)))
  await app.stop()
}
await rm(dataDir, { recursive: true, force: true })
console.log(JSON.stringify({ benchmark: 'rest-autosave', results }, null, 2))
process.exit(0)
