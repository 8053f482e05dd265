/**
 * Update validation: what the sync server's check of each client update costs (issue 11:
 * "a benchmark gives the validation cost per update (p50, p99) for a single node move on a
 * 1,000-node document and for pasting 100 nodes").
 *
 * The document is the shared generator's graph (`make-graph.mjs 1000 1`) seeded as the sync
 * server seeds it. A client doc synced with it makes the edits; each edit's update goes
 * through `DocumentValidator.check` (tried on the copy, then the touched nodes read by
 * shared's `validateDocChange`), and is then applied to the live document as Hocuspocus
 * does (the copy follows it). Beside it: applying the same update to the live document
 * alone, which every server does anyway, for scale.
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
import { DocumentValidator } from '../../sync-server/src/validation/document-validator.ts'
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
const validator = new DocumentValidator(live)
const ids = [...getNodesMap(client).keys()]

/**
 * Checks `update` as the sync server does, then applies it to the live document (the copy
 * follows) and, for scale, to a document without a validator.
 */
function measure(update: Uint8Array, what: string): { checkMs: number; applyMs: number } {
  const started = performance.now()
  const refusal = validator.check(update)
  const checked = performance.now()
  if (refusal) throw new Error(`a valid ${what} was refused: ${refusal.detail}`)
  Y.applyUpdate(live, update)
  const applyStarted = performance.now()
  Y.applyUpdate(plain, update)
  return { checkMs: checked - started, applyMs: performance.now() - applyStarted }
}

const moveCheck: number[] = []
const moveApply: number[] = []
for (let i = 0; i < WARMUP + MOVES; i++) {
  const id = ids[i % ids.length]!
  const update = updateOf(client, () =>
    moveNodes(client, new Map([[id, { x: i % 997, y: (i * 7) % 991 }]])),
  )
  const { checkMs, applyMs } = measure(update, 'move')
  if (i >= WARMUP) {
    moveCheck.push(checkMs)
    moveApply.push(applyMs)
  }
}

const pasteCheck: number[] = []
const pasteApply: number[] = []
for (let i = 0; i < WARMUP / 10 + PASTES; i++) {
  const pasted = Array.from({ length: PASTE_SIZE }, (_, k) => textNodeOf(i, k))
  const update = updateOf(client, () => {
    for (const node of pasted) addNode(client, node)
  })
  const { checkMs, applyMs } = measure(update, 'paste')
  if (i >= WARMUP / 10) {
    pasteCheck.push(checkMs)
    pasteApply.push(applyMs)
  }
  // Delete them again (validated too), so the document stays at NODES nodes.
  const removal = updateOf(client, () =>
    removeNodes(
      client,
      pasted.map((n) => n.id),
    ),
  )
  if (validator.check(removal)) throw new Error('a valid delete was refused')
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
      },
      paste100Nodes: {
        runs: PASTES,
        validation: summary(pasteCheck),
        applyAloneForScale: summary(pasteApply),
      },
    },
    null,
    2,
  ),
)
validator.destroy()
