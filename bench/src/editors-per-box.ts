/**
 * Editors per box (issue 15 benchmarks, issue 23 targets on this 2-core machine: 1,000
 * editors at p99 edit-to-saved at most 1 s, every edit saved, RSS at most 3 GB; 2,000
 * editors: the process stays up, those admitted keep p99 at most 1 s, the rest are refused
 * as busy, and once the load stops every edit of every editor is saved; at most 2 MB of
 * server memory per open 300-node project).
 *
 * One sync server in its own process (`sync-server/src/testing/sync-server-process.ts`:
 * the production extensions, store throttle and memory budget, half its V8 heap limit
 * unless `--budget-mb N`) on BENCH_DATABASE_URL's Postgres (PGlite in a fresh directory
 * without it). For each K, K projects are made from `make-graph.mjs 300 7`, their documents
 * stored, one per editor, and K `@hocuspocus/provider` clients (each with its own WebSocket,
 * as browsers have) open them from a device copy of that stored document (as the canvas
 * opens a project it has seen: from IndexedDB). A client refused as busy reconnects after the
 * canvas' jittered backoff (`busyRetryDelayMs`), keeps editing its copy meanwhile, and syncs
 * once admitted.
 *
 * They all connect at once (a storm, as after a deploy); the run starts once the storm has
 * settled: every editor admitted, or those left refused for memory and no one admitted for
 * ADMISSION_SETTLE_MS (reported: when the last
 * editor got in). With `--editing-storm` every editor edits from the moment it opens its
 * project, admitted or not (on its device copy while refused), as people do after a deploy;
 * without, editors wait for the storm to settle. Only edits made in the run are measured.
 * Each editor moves one node once a second for RUN_MS, the first moves spread over the
 * first second; an edit counts as saved when a `saved` message's snapshot covers the
 * editor's clock after the edit, and its latency is from the edit to that message. Reported
 * per K: editors admitted and refused as busy when the run starts, edits, stores/s,
 * edit-to-saved p50/p99/max of the edits made while admitted (and, separately, of those made
 * on a device copy while refused), edits of admitted editors not saved SETTLE_MS after the
 * run; then the load stops (editors with nothing unsaved close) and the refused editors get
 * in: how long until every edit of every editor is saved, and how many are not after
 * DRAIN_MS, and what the editors still holding unsaved edits were doing then. Beside them:
 * the server's RSS idle and at its peak, its V8 heap, the budget's estimate, busy refusals by
 * reason, its CPU (100 = one core), whether it is still up, this process's own event loop
 * delay during the run (its providers share the box: a late `saved` may be late here), and
 * the load average before and after.
 *
 * `--memory K` measures memory per open project instead: K editors open their projects and
 * do nothing; the server collects garbage (it runs with --expose-gc), and its heap and RSS
 * above idle are divided by K.
 *
 * The clients share this process (run with a large heap: K device copies of 1.9 MB): at
 * large K their own event loop adds to the figures.
 * Run: BENCH_DATABASE_URL=postgres://... npm run editors -w bench [K ...]   (default 50 100 200 500)
 *      BENCH_DATABASE_URL=postgres://... npm run editors -w bench -- --editing-storm 1000 2000
 *      (--budget-mb N sets the server's memory budget)
 *      BENCH_DATABASE_URL=postgres://... npm run editors -w bench -- --memory 200
 */
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'
import { createDb, type DB, migrateToLatest } from '@reelgraph/db'
import {
  busyRetryDelayMs,
  decodeSavedSnapshot,
  getNodesMap,
  moveNodes,
  SYNC_CLOSE_REASONS,
  SYNC_PATH,
  syncMessageSchema,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import { seedState } from '../../sync-server/src/extensions/persistence.ts'
import { reconnectWhenClosed } from '../../web/src/features/canvas/sync/reconnect.ts'
import {
  cookieWebSocket,
  createProject,
  createUser,
  spawnSyncServer,
  type SyncServerProcess,
  waitFor,
} from '../../sync-server/src/testing/sync-test-kit.ts'
import { freshDataDir, loadAverage, processCpuSeconds } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'
import { sleep } from './write-latency.ts'

/** How long each editor edits (the 20 s). */
const RUN_MS = 20_000
/** One edit per editor per second (the pace). */
const EDIT_INTERVAL_MS = 1000
/** Edits of admitted editors not saved this long after the run count as lost (the 12 s). */
const SETTLE_MS = 12_000
/** How long the refused editors get, once the load stops, to be admitted and save. */
const DRAIN_MS = 180_000
/** No editor admitted for this long while some are refused for memory: the storm has settled. */
const ADMISSION_SETTLE_MS = 10_000
/** How long K providers get to connect and sync (or be refused) before the run. */
const CONNECT_TIMEOUT_MS = 300_000

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    memory: { type: 'string' },
    'budget-mb': { type: 'string' },
    'editing-storm': { type: 'boolean', default: false },
  },
})
const editingStorm = values['editing-storm'] === true
const KS = positionals.map(Number).filter(Boolean)
const EDITORS = KS.length > 0 ? KS : [50, 100, 200, 500]

