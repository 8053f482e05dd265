/**
 * The append log's costs (issue 15 benchmarks): stored bytes per node move, and the load
 * time of a project whose log holds LOG_UPDATES updates, before and after compaction.
 *
 * One project from `make-graph.mjs 300 7`, its snapshot seeded as the sync server seeds
 * it; one editor's document moves one node LOG_UPDATES times, each move appended as its own
 * row (`appendProjectUpdate`, what a store of one edit writes). Reported: the update's bytes
 * per move (mean, max), the log's size on disk per row (Postgres: the growth of the table
 * with its index and TOAST, divided by the rows), a load (read snapshot + log in one
 * statement, then `applyStoredDocument` to a new Y.Doc; median of LOADS runs, read and apply
 * apart) before and after one compaction, a catch-up read (what the REST path asks before
 * each autosave, by a reader holding every row) with LOG_COMPACT_UPDATES rows in the log and
 * with LOG_UPDATES, the compaction's time, and the load average. On BENCH_DATABASE_URL's Postgres, else PGlite.
 *
 * Run: BENCH_DATABASE_URL=postgres://... npm run document-log -w bench
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  appendProjectUpdate,
  applyStoredDocument,
  compactProjectDocument,
  createDb,
  migrateToLatest,
  readProjectDocument,
  readProjectDocumentChanges,
} from '@reelgraph/db'
import { getNodesMap, moveNodes } from '@reelgraph/shared'
import { sql } from 'kysely'
import * as Y from 'yjs'
import { LOG_COMPACT_UPDATES } from '../../sync-server/src/config.ts'
import { seedState } from '../../sync-server/src/extensions/persistence.ts'
import { createProject, createUser } from '../../sync-server/src/testing/sync-test-kit.ts'
import { freshDataDir, loadAverage } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'

/** Updates in the log before compaction (the 10,000). */
const LOG_UPDATES = 10_000
/** Loads timed before and after compaction (median reported). */
const LOADS = 5
/** Catch-up reads timed with a LOG_COMPACT_UPDATES-row log (median reported). */
const CATCH_UP_READS_SHORT_LOG = 200

const databaseUrl = process.env.BENCH_DATABASE_URL
const dataDir = freshDataDir()
const db = createDb({ databaseUrl, pgliteDir: join(dataDir, 'pg') })
await migrateToLatest(db)
const loadBefore = loadAverage()

const graph = makeGraph(300, 7)
const { userId } = await createUser(db)
const projectId = await createProject(db, userId, graph)
const snapshot = seedState(graph)
await db
  .insertInto('project_documents')
  .values({ project_id: projectId, state: snapshot })
  .execute()

const editor = new Y.Doc()
Y.applyUpdate(editor, snapshot)
const ids = [...getNodesMap(editor).keys()]
const sizes: number[] = []
let last: Uint8Array = new Uint8Array()
editor.on('update', (update: Uint8Array) => {
  last = update
})
const tableBytes = async () => {
  if (!databaseUrl) return Number.NaN
  const { rows } = await sql<{
    bytes: string
  }>`select pg_total_relation_size('project_document_updates') as bytes`.execute(db)
  return Number(rows[0]?.bytes)
}
/**
 * Median ms of `runs` catch-up reads (`readProjectDocumentChanges`, what the REST path asks
 * before each autosave) by a reader that holds the snapshot and every row of the log.
 */
async function timeCatchUpReads(runs = LOADS) {
  const stored = (await readProjectDocument({ db, projectId }))!
  const held = { snapshotAt: stored.snapshotAt ?? stored.savedAt, knownIds: new Set(stored.ids) }
  const reads: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await readProjectDocumentChanges({ db, projectId, ...held })
    reads.push(performance.now() - started)
  }
  return round(quantile(reads, 0.5))
}

const bytesBefore = await tableBytes()
let appendMs = 0
/** Appends the moves `from` to `to` (exclusive), one row each. */
async function appendMoves(from: number, to: number) {
  const started = performance.now()
  for (let i = from; i < to; i++) {
    moveNodes(editor, new Map([[ids[i % ids.length]!, { x: i, y: i % 500 }]]))
    sizes.push(last.byteLength)
    await appendProjectUpdate({ db, projectId, update: last })
  }
  appendMs += performance.now() - started
}
await appendMoves(0, LOG_COMPACT_UPDATES)
// The longest log a compacted project keeps (the sync server compacts at this many rows).
const catchUpReadAtCompactionMs = await timeCatchUpReads(CATCH_UP_READS_SHORT_LOG)
await appendMoves(LOG_COMPACT_UPDATES, LOG_UPDATES)

const diskBytesPerRow = databaseUrl
  ? round(((await tableBytes()) - bytesBefore) / LOG_UPDATES, 0)
  : null

/** Median ms of LOADS loads: the read (one statement), the apply, and both. */
async function timeLoads() {
  const reads: number[] = []
  const applies: number[] = []
  for (let i = 0; i < LOADS; i++) {
    const started = performance.now()
    const stored = await readProjectDocument({ db, projectId })
    const read = performance.now()
    const doc = new Y.Doc()
    applyStoredDocument(doc, stored!)
    applies.push(performance.now() - read)
    reads.push(read - started)
    doc.destroy()
  }
  const read = round(quantile(reads, 0.5))
  const apply = round(quantile(applies, 0.5))
  return { read, apply, total: round(read + apply) }
}

const loadWithLogMs = await timeLoads()
const catchUpReadWithLogMs = await timeCatchUpReads()
const compactStarted = performance.now()
const compaction = await compactProjectDocument({ db, projectId })
const compactMs = round(performance.now() - compactStarted)
const loadAfterCompactionMs = await timeLoads()

console.log(
  JSON.stringify(
    {
      benchmark: 'document-log',
      database: databaseUrl ? 'postgres' : 'pglite',
      snapshotBytes: snapshot.byteLength,
      updateBytesPerNodeMove: {
        mean: round(sizes.reduce((a, b) => a + b, 0) / sizes.length, 1),
        max: Math.max(...sizes),
      },
      diskBytesPerRow,
      appendsPerSecondOneAtATime: round(LOG_UPDATES / (appendMs / 1000), 0),
      logUpdates: LOG_UPDATES,
      loadMs: { withLog: loadWithLogMs, afterCompaction: loadAfterCompactionMs },
      catchUpReadHoldingEveryRowMs: {
        [LOG_COMPACT_UPDATES]: catchUpReadAtCompactionMs,
        [LOG_UPDATES]: catchUpReadWithLogMs,
      },
      compaction: { ms: compactMs, ...compaction },
      loadavg: { before: loadBefore, after: loadAverage() },
    },
    null,
    2,
  ),
)
await db.deleteFrom('projects').where('id', '=', projectId).execute()
await db.destroy()
await rm(dataDir, { recursive: true, force: true })
