/**
 * Editors per box (issue 15 benchmarks; target: p99 edit-to-saved at most 1 s at 500
 * editors on this 2-core machine, every edit saved, RSS at most 1 MB per open 300-node
 * project above the idle process).
 *
 * One sync server in its own process (`sync-server/src/testing/sync-server-process.ts`:
 * the production extensions and store throttle) on BENCH_DATABASE_URL's Postgres (PGlite
 * in a fresh directory without it). For each K, K projects are made from
 * `make-graph.mjs 300 7`, one per editor, and K `@hocuspocus/provider` clients (each with its
 * own WebSocket, as browsers have) open them. Each editor moves one node once a second for
 * RUN_MS, the first moves spread over the first second; an edit counts as saved when a
 * `saved` message's state vector covers the editor's clock after the edit, and its latency
 * is from the edit to that message. Reported per K: edits, stores/s (saved messages per
 * second of the run: one per store, the only client of each document), edit-to-saved
 * p50/p99/max, edits not saved SETTLE_MS after the run, the server's RSS idle and at its
 * peak (sampled every second), the server's CPU use during the run (100 = one core), and
 * the load average before and after.
 *
 * The clients share this process: at large K their own event loop adds to the figures.
 * Run: BENCH_DATABASE_URL=postgres://... npm run editors -w bench [K ...]   (default 50 100 200 500)
 */
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'
import { createDb, migrateToLatest } from '@reelgraph/db'
import {
  decodeSavedSnapshot,
  getNodesMap,
  moveNodes,
  SYNC_PATH,
  syncMessageSchema,
} from '@reelgraph/shared'
import * as Y from 'yjs'
import {
  cookieWebSocket,
  createProject,
  createUser,
  spawnSyncServer,
  waitFor,
} from '../../sync-server/src/testing/sync-test-kit.ts'
import { freshDataDir } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'
import { sleep } from './write-latency.ts'

/** How long each editor edits (the 20 s). */
const RUN_MS = 20_000
/** One edit per editor per second (the pace). */
const EDIT_INTERVAL_MS = 1000
/** Edits not saved this long after the run count as lost (the 12 s). */
const SETTLE_MS = 12_000
/** How long K providers get to connect and sync before the run. */
const CONNECT_TIMEOUT_MS = 300_000

const KS = process.argv.slice(2).map(Number).filter(Boolean)
const EDITORS = KS.length > 0 ? KS : [50, 100, 200, 500]

const databaseUrl = process.env.BENCH_DATABASE_URL
const dataDir = freshDataDir()
const db = createDb({ databaseUrl, pgliteDir: join(dataDir, 'pg') })
await migrateToLatest(db)
const { userId, cookie } = await createUser(db)
const graph = makeGraph(300, 7)
const databaseArgs = databaseUrl
  ? ['--database-url', databaseUrl]
  : ['--pglite-dir', join(dataDir, 'pg')]
if (!databaseUrl) await db.destroy()

/** The resident set size of process `pid` in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
  return round(kb / 1024, 1)
}

/** CPU seconds (user + system) process `pid` has used so far (Linux, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

interface Editor {
  doc: Y.Doc
  provider: HocuspocusProvider
  socket: HocuspocusProviderWebsocket
  /** Edits not yet covered by a `saved`: the editor's clock after the edit, and when. */
  pending: { clock: number; at: number }[]
  synced: boolean
}

const results = []
for (const k of EDITORS) {
  const projectDb = databaseUrl ? db : createDb({ pgliteDir: join(dataDir, 'pg') })
  const projectIds: number[] = []
  for (let i = 0; i < k; i++) projectIds.push(await createProject(projectDb, userId, graph))
  if (!databaseUrl) await projectDb.destroy()
  const server = await spawnSyncServer([...databaseArgs, '--log-level', 'error'])
  const pid = server.child.pid!
  await sleep(1000)
  const idleRss = rssMb(pid)

  const latencies: number[] = []
  let savedMessages = 0
  let measuring = false
  const editors: Editor[] = projectIds.map((projectId) => {
    const doc = new Y.Doc()
    const socket = new HocuspocusProviderWebsocket({
      url: `ws://127.0.0.1:${server.port}${SYNC_PATH}`,
      WebSocketPolyfill: cookieWebSocket(cookie),
    })
    const editor: Editor = { doc, socket, provider: undefined as never, pending: [], synced: false }
    editor.provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: String(projectId),
      document: doc,
      onSynced: () => {
        editor.synced = true
      },
      onStateless: ({ payload }) => {
        const message = syncMessageSchema.safeParse(JSON.parse(payload))
        if (!message.success || message.data.type !== 'saved') return
        if (measuring) savedMessages += 1
        const covered = decodeSavedSnapshot(message.data.snapshot)?.sv.get(doc.clientID) ?? 0
        const now = performance.now()
        while (editor.pending.length > 0 && editor.pending[0]!.clock <= covered) {
          latencies.push(now - editor.pending.shift()!.at)
        }
      },
    })
    editor.provider.attach()
    return editor
  })
  await waitFor(() => editors.every((e) => e.synced), `${k} editors synced`, CONNECT_TIMEOUT_MS)
  await sleep(2000)
  const loadBefore = loadavg()

  let edits = 0
  let peakRss = rssMb(pid)
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid))
  }, 1000)
  measuring = true
  const cpuBefore = cpuSeconds(pid)
  const started = performance.now()
  const loops = editors.map(async (editor, i) => {
    const ids = [...getNodesMap(editor.doc).keys()]
    const offset = (i / editors.length) * EDIT_INTERVAL_MS
    for (let n = 0; ; n++) {
      const due = started + offset + n * EDIT_INTERVAL_MS
      if (due - started >= RUN_MS) return
      const wait = due - performance.now()
      if (wait > 0) await sleep(wait)
      const id = ids[(n * 7 + i) % ids.length]!
      moveNodes(editor.doc, new Map([[id, { x: n * 10 + i, y: n * 5 }]]))
      editor.pending.push({
        clock: Y.getState(editor.doc.store, editor.doc.clientID),
        at: performance.now(),
      })
      edits += 1
    }
  })
  await Promise.all(loops)
  const runSeconds = (performance.now() - started) / 1000
  const storesPerSecond = savedMessages / runSeconds
  const serverCpuPercent = round(((cpuSeconds(pid) - cpuBefore) / runSeconds) * 100, 0)
  const loadAfter = loadavg()
  await sleep(SETTLE_MS)
  clearInterval(sampler)
  const notSaved = editors.reduce((sum, e) => sum + e.pending.length, 0)

  results.push({
    editors: k,
    edits,
    storesPerSecond: round(storesPerSecond, 1),
    editToSavedMs: {
      p50: round(quantile(latencies, 0.5)),
      p99: round(quantile(latencies, 0.99)),
      max: round(Math.max(...latencies)),
    },
    notSavedAfter12s: notSaved,
    serverCpuPercent,
    serverRssMb: {
      idle: idleRss,
      peak: peakRss,
      perProjectAboveIdle: round((peakRss - idleRss) / k, 2),
    },
    loadavg: { before: loadBefore, after: loadAfter },
  })
  console.log(JSON.stringify(results.at(-1)))
  for (const e of editors) {
    e.provider.destroy()
    e.socket.destroy()
    e.doc.destroy()
  }
  await server.stop()
}
if (databaseUrl) await db.destroy()
await rm(dataDir, { recursive: true, force: true })
console.log(JSON.stringify({ benchmark: 'editors-per-box', results }, null, 2))
process.exit(0)
