/**
 * What a REST autosave's first save on a project costs to read the project (issue 23,
 * decision 021): the stored snapshot of `make-graph.mjs NODES SEED` (default 300 7), as the
 * sync server seeds it, read the old way (decoded into a Y.Doc) and through its graph index
 * (`decodeGraphIndex` of the persisted text's lines, each made a string from UTF-8 as `pg`
 * makes a result row's; and, for comparison, of the whole text made one string); then the
 * first write of the whole graph with one node moved (`applyGraphToDoc` on the doc,
 * `writeGraphToIndex` on the index). Reported:
 * the mean and p99 of each in ms over RUNS reads, and the heap each kept copy holds after a
 * collection (KEPT copies alive at once, as a process serving that many projects), with the
 * load average.
 *
 * Run: npm run first-read -w bench   (optional: NODES SEED)
 */
import { loadavg } from 'node:os'
import { seedSnapshot } from '@reelgraph/db'
import {
  applyGraphToDoc,
  decodeGraphIndex,
  type Graph,
  newClientId,
  writeGraphToIndex,
} from '@reelgraph/shared'
import * as Y from 'yjs'
import { makeGraph, meanAndP99, round } from './graph-fixture.ts'

const NODES = Number(process.argv[2] ?? 300)
const SEED = Number(process.argv[3] ?? 7)
const WARMUP = 50
const RUNS = 300
const KEPT = 200

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('Run with node --expose-gc (npm run first-read -w bench does).')
const graph = makeGraph(NODES, SEED)
const snapshot = seedSnapshot(graph)
const moved: Graph = {
  nodes: graph.nodes.map((n, i) => (i === 0 ? { ...n, position: { x: -1, y: -1 } } : n)),
  connections: graph.connections,
}

function decoded(): Y.Doc {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, snapshot.state)
  return doc
}

/** The persisted index as Postgres sends it: UTF-8 bytes, one result row per line. */
const lineBytes = snapshot.graph_index.split('\n').map((line) => Buffer.from(line))
/** The same as one text (as it was read before it had lines). */
const indexBytes = Buffer.from(snapshot.graph_index)

/** The index read as `readProjectGraphIndex` reads it: a string per line (as `pg` makes them). */
function indexed() {
  const index = decodeGraphIndex(lineBytes.map((line) => line.toString('utf8')))
  if (!index) throw new Error('the seed wrote no graph index')
  return index
}

/** The index read as one string of the whole text. */
function indexedAsOneString() {
  return decodeGraphIndex(indexBytes.toString('utf8'))
}

/** Mean and p99 of `step` in ms over RUNS calls (after WARMUP), each after an untimed `prepare`. */
function measure<C>(step: (context: C) => unknown, prepare: () => C) {
  const times: number[] = []
  for (let n = 0; n < WARMUP + RUNS; n++) {
    const context = prepare()
    const started = performance.now()
    step(context)
    if (n >= WARMUP) times.push(performance.now() - started)
  }
  return meanAndP99(times)
}

/** Heap per copy in KB with KEPT copies made by `make` alive, after a collection. */
function keptKb(make: () => unknown): number {
  gc!()
  const before = process.memoryUsage().heapUsed
  const kept = Array.from({ length: KEPT }, make)
  gc!()
  const after = process.memoryUsage().heapUsed
  if (kept.length !== KEPT) throw new Error('unreachable')
  return round((after - before) / KEPT / 1024, 0)
}

const before = loadavg()
const result = {
  benchmark: 'first-read',
  nodes: NODES,
  snapshotBytes: snapshot.state.byteLength,
  graphIndexChars: snapshot.graph_index.length,
  readDecoded: measure(decoded, () => null),
  graphIndexLines: lineBytes.length,
  readIndex: measure(indexed, () => null),
  readIndexAsOneString: measure(indexedAsOneString, () => null),
  firstWriteDecoded: measure((doc) => applyGraphToDoc(doc, moved), decoded),
  firstWriteIndex: measure(
    (index) =>
      writeGraphToIndex({ index, graph: moved, client: newClientId(index.clients), clock: 0 }),
    indexed,
  ),
  keptHeapKbDecoded: keptKb(decoded),
  keptHeapKbIndex: keptKb(indexed),
  loadavg: { before: before.map((l) => round(l)), after: loadavg().map((l) => round(l)) },
}
console.log(JSON.stringify(result, null, 2))
