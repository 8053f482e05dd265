/**
 * Update validation: what the sync server's check of each client update costs (issue 11:
 * "a benchmark gives the validation cost per update (p50, p99) for a single node move on a
 * 1,000-node document and for pasting 100 nodes").
 *
 * The document is the shared generator's graph (`make-graph.mjs 1000 1`) seeded as the sync
 * server seeds it. A client doc synced with it makes the edits; each edit's update goes
 * through `inspectUpdate` (its structs read against the live document, then the touched
 * nodes checked by shared's rules: decision 011), and is then applied to the live document
 * as Hocuspocus does. Beside it, for scale: applying the same update to a document alone,
 * which every server does anyway, and decision 003's check on a fresh copy of the document
 * (`checkOnCopy`, the tests' oracle; the sync server kept its copy instead of making one per
 * update, at the price of the document's memory twice).
 *
 * Run: npm run update-validation -w bench   (optional: NODES SEED)
 */
import { loadavg } from 'node:os'
import {
  addNode,
  createNodeId,
  type GraphNode,
  getNodesMap,
  moveNodes,
  removeNodes,
} from '@reelgraph/shared'
import * as Y from 'yjs'
import { seedState } from '../../sync-server/src/extensions/persistence.ts'
import { checkOnCopy } from '../../sync-server/src/testing/copy-validator.ts'
import { inspectUpdate } from '../../sync-server/src/validation/update-inspector.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'

const NODES = Number(process.argv[2] ?? 1000)
const SEED = Number(process.argv[3] ?? 1)
const WARMUP = 50
const MOVES = 2000
const PASTES = 200
const PASTE_SIZE = 100

/** The `k`-th node of paste `i`: a scene as the canvas writes it. */
function textNodeOf(i: number, k: number): GraphNode {
  return {
    id: createNodeId('scene'),
    type: 'scene',
    label: `Scene ${k + 1}`,
    position: { x: 2000 + k * 40, y: i * 10 },
    data: { narration: `Pasted narration ${i}.${k}`, visuals: 'Wide shot of the harbour at dawn' },
    connectionPoints: 'both',
  }
}

/** The update one transaction of `edit` on `doc` produces. */
function updateOf(doc: Y.Doc, edit: () => void): Uint8Array {
  let update: Uint8Array | null = null
  const capture = (u: Uint8Array) => {
    update = update ? Y.mergeUpdates([update, u]) : u
  }
  doc.on('update', capture)
  try {
    doc.transact(edit)
  } finally {
    doc.off('update', capture)
  }
  if (!update) throw new Error('the edit made no update')
  return update
}

function summary(values: number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  return {
    p50Ms: round(quantile(values, 0.5), 3),
    p99Ms: round(quantile(values, 0.99), 3),
    maxMs: round(Math.max(...values), 3),
  }
}

const state = seedState(makeGraph(NODES, SEED))
const live = new Y.Doc()
Y.applyUpdate(live, state)
const plain = new Y.Doc()
Y.applyUpdate(plain, state)
const client = new Y.Doc()
Y.applyUpdate(client, state)
const ids = [...getNodesMap(client).keys()]

/** Every COPY_EVERY-th update is also checked on a fresh copy (it takes milliseconds). */
const COPY_EVERY = 20

/**
 * Checks `update` as the sync server does, then applies it to the live document and, for
 * scale, to a document alone; every COPY_EVERY-th update also on a fresh copy.
 */
function measure(
  update: Uint8Array,
  what: string,
  n: number,
): { checkMs: number; applyMs: number; copyMs: number | null } {
  let copyMs: number | null = null
  if (n % COPY_EVERY === 0) {
    const copyStarted = performance.now()
    if (checkOnCopy(live, update)) throw new Error(`the copy refused a valid ${what}`)
    copyMs = performance.now() - copyStarted
  }
  const started = performance.now()
  const refusal = inspectUpdate(live, update)
  const checked = performance.now()
  if (refusal) throw new Error(`a valid ${what} was refused: ${refusal.detail}`)
  Y.applyUpdate(live, update)
  const applyStarted = performance.now()
  Y.applyUpdate(plain, update)
  return { checkMs: checked - started, applyMs: performance.now() - applyStarted, copyMs }
}

const moveCheck: number[] = []
const moveApply: number[] = []
const moveCopy: number[] = []
for (let i = 0; i < WARMUP + MOVES; i++) {
  const id = ids[i % ids.length]!
  const update = updateOf(client, () =>
    moveNodes(client, new Map([[id, { x: i % 997, y: (i * 7) % 991 }]])),
  )
  const { checkMs, applyMs, copyMs } = measure(update, 'move', i)
  if (i >= WARMUP) {
    moveCheck.push(checkMs)
    moveApply.push(applyMs)
    if (copyMs !== null) moveCopy.push(copyMs)
  }
}

const pasteCheck: number[] = []
const pasteApply: number[] = []
const pasteCopy: number[] = []
for (let i = 0; i < WARMUP / 10 + PASTES; i++) {
  const pasted = Array.from({ length: PASTE_SIZE }, (_, k) => textNodeOf(i, k))
  const update = updateOf(client, () => {
    for (const node of pasted) addNode(client, node)
  })
  const { checkMs, applyMs, copyMs } = measure(update, 'paste', i)
  if (i >= WARMUP / 10) {
    pasteCheck.push(checkMs)
    pasteApply.push(applyMs)
    if (copyMs !== null) pasteCopy.push(copyMs)
  }
  // Delete them again (validated too), so the document stays at NODES nodes.
  const removal = updateOf(client, () =>
    removeNodes(
      client,
      pasted.map((n) => n.id),
    ),
  )
  if (inspectUpdate(live, removal)) throw new Error('a valid delete was refused')
  Y.applyUpdate(live, removal)
  Y.applyUpdate(plain, removal)
}

const [one, five, fifteen] = loadavg().map((l) => round(l, 2))
console.log(
  JSON.stringify(
    {
      benchmark: 'update-validation',
      nodes: NODES,
      seed: SEED,
      stateBytes: state.byteLength,
      loadAverage: { '1m': one, '5m': five, '15m': fifteen },
      singleNodeMove: {
        runs: MOVES,
        validation: summary(moveCheck),
        applyAloneForScale: summary(moveApply),
        freshCopyCheckForScale: summary(moveCopy),
      },
      paste100Nodes: {
        runs: PASTES,
        validation: summary(pasteCheck),
        applyAloneForScale: summary(pasteApply),
        freshCopyCheckForScale: summary(pasteCopy),
      },
    },
    null,
    2,
  ),
)