const databaseUrl = process.env.BENCH_DATABASE_URL
const dataDir = freshDataDir()
const db = createDb({ databaseUrl, pgliteDir: join(dataDir, 'pg') })
await migrateToLatest(db)
const { userId, cookie } = await createUser(db)
const graph = makeGraph(300, 7)
/** The stored document every project starts from, and every editor's device copy of it. */
const stored = seedState(graph)
const databaseArgs = databaseUrl
  ? ['--database-url', databaseUrl]
  : ['--pglite-dir', join(dataDir, 'pg')]
const serverArgs = [
  ...databaseArgs,
  '--log-level',
  'error',
  ...(values['budget-mb'] ? ['--memory-budget-mb', values['budget-mb']] : []),
]
if (!databaseUrl) await db.destroy()

/** The resident set size of process `pid` in MB (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
  return round(kb / 1024, 1)
}

/** The server's metrics (Prometheus text), as numbers by series. */
async function serverMetrics(server: SyncServerProcess): Promise<Map<string, number>> {
  const text = await server.metrics()
  const series = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    series.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return series
}

const mb = (bytes: number | undefined) => round((bytes ?? Number.NaN) / 1024 / 1024, 1)

/** K projects whose documents are stored already (the device copies share their items). */
async function makeProjects(k: number): Promise<number[]> {
  const projectDb: Kysely<DB> = databaseUrl ? db : createDb({ pgliteDir: join(dataDir, 'pg') })
  const ids: number[] = []
  for (let i = 0; i < k; i++) {
    const id = await createProject(projectDb, userId, graph)
    await projectDb
      .insertInto('project_documents')
      .values({ project_id: id, state: stored, updated_at: new Date() })
      .execute()
    ids.push(id)
  }
  if (!databaseUrl) await projectDb.destroy()
  return ids
}

interface Editor {
  doc: Y.Doc
  provider: HocuspocusProvider
  socket: HocuspocusProviderWebsocket
  /** Edits not yet covered by a `saved`: the clock after the edit, when, and whether admitted then. */
  pending: { clock: number; at: number; admitted: boolean }[]
  synced: boolean
  busy: number
}

/** An edit a `saved` message covered: its edit-to-saved time, when it was made, and whether admitted then. */
interface SettledEdit {
  ms: number
  at: number
  admitted: boolean
}

