/**
 * Document: size and load time of a 1,000-node project document (issue 3 benchmarks;
 * target: load under 100 ms).
 *
 * The graph comes from the shared generator (`make-graph.mjs 1000 1`, realistic text sizes).
 * It is seeded into a Y.Doc as the sync server does, then measured:
 * - size: the stored state (`Y.encodeStateAsUpdate`) in bytes, beside the REST JSON;
 * - load: apply the stored update into a fresh Y.Doc and `docToGraph` it (what every load
 *   and every store does), median of RUNS after WARMUP;
 * - the same after an editing session (EDITS position writes by another client, as 20 Hz
 *   drags produce, and some text edits), since Yjs keeps a trace of overwritten values;
 * - load through the persistence extension from the database (PGlite in memory, or
 *   BENCH_DATABASE_URL's Postgres): database read + apply + `docToGraph`.
 * Run: npm run document -w bench   (optional: NODES SEED)
 */
import { gzipSync } from 'node:zlib'
import { createDb, insertProjectWithOwner, migrateToLatest } from '@reelgraph/db'
import { docToGraph, getNodesMap, moveNodes, updateNodeData } from '@reelgraph/shared'
import * as Y from 'yjs'
import { PersistenceExtension, seedState } from '../../sync-server/src/extensions/persistence.ts'
import { median } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'

const NODES = Number(process.argv[2] ?? 1000)
const SEED = Number(process.argv[3] ?? 1)
const WARMUP = 5
const RUNS = 30
/** 5 minutes of one 20 Hz drag, plus text edits. */
const EDITS = 6000

function timeLoads(state: Uint8Array): { medianMs: number; p90Ms: number; applyMedianMs: number } {
  const total: number[] = []
  const apply: number[] = []
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now()
    const doc = new Y.Doc()
    Y.applyUpdate(doc, state)
    const applied = performance.now()
    const graph = docToGraph(doc)
    const done = performance.now()
    if (graph.nodes.length !== NODES) throw new Error('the loaded graph lost nodes')
    doc.destroy()
    if (i >= WARMUP) {
      total.push(done - started)
      apply.push(applied - started)
    }
  }
  return {
    medianMs: round(median(total)),
    p90Ms: round(quantile(total, 0.9)),
    applyMedianMs: round(median(apply)),
  }
}

const graph = makeGraph(NODES, SEED)
const json = JSON.stringify(graph)
const state = seedState(graph)
const fresh = timeLoads(state)

// An editing session from another client: drags (one position write per 50 ms) and typing.
const edited = new Y.Doc()
Y.applyUpdate(edited, state)
const editor = new Y.Doc()
Y.applyUpdate(editor, state)
editor.on('update', (update: Uint8Array) => Y.applyUpdate(edited, update))
const ids = [...getNodesMap(editor).keys()]
for (let i = 0; i < EDITS; i++) {
  const id = ids[i % ids.length] ?? ''
  moveNodes(editor, new Map([[id, { x: i, y: i * 2 }]]))
  if (i % 20 === 0) updateNodeData(editor, id, { label: `edit ${i}` })
}
const editedState = Y.encodeStateAsUpdate(edited)
const afterEdits = timeLoads(editedState)

// Through the persistence extension, from the database.
const databaseUrl = process.env.BENCH_DATABASE_URL
const db = createDb({ databaseUrl, pgliteDir: 'memory://' })
await migrateToLatest(db)
const user = await db
  .insertInto('users')
  .values({
    name: 'Bench',
    email: `bench-document-${Date.now()}@example.com`,
    password_hash: 'x',
    stripe_customer_id: null,
    stripe_subscription_id: null,
  })
  .returning('id')
  .executeTakeFirstOrThrow()
const project = {
  id: await insertProjectWithOwner(db, {
    user_id: user.id,
    name: 'Bench',
    description: '',
    nodes: JSON.stringify(graph.nodes),
    connections: JSON.stringify(graph.connections),
  }),
}
await db
  .insertInto('project_documents')
  .values({ project_id: project.id, state: editedState })
  .execute()
const silent = { debug() {}, info() {}, warn() {}, error() {} }
const persistence = new PersistenceExtension({ db, logger: silent })
const fromDb: number[] = []
for (let i = 0; i < WARMUP + RUNS; i++) {
  const started = performance.now()
  const doc = new Y.Doc()
  await persistence.onLoadDocument({ document: doc, documentName: String(project.id) } as never)
  docToGraph(doc)
  if (i >= WARMUP) fromDb.push(performance.now() - started)
  doc.destroy()
}
await db.deleteFrom('users').where('id', '=', user.id).execute()
await db.destroy()

console.log(
  JSON.stringify(
    {
      benchmark: `document of ${NODES} nodes (make-graph.mjs ${NODES} ${SEED})`,
      connections: graph.connections.length,
      runs: RUNS,
      restJsonBytes: Buffer.byteLength(json),
      stateBytes: state.byteLength,
      stateGzipBytes: gzipSync(state).byteLength,
      loadMedianMs: fresh.medianMs,
      loadP90Ms: fresh.p90Ms,
      applyUpdateMedianMs: fresh.applyMedianMs,
      afterEdits: {
        edits: EDITS,
        stateBytes: editedState.byteLength,
        loadMedianMs: afterEdits.medianMs,
        loadP90Ms: afterEdits.p90Ms,
      },
      database: databaseUrl ? 'postgres' : 'pglite',
      loadFromDatabaseMedianMs: round(median(fromDb)),
      targetLoadMs: 100,
    },
    null,
    2,
  ),
)
