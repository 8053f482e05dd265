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
 * Each server is warmed up first (WARM_UP_SAVES on WARM_UP_PROJECTS projects of its own, so
 * both a project's first save and the later ones have run), then left idle until its warm-up
 * projects are compacted (LOG_COMPACT_IDLE_MS). Reported per K and stack: saves, saves/s (2xx answers per second of the run), request
 * p50/p99/max, the same without each editor's first save (Reelgraph reads the project's
 * stored document on its first PATCH), the same for saves sent after the first STEADY_AFTER_MS
 * (once the first saves' backlog has drained), failures, the server process's CPU (100 = one core), the CPU of
 * this machine's Postgres processes in the run, and the load average before and after.
 * The server's CPU is also given for its main threads alone (`serverMainThreadCpuPercent`:
 * the JavaScript, without the garbage collector's threads): a process whose main thread is
 * at 100 is saturated whatever its total says. `clientCpuPercent` is this process's own CPU
 * (the editors' requests): the load generator shares the machine's cores with what it
 * measures. Each editor keeps one HTTP/1.1 connection of its own (`http-client.ts`, as a
 * browser tab does) and a body buffer it rewrites in place (`GraphBody`), so the load
 * generator takes as little of the two cores as it can.
 *
 * With `--processes N` Reelgraph runs as N api processes on one Postgres (and REDIS_URL's
 * Redis when set), as the compose file runs `app` replicas behind its proxy; editor i talks
 * to process i mod N (a proxy spreads connections, and each browser keeps its own), and the
 * CPU reported is theirs together.
 *
 * Run: BENCH_DATABASE_URL=postgres://... npm run rest-autosave -w bench [K ...]   (default 50 100)
 *      BENCH_DATABASE_URL=postgres://... npm run rest-autosave -w bench -- --processes 2 200
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent } from 'node:http'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createDb, migrateToLatest } from '@reelgraph/db'
import type { Graph } from '@reelgraph/shared'
import { LOG_COMPACT_IDLE_MS } from '../../sync-server/src/config.ts'
import { createUser } from '../../sync-server/src/testing/sync-test-kit.ts'
import {
  freshDataDir,
  loadAverage,
  mainThreadCpuSeconds,
  processCpuSeconds,
  ROOT,
  startApp,
} from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'
import { send, tabAgent } from './http-client.ts'
import { setupSeedStack } from './seed-stack.ts'
import { createStoredProjects } from './stored-projects.ts'
import { sleep } from './write-latency.ts'

/** How long each editor autosaves (as the editors-per-box run). */
const RUN_MS = 20_000
/** One autosave per editor per second (the pace). */
const SAVE_INTERVAL_MS = 1000
const PORT = 3195
/**
 * Before the run each server takes WARM_UP_SAVES PATCHes on WARM_UP_PROJECTS projects of
 * its own (not the editors'), so the run measures a server that has been up a while (its
 * code compiled, first saves and later ones alike, its database pool open) meeting K editors
 * whose projects it has not seen.
 */
const WARM_UP_PROJECTS = 60
const WARM_UP_SAVES = 300
/** Saves sent this long after the start are reported apart, as the steady state. */
const STEADY_AFTER_MS = 5000

const { values: flags, positionals } = parseArgs({
  options: { processes: { type: 'string', default: '1' } },
  allowPositionals: true,
})
const PROCESSES = Math.max(1, Number(flags.processes) || 1)
const KS = positionals.map(Number).filter(Boolean)
const EDITORS = KS.length > 0 ? KS : [50, 100]

const databaseUrl = process.env.BENCH_DATABASE_URL
if (PROCESSES > 1 && !databaseUrl) {
  console.error('--processes needs BENCH_DATABASE_URL: processes cannot share a PGlite directory.')
  process.exit(2)
}
const dataDir = freshDataDir()
const graph = makeGraph(300, 7)

/**
 * CPU seconds every `postgres` process on this machine has used so far (the database's
 * share of a save, when BENCH_DATABASE_URL is this machine's server); processes gone since
 * are not counted.
 */
function postgresCpuSeconds(): number {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') {
        total += processCpuSeconds(Number(entry))
      }
    } catch {
      // Exited meanwhile.
    }
  }
  return total
}