function openEditors(
  server: SyncServerProcess,
  projectIds: number[],
  onSaved: (editor: Editor, latencies: SettledEdit[]) => void,
): Editor[] {
  return projectIds.map((projectId) => {
    const doc = new Y.Doc()
    Y.applyUpdate(doc, stored)
    const socket = new HocuspocusProviderWebsocket({
      url: `ws://127.0.0.1:${server.port}${SYNC_PATH}`,
      WebSocketPolyfill: cookieWebSocket(cookie),
    })
    const editor: Editor = {
      doc,
      socket,
      provider: undefined as never,
      pending: [],
      synced: false,
      busy: 0,
    }
    editor.provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: String(projectId),
      document: doc,
      onSynced: () => {
        editor.synced = true
      },
      onAuthenticationFailed: ({ reason }) => {
        if (reason !== SYNC_CLOSE_REASONS.serverBusy) return
        // As the canvas does (`project-session.ts`): off the socket, back on a new one after
        // a jittered backoff.
        socket.disconnect()
        setTimeout(() => reconnectWhenClosed(socket), busyRetryDelayMs(editor.busy))
        editor.busy += 1
      },
      onStateless: ({ payload }) => {
        const message = syncMessageSchema.safeParse(JSON.parse(payload))
        if (!message.success || message.data.type !== 'saved') return
        const covered = decodeSavedSnapshot(message.data.snapshot)?.sv.get(doc.clientID) ?? 0
        const now = performance.now()
        const settled: SettledEdit[] = []
        while (editor.pending.length > 0 && editor.pending[0]!.clock <= covered) {
          const edit = editor.pending.shift()!
          settled.push({ ms: now - edit.at, at: edit.at, admitted: edit.admitted })
        }
        onSaved(editor, settled)
      },
    })
    editor.provider.attach()
    return editor
  })
}

function closeEditor(e: Editor): void {
  e.provider.destroy()
  e.socket.destroy()
  e.doc.destroy()
}

/** Memory per open project: K idle editors, garbage collected, heap and RSS above idle / K. */
async function measureMemory(k: number) {
  const projectIds = await makeProjects(k)
  const server = await spawnSyncServer(serverArgs, ['--expose-gc'])
  const pid = server.child.pid!
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      server.child.kill('SIGUSR2')
      await sleep(1000)
    }
    return { rss: rssMb(pid), metrics: await serverMetrics(server) }
  }
  await sleep(1000)
  const loadBefore = loadAverage()
  const idle = await settle()
  const editors = openEditors(server, projectIds, () => {})
  await waitFor(() => editors.every((e) => e.synced), `${k} editors synced`, CONNECT_TIMEOUT_MS)
  await sleep(2000)
  const open = await settle()
  const heapIdle = idle.metrics.get('nodejs_heap_size_used_bytes') ?? Number.NaN
  const heapOpen = open.metrics.get('nodejs_heap_size_used_bytes') ?? Number.NaN
  const result = {
    mode: 'memory per open project',
    projects: k,
    openDocuments: open.metrics.get('reelgraph_sync_open_documents'),
    serverHeapMb: { idle: mb(heapIdle), open: mb(heapOpen) },
    serverHeapCommittedMb: {
      idle: mb(idle.metrics.get('nodejs_heap_size_total_bytes')),
      open: mb(open.metrics.get('nodejs_heap_size_total_bytes')),
    },
    serverExternalMb: {
      idle: mb(idle.metrics.get('nodejs_external_memory_bytes')),
      open: mb(open.metrics.get('nodejs_external_memory_bytes')),
    },
    serverRssMb: { idle: idle.rss, open: open.rss },
    perOpenProjectMb: {
      heap: round((heapOpen - heapIdle) / k / 1024 / 1024, 2),
      rss: round((open.rss - idle.rss) / k, 2),
      budgetEstimate: round(
        (open.metrics.get('reelgraph_sync_document_bytes_estimated') ?? 0) / k / 1024 / 1024,
        2,
      ),
    },
    loadavg: { before: loadBefore, after: loadAverage() },
  }
  for (const e of editors) closeEditor(e)
  await server.stop()
  return result
}

