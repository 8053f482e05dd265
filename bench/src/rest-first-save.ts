/**
 * What a project's first REST autosave costs the api beside its later ones (issue 23: the
 * burst of first saves behind the 100-editor p99 of `rest-autosave.ts`).
 *
 * K projects (`make-graph.mjs 300 7`, their documents stored and compacted, as a project
 * opened before), each `PATCH /api/projects/:id`ed with its whole graph and one node moved,
 * one request at a time (no contention: the client waits for each answer), three rounds:
 * the first reads each project's stored document (its graph index), the later ones start
 * from the copy the api kept. Reported per round: the api process's CPU per save in ms (from
 * `/proc`, user + system), the same for its main thread alone (the JavaScript, without the
 * garbage collector's threads beside it), the wall time per save, and the load average. The api is warmed
 * up first on K projects of its own with the same three rounds, so code compilation is not
 * counted.
 *
 * Run: BENCH_DATABASE_URL=postgres://... npm run rest-first-save -w bench [K]   (default 100;
 * without BENCH_DATABASE_URL on PGlite)
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createDb, migrateToLatest } from '@reelgraph/db'
import type { Graph } from '@reelgraph/shared'
import { createUser } from '../../sync-server/src/testing/sync-test-kit.ts'
import {
  freshDataDir,
  loadAverage,
  mainThreadCpuSeconds,
  processCpuSeconds,
  startApp,
} from './app-process.ts'
import { makeGraph, round } from './graph-fixture.ts'
import { createStoredProjects } from './stored-projects.ts'

const K = Number(process.argv[2]) || 100
const ROUNDS = ['first', 'second', 'third'] as const
const PORT = 3196

const dataDir = freshDataDir()
const graph = makeGraph(300, 7)

/** The autosave body of `g` with node `index` moved to `position`. */
function bodyWithMove(g: Graph, index: number, position: { x: number; y: number }): string {
  const nodes = g.nodes.map((node, i) => (i === index ? { ...node, position } : node))
  return JSON.stringify({ nodes, connections: g.connections })
}

// The api owns PGlite's directory while it runs: make the rows first.
const db = createDb({ databaseUrl: process.env.BENCH_DATABASE_URL, pgliteDir: join(dataDir, 'pg') })
await migrateToLatest(db)
const { userId, cookie } = await createUser(db)
const projectIds = await createStoredProjects({ db, userId, graph, count: 2 * K })
await db.destroy()

const app = await startApp({ port: PORT, dataDir, env: { JOB_WORKERS: 'false' } })
const pid = app.child.pid!

/** One round: a save of each project in turn, node `moved` moved; the api's cost per save. */
async function saveRound(ids: number[], moved: number) {
  const loadBefore = loadAverage()
  const cpuBefore = processCpuSeconds(pid)
  const mainBefore = mainThreadCpuSeconds(pid)
  const started = performance.now()
  for (const id of ids) {
    const res = await fetch(`${app.url}/api/projects/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie, origin: app.url },
      body: bodyWithMove(graph, moved, { x: moved * 10, y: moved * 5 }),
    })
    if (!res.ok) throw new Error(`PATCH answered ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }
  return {
    apiCpuMsPerSave: round(((processCpuSeconds(pid) - cpuBefore) * 1000) / ids.length),
    apiMainThreadCpuMsPerSave: round(
      ((mainThreadCpuSeconds(pid) - mainBefore) * 1000) / ids.length,
    ),
    wallMsPerSave: round((performance.now() - started) / ids.length),
    loadavg: { before: loadBefore, after: loadAverage() },
  }
}

try {
  // The warm-up: the same rounds on the api's own projects.
  for (let i = 0; i < ROUNDS.length; i++) await saveRound(projectIds.slice(K), i)
  const results: Record<string, Awaited<ReturnType<typeof saveRound>>> = {}
  for (const [i, name] of ROUNDS.entries()) {
    const result = await saveRound(projectIds.slice(0, K), i)
    results[name] = result
    console.log(JSON.stringify({ save: name, projects: K, ...result }))
  }
  console.log(JSON.stringify({ benchmark: 'rest-first-save', projects: K, results }, null, 2))
} finally {
  await app.stop()
  await rm(dataDir, { recursive: true, force: true })
}
process.exit(0)
