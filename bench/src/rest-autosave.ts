/**
 * REST autosave, Reelgraph beside the seed's stack in one run (issue 23 benchmarks; targets
 * on this machine: 100 editors at 100 saves/s or more with p99 at most 200 ms, 200 editors at
 * 190 saves/s or more).
 *
 * K editors each `PATCH /api/projects/:id` the whole graph of their own project
 * (`make-graph.mjs 300 7`, its document stored: a project opened before) once a second for
 * RUN_MS, one node moved each time, the first
 * requests spread over the first second; each editor waits for its answer before its next
 * PATCH is due (a browser autosave has one request in flight). Against, one after the other
 * on the same Postgres (BENCH_DATABASE_URL):
 * - Reelgraph: the api process (`api/src/server.ts`, the embedded sync server and its
 *   document gateway), signed in by session cookie;
 * - the seed's stack: `seed-stack.ts`, a RECONSTRUCTION of the original product's server
 *   (Express, a session lookup per request, one whole-graph jsonb `UPDATE` per PATCH; see
 *   its comment for what it leaves out). Skipped without BENCH_DATABASE_URL (it needs
 *   Postgres).
 * Reported per K and stack: saves, saves/s (2xx answers per second of the run), request
 * p50/p99/max, the same without each editor's first save (Reelgraph reads the project's
 * stored document on its first PATCH), the same for saves sent after the first STEADY_AFTER_MS
 * (once the first saves' backlog has drained), failures, the server process's CPU (100 = one core), and the load average
 * before and after.
 *
 * Run: BENCH_DATABASE_URL=postgres://... npm run rest-autosave -w bench [K ...]   (default 50 100)
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, migrateToLatest } from '@reelgraph/db'
import type { Graph } from '@reelgraph/shared'
import { seedState } from '../../sync-server/src/extensions/persistence.ts'
import { createProject, createUser } from '../../sync-server/src/testing/sync-test-kit.ts'
import { freshDataDir, ROOT, startApp } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'
import { setupSeedStack } from './seed-stack.ts'
import { sleep } from './write-latency.ts'

/** How long each editor autosaves (as the editors-per-box run). */
const RUN_MS = 20_000
/** One autosave per editor per second (the pace). */
const SAVE_INTERVAL_MS = 1000
const PORT = 3195
/** Saves sent this long after the start are reported apart, as the steady state. */
const STEADY_AFTER_MS = 5000

const KS = process.argv.slice(2).map(Number).filter(Boolean)
const EDITORS = KS.length > 0 ? KS : [50, 100]

const databaseUrl = process.env.BENCH_DATABASE_URL
const dataDir = freshDataDir()
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const graph = makeGraph(300, 7)

/** CPU seconds (user + system) process `pid` has used so far (Linux, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** K editors autosaving against `url`; the figures of the run. */
async function autosave(options: {
  url: string
  cookie: string
  projectIds: number[]
  pid: number
}) {
  const { url, cookie, projectIds, pid } = options
  const loadBefore = loadavg()
  const cpuBefore = cpuSeconds(pid)
  const latencies: number[] = []
  /** The same without each editor's first save (its project's first read from the database). */
  const warm: number[] = []
  /** Saves sent after STEADY_AFTER_MS. */
  const steady: number[] = []
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
        try {
          const res = await fetch(`${url}/api/projects/${projectId}`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json', cookie, origin: url },
            body: JSON.stringify({ nodes, connections: graph.connections }),
          })
          await res.arrayBuffer()
          if (res.ok) {
            latencies.push(performance.now() - sent)
            if (n > 0) warm.push(performance.now() - sent)
            if (sent - started >= STEADY_AFTER_MS) steady.push(performance.now() - sent)
          } else failures += 1
        } catch {
          failures += 1
        }
      }
    }),
  )
  const runSeconds = (performance.now() - started) / 1000
  return {
    saves: latencies.length,
    savesPerSecond: round(latencies.length / runSeconds, 1),
    latencyMs: {
      p50: round(quantile(latencies, 0.5)),
      p99: round(quantile(latencies, 0.99)),
      max: round(Math.max(...latencies)),
    },
    latencyAfterFirstSaveMs: { p50: round(quantile(warm, 0.5)), p99: round(quantile(warm, 0.99)) },
    steadyLatencyMs: {
      after: STEADY_AFTER_MS,
      p50: round(quantile(steady, 0.5)),
      p99: round(quantile(steady, 0.99)),
    },
    failures,
    serverCpuPercent: round(((cpuSeconds(pid) - cpuBefore) / runSeconds) * 100, 0),
    loadavg: { before: loadBefore, after: loadavg() },
  }
}

/** Starts the seed's stack reconstruction; resolves with its URL and a stop function. */
async function startSeedStack(url: string) {
  const script = fileURLToPath(new URL('./seed-stack.ts', import.meta.url))
  const child = spawn(process.execPath, [script, '--database-url', url], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('{"port"'))
      if (line) resolve((JSON.parse(line) as { port: number }).port)
    })
    child.once('exit', (code) => reject(new Error(`the seed stack exited with code ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

async function reelgraphRun(k: number, g: Graph) {
  // The api owns PGlite's directory while it runs: make the rows first.
  const db = createDb({ databaseUrl, pgliteDir: join(dataDir, 'pg') })
  await migrateToLatest(db)
  const { userId, cookie } = await createUser(db)
  const projectIds: number[] = []
  // Projects opened before (an autosave edits an open project): their documents are stored.
  const state = seedState(g)
  for (let i = 0; i < k; i++) {
    const id = await createProject(db, userId, g)
    await db
      .insertInto('project_documents')
      .values({ project_id: id, state, updated_at: new Date() })
      .execute()
    projectIds.push(id)
  }
  await db.destroy()
  const app = await startApp({ port: PORT, dataDir, env: { JOB_WORKERS: 'false' } })
  try {
    return await autosave({ url: app.url, cookie, projectIds, pid: app.child.pid! })
  } finally {
    await app.stop()
  }
}

async function seedStackRun(k: number, g: Graph, url: string) {
  const { cookie, projectIds } = await setupSeedStack({ databaseUrl: url, count: k, graph: g })
  const peer = await startSeedStack(url)
  try {
    return await autosave({ url: peer.url, cookie, projectIds, pid: peer.pid })
  } finally {
    await peer.stop()
  }
}

const results = []
for (const k of EDITORS) {
  const reelgraph = await reelgraphRun(k, graph)
  console.log(JSON.stringify({ editors: k, stack: 'reelgraph', ...reelgraph }))
  const seed = databaseUrl ? await seedStackRun(k, graph, databaseUrl) : null
  if (seed) {
    console.log(JSON.stringify({ editors: k, stack: 'seed-stack (reconstruction)', ...seed }))
  }
  results.push({ editors: k, reelgraph, seedStackReconstruction: seed })
}
await rm(dataDir, { recursive: true, force: true })
console.log(JSON.stringify({ benchmark: 'rest-autosave', results }, null, 2))
process.exit(0)