async function editorsRun(k: number) {
  const projectIds = await makeProjects(k)
  const server = await spawnSyncServer(serverArgs)
  const pid = server.child.pid!
  await sleep(1000)
  const idleRss = rssMb(pid)

  const admittedLatencies: number[] = []
  const offlineLatencies: number[] = []
  let savedMessages = 0
  let peakRss = rssMb(pid)
  let peakHeap = 0
  let peakEstimate = 0
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid))
    void serverMetrics(server).then(
      (m) => {
        peakHeap = Math.max(peakHeap, m.get('nodejs_heap_size_used_bytes') ?? 0)
        peakEstimate = Math.max(peakEstimate, m.get('reelgraph_sync_document_bytes_estimated') ?? 0)
      },
      () => {},
    )
  }, 1000)
  /** Edits made from this time on are measured (set once the storm has settled). */
  let measureFrom = Number.POSITIVE_INFINITY
  const editors = openEditors(server, projectIds, (_editor, settled) => {
    if (performance.now() >= measureFrom) savedMessages += 1
    for (const { ms, at, admitted } of settled) {
      if (at >= measureFrom) (admitted ? admittedLatencies : offlineLatencies).push(ms)
    }
  })
  let edits = 0
  /** The edit loops stop at this time (set once the storm has settled). */
  let stopAt = Number.POSITIVE_INFINITY
  /** Every editor moves a node once a second from `from` until `stopAt`, admitted or not. */
  const editLoops = (from: number) =>
    editors.map(async (editor, i) => {
      const ids = [...getNodesMap(editor.doc).keys()]
      const offset = (i / editors.length) * EDIT_INTERVAL_MS
      for (let n = 0; ; n++) {
        const due = from + offset + n * EDIT_INTERVAL_MS
        if (due >= stopAt) return
        const wait = due - performance.now()
        if (wait > 0) await sleep(wait)
        if (performance.now() >= stopAt) return
        const id = ids[(n * 7 + i) % ids.length]!
        moveNodes(editor.doc, new Map([[id, { x: n * 10 + i, y: n * 5 }]]))
        editor.pending.push({
          clock: Y.getState(editor.doc.store, editor.doc.clientID),
          at: performance.now(),
          admitted: editor.synced && editor.provider.isAuthenticated,
        })
        if (performance.now() >= measureFrom) edits += 1
      }
    })
  // With --editing-storm everyone edits from the moment the project is open, admitted or
  // not (on the device copy while refused), as people do after a deploy.
  const stormLoops = editingStorm ? editLoops(performance.now()) : []
  // The storm of connections settles: everyone is in, or those out have been refused for
  // memory and no one got in for ADMISSION_SETTLE_MS (the rest wait for the budget).
  const connectStarted = performance.now()
  let admitted = 0
  let lastAdmission = performance.now()
  await waitFor(
    async () => {
      const now = editors.filter((e) => e.synced).length
      if (now !== admitted) {
        admitted = now
        lastAdmission = performance.now()
      }
      if (now === k) return true
      if (performance.now() - lastAdmission < ADMISSION_SETTLE_MS) return false
      const m = await serverMetrics(server).catch(() => new Map<string, number>())
      return (m.get('reelgraph_sync_refused_connections_total{reason="memory"}') ?? 0) > 0
    },
    `${k} editors admitted or refused for memory`,
    CONNECT_TIMEOUT_MS,
  )
  const admittedAfterMs = round(lastAdmission - connectStarted, 0)
  await sleep(2000)
  const admittedAtStart = editors.filter((e) => e.synced).length
  const loadBefore = loadAverage()

  const cpuBefore = processCpuSeconds(pid)
  // This process's own lag: its edits and `saved` messages wait for it as for the server.
  const clientLag = monitorEventLoopDelay({ resolution: 10 })
  clientLag.enable()
  const started = performance.now()
  measureFrom = started
  stopAt = started + RUN_MS
  await Promise.all([...stormLoops, ...(editingStorm ? [] : editLoops(started))])
  const runSeconds = (performance.now() - started) / 1000
  clientLag.disable()
  const storesPerSecond = savedMessages / runSeconds
  const serverCpuPercent = round(((processCpuSeconds(pid) - cpuBefore) / runSeconds) * 100, 0)
  const loadAfter = loadAverage()
  await sleep(SETTLE_MS)
  const admittedUnsaved = editors
    .filter((e) => e.synced)
    .reduce((sum, e) => sum + e.pending.filter((p) => p.admitted).length, 0)

  // The load stops: editors with nothing left to save close; the refused come in and save.
  const drainStarted = performance.now()
  const open = new Set(editors)
  let allSavedAfterMs: number | null = null
  while (performance.now() - drainStarted < DRAIN_MS) {
    for (const e of open) {
      if (e.synced && e.pending.length === 0) {
        closeEditor(e)
        open.delete(e)
      }
    }
    if (open.size === 0) {
      allSavedAfterMs = round(performance.now() - drainStarted, 0)
      break
    }
    await sleep(250)
  }
  clearInterval(sampler)
  const metrics = await serverMetrics(server).catch(() => new Map<string, number>())
  const notSavedAtEnd = editors.reduce((sum, e) => sum + e.pending.length, 0)
  /** What the editors still holding unsaved edits were doing when the drain ended. */
  const unsavedEditors: Record<string, number> = {}
  for (const e of editors) {
    if (e.pending.length === 0) continue
    const state = [
      `socket ${e.socket.status}`,
      e.provider.isAuthenticated ? 'authenticated' : 'not authenticated',
      e.synced ? 'synced once' : 'never synced',
      `refused ${Math.min(e.busy, 5)}${e.busy >= 5 ? '+' : ''} times`,
    ].join(', ')
    unsavedEditors[state] = (unsavedEditors[state] ?? 0) + 1
  }

  const result = {
    editors: k,
    editingStorm,
    admittedAtStart,
    refusedAsBusyAtStart: k - admittedAtStart,
    storm: { lastAdmissionAfterMs: admittedAfterMs },
    edits,
    storesPerSecond: round(storesPerSecond, 1),
    editToSavedMsAdmitted: {
      edits: admittedLatencies.length,
      p50: round(quantile(admittedLatencies, 0.5)),
      p99: round(quantile(admittedLatencies, 0.99)),
      max: round(Math.max(...admittedLatencies)),
    },
    editToSavedMsFromDeviceCopies: {
      edits: offlineLatencies.length,
      p50: round(quantile(offlineLatencies, 0.5)),
      p99: round(quantile(offlineLatencies, 0.99)),
    },
    admittedEditsNotSavedAfter12s: admittedUnsaved,
    /** The benchmark's own event loop delay during the run (its 2,000 providers share the box). */
    clientEventLoopDelayMs: {
      p50: round(clientLag.percentile(50) / 1e6),
      p99: round(clientLag.percentile(99) / 1e6),
      max: round(clientLag.max / 1e6),
    },
    afterTheLoadStops: { allSavedAfterMs, editsNotSaved: notSavedAtEnd, unsavedEditors },
    busyRefusals: {
      memory: metrics.get('reelgraph_sync_refused_connections_total{reason="memory"}'),
      heap: metrics.get('reelgraph_sync_refused_connections_total{reason="heap"}'),
      loadQueue: metrics.get('reelgraph_sync_refused_connections_total{reason="load-queue"}'),
    },
    serverCpuPercent,
    serverRssMb: { idle: idleRss, peak: peakRss },
    serverHeapPeakMb: mb(peakHeap),
    budgetMb: {
      estimatePeak: mb(peakEstimate),
      budget: mb(metrics.get('reelgraph_sync_memory_budget_bytes')),
    },
    serverUp: server.child.exitCode === null && server.child.signalCode === null,
    loadavg: { before: loadBefore, after: loadAfter },
  }
  for (const e of open) closeEditor(e)
  await server.stop()
  return result
}

const results = []
if (values.memory) {
  results.push(await measureMemory(Number(values.memory)))
  console.log(JSON.stringify(results.at(-1)))
} else {
  for (const k of EDITORS) {
    results.push(await editorsRun(k))
    console.log(JSON.stringify(results.at(-1)))
  }
}
if (databaseUrl) await db.destroy()
await rm(dataDir, { recursive: true, force: true })
console.log(JSON.stringify({ benchmark: 'editors-per-box', results }, null, 2))
process.exit(0)