/** K editors autosaving against `url`; the figures of the run. */
async function autosave(options: {
  /** The servers' URLs: editor i talks to urls[i % urls.length]. */
  urls: string[]
  cookie: string
  projectIds: number[]
  pids: number[]
}) {
  const { urls, cookie, projectIds, pids } = options
  const cpu = () => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0)
  const mainCpu = () => pids.reduce((sum, pid) => sum + mainThreadCpuSeconds(pid), 0)
  const loadBefore = loadAverage()
  const cpuBefore = cpu()
  const mainCpuBefore = mainCpu()
  const clientBefore = process.cpuUsage()
  const postgresBefore = postgresCpuSeconds()
  const latencies: number[] = []
  /** The same without each editor's first save (its project's first read from the database). */
  const warm: number[] = []
  /** Saves sent after STEADY_AFTER_MS. */
  const steady: number[] = []
  /** Latencies by the 5 s window each save was sent in. */
  const windows: number[][] = []
  let failures = 0
  // Each editor's body and connection are made before the clock starts: made inside the run
  // they took the load generator about 140 ms for 100 editors, and every editor due
  // meanwhile sent its first save at once instead of at its place in the first second.
  const editors = projectIds.map((projectId, i) => ({
    projectId,
    url: urls[i % urls.length]!,
    body: new GraphBody(graph),
    agent: tabAgent(),
    offset: (i / projectIds.length) * SAVE_INTERVAL_MS,
  }))
  const started = performance.now()
  await Promise.all(
    editors.map(async ({ projectId, url, body, agent, offset }, i) => {
      for (let n = 0; ; n++) {
        const due = started + offset + n * SAVE_INTERVAL_MS
        if (due - started >= RUN_MS) return
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        body.move((n * 7 + i) % graph.nodes.length, { x: n * 10 + i, y: n * 5 })
        const sent = performance.now()
        try {
          // Read to the end, chunk by chunk (never gathered: the answer is not checked here).
          const res = await patchGraph({ url, cookie, projectId, body, agent })
          if (res.ok) {
            latencies.push(performance.now() - sent)
            if (n > 0) warm.push(performance.now() - sent)
            if (sent - started >= STEADY_AFTER_MS) steady.push(performance.now() - sent)
            const w = Math.floor((sent - started) / 5000)
            ;(windows[w] ??= []).push(performance.now() - sent)
          } else failures += 1
        } catch {
          failures += 1
        }
      }
      agent.destroy()
    }),
  )
  const runSeconds = (performance.now() - started) / 1000
  const client = process.cpuUsage(clientBefore)
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
    p99By5sWindow: windows.map((w) => round(quantile(w, 0.99))),
    failures,
    serverCpuPercent: round(((cpu() - cpuBefore) / runSeconds) * 100, 0),
    serverMainThreadCpuPercent: round(((mainCpu() - mainCpuBefore) / runSeconds) * 100, 0),
    clientCpuPercent: round(((client.user + client.system) / 1e6 / runSeconds) * 100, 0),
    postgresCpuPercent: round(((postgresCpuSeconds() - postgresBefore) / runSeconds) * 100, 0),
    loadavg: { before: loadBefore, after: loadAverage() },
  }
}

/**
 * An editor's autosave body, `JSON.stringify({ nodes, connections })` of its graph as UTF-8,
 * kept in one buffer of its own that a move rewrites in place: only the moved node is
 * encoded, and nothing is allocated per save. The benchmark's clients share the two cores
 * with the servers; a 200 KB stringify per save cost them about a fifth of a core at 200
 * saves/s, and a body gathered from 300 small buffers per save about as much again in their
 * collector (a run's profile: 8 of 15 s of the client's CPU), taken from whichever server
 * was measured. The graph's nodes are shared between editors and never changed.
 */
class GraphBody {
  private readonly nodes: Graph['nodes']
  private buffer: Buffer
  /** `starts[i]`: where node i's JSON (with its comma) begins; `starts[n]`: the tail's. */
  private readonly starts: Int32Array
  private length: number

  constructor(g: Graph) {
    this.nodes = g.nodes
    const parts = [
      Buffer.from('{"nodes":['),
      ...g.nodes.map((node, i) => this.part(i, node.position)),
      Buffer.from(`],"connections":${JSON.stringify(g.connections)}}`),
    ]
    this.starts = new Int32Array(g.nodes.length + 1)
    let at = parts[0]!.length
    for (let i = 0; i <= g.nodes.length; i++) {
      this.starts[i] = at
      at += parts[i + 1]!.length
    }
    this.length = at
    this.buffer = Buffer.alloc(at + 4096)
    Buffer.concat(parts).copy(this.buffer)
  }

  /** Moves node `index` to `position` (only after the last save's request was sent). */
  move(index: number, position: { x: number; y: number }): void {
    const part = this.part(index, position)
    const start = this.starts[index]!
    const end = this.starts[index + 1]!
    const delta = part.length - (end - start)
    if (this.length + delta > this.buffer.length) {
      const grown = Buffer.alloc(this.length + delta + 4096)
      this.buffer.copy(grown, 0, 0, this.length)
      this.buffer = grown
    }
    this.buffer.copyWithin(end + delta, end, this.length)
    part.copy(this.buffer, start)
    for (let i = index + 1; i < this.starts.length; i++) this.starts[i]! += delta
    this.length += delta
  }

  /** The body's bytes now (a view: valid until the next move). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length)
  }

  private part(index: number, position: { x: number; y: number }): Buffer {
    const comma = index < this.nodes.length - 1 ? ',' : ''
    return Buffer.from(JSON.stringify({ ...this.nodes[index], position }) + comma)
  }
}

/**
 * One autosave: `PATCH /api/projects/:id` with the editor's graph body, over the editor's
 * own connection (`agent`); the answer is read off the socket and dropped unless it failed.
 */
function patchGraph(options: {
  url: string
  cookie: string
  projectId: number
  body: GraphBody
  agent: Agent
}) {
  const { url, cookie, projectId, body, agent } = options
  return send({
    url: `${url}/api/projects/${projectId}`,
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: body.bytes(),
    agent,
  })
}

/** WARM_UP_SAVES PATCHes on each of `urls`, WARM_UP_PROJECTS at a time (`projectIds`). */
async function warmUp(options: { urls: string[]; cookie: string; projectIds: number[] }) {
  const { urls, cookie, projectIds } = options
  const perProject = Math.ceil(WARM_UP_SAVES / projectIds.length)
  for (const url of urls) {
    await Promise.all(
      projectIds.map(async (projectId) => {
        const body = new GraphBody(graph)
        const agent = tabAgent()
        for (let n = 0; n < perProject; n++) {
          body.move(n % graph.nodes.length, { x: n, y: 0 })
          const res = await patchGraph({ url, cookie, projectId, body, agent })
          if (!res.ok) throw new Error(`warm-up PATCH answered ${res.status}: ${res.text}`)
        }
        agent.destroy()
      }),
    )
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
  // Projects opened before (an autosave edits an open project).
  const projectIds = await createStoredProjects({
    db,
    userId,
    graph: g,
    count: k + WARM_UP_PROJECTS,
  })
  await db.destroy()
  const apps = await Promise.all(
    Array.from({ length: PROCESSES }, (_, i) =>
      startApp({ port: PORT + i, dataDir, env: { JOB_WORKERS: 'false' } }),
    ),
  )
  try {
    const urls = apps.map((app) => app.url)
    await warmUp({ urls, cookie, projectIds: projectIds.slice(k) })
    // The warm-up projects fall idle: their logs are compacted now, not during the run.
    await sleep(LOG_COMPACT_IDLE_MS + 5000)
    return await autosave({
      urls,
      cookie,
      projectIds: projectIds.slice(0, k),
      pids: apps.map((app) => app.child.pid!),
    })
  } finally {
    await Promise.all(apps.map((app) => app.stop()))
  }
}

async function seedStackRun(k: number, g: Graph, url: string) {
  const { cookie, projectIds } = await setupSeedStack({
    databaseUrl: url,
    count: k + WARM_UP_PROJECTS,
    graph: g,
  })
  const peer = await startSeedStack(url)
  try {
    await warmUp({ urls: [peer.url], cookie, projectIds: projectIds.slice(k) })
    return await autosave({
      urls: [peer.url],
      cookie,
      projectIds: projectIds.slice(0, k),
      pids: [peer.pid],
    })
  } finally {
    await peer.stop()
  }
}

const results = []
for (const k of EDITORS) {
  const reelgraph = await reelgraphRun(k, graph)
  console.log(
    JSON.stringify({ editors: k, stack: 'reelgraph', processes: PROCESSES, ...reelgraph }),
  )
  const seed = databaseUrl ? await seedStackRun(k, graph, databaseUrl) : null
  if (seed) {
    console.log(JSON.stringify({ editors: k, stack: 'seed-stack (reconstruction)', ...seed }))
  }
  results.push({ editors: k, reelgraph, seedStackReconstruction: seed })
}
await rm(dataDir, { recursive: true, force: true })
console.log(JSON.stringify({ benchmark: 'rest-autosave', results }, null, 2))
process.exit(0)
