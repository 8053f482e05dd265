import {
  addConnection,
  addNode,
  createNodeId,
  cutFieldKey,
  type DocRefusal,
  editTimelineSettings,
  getConnectionsMap,
  getNodesMap,
  getTimelinesMap,
  type GraphNode,
  MAX_NODES,
  MAX_TEXT_FIELD_BYTES,
  moveNodes,
  NODE_TYPES,
  nodeToYMap,
  removeNodes,
  settingKey,
  UPDATE_REFUSAL_REASONS,
  updateNodeData,
} from '@reelgraph/shared'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { checkOnCopy } from '../testing/copy-validator.ts'
import { inspectUpdate } from './update-inspector.ts'

/**
 * The structural check (decision 011) against decision 003's check on an applied copy, its
 * oracle (issue 23 Tests): on random histories of valid and hostile edits by several
 * clients, delivered in order, out of order (structs then wait in the document's pending
 * store) or as a whole sync step 2, with concurrent writes to the same keys and trusted
 * server-side writes in between, both must take and refuse the same updates, for the same
 * reason when one rule is broken.
 */

let counter = 0
function node(type: GraphNode['type'] = 'scene', patch: Partial<GraphNode> = {}): GraphNode {
  counter += 1
  return {
    id: `${type}-${1700000000000 + counter}-n${counter.toString(36)}`,
    type,
    label: `Node ${counter}`,
    position: { x: counter, y: -counter },
    data: { narration: `text ${counter}`, sceneNumber: String(counter % 9) },
    connectionPoints: 'both',
    ...patch,
  }
}

/** An edit a client makes to its own copy, and how many rules it breaks (0 or 1). */
type Op = { hostile: 0 | 1; run: (doc: Y.Doc, pick: (n: number) => number) => void }

/** A node's data map in a client's copy (which may hold what a hostile edit left). */
const dataOf = (ynode: Y.Map<unknown>) => {
  const data = ynode.get('data')
  return data instanceof Y.Map ? (data as Y.Map<unknown>) : undefined
}
const nodeIds = (doc: Y.Doc) => [...getNodesMap(doc).keys()]
const mapOf = (doc: Y.Doc, id: string) => getNodesMap(doc).get(id) as Y.Map<unknown> | undefined

/** Runs `f` on a node picked from the client's copy (adds one first when there is none). */
function onNode(f: (doc: Y.Doc, id: string, ynode: Y.Map<unknown>) => void) {
  return (doc: Y.Doc, pick: (n: number) => number) => {
    let ids = nodeIds(doc)
    if (ids.length === 0) {
      addNode(doc, node())
      ids = nodeIds(doc)
    }
    const id = ids[pick(ids.length)]!
    const ynode = mapOf(doc, id)
    if (ynode instanceof Y.Map) f(doc, id, ynode)
  }
}

/** The Video node whose timeline the edits write. */
const VIDEO = 'video-1-a'

const text = fc.string({ maxLength: 12 }).map((s) => s.replaceAll('\u0000', ''))

const validOp: fc.Arbitrary<Op> = fc.oneof(
  fc
    .constantFrom(...NODE_TYPES)
    .map((type) => ({ hostile: 0 as const, run: (doc: Y.Doc) => addNode(doc, node(type)) })),
  fc.record({ x: fc.integer(), y: fc.integer() }).map(({ x, y }) => ({
    hostile: 0 as const,
    run: onNode((doc, id) => moveNodes(doc, new Map([[id, { x, y }]]))),
  })),
  fc
    .record({
      key: fc.constantFrom('narration', 'visuals', 'seed', 'k'),
      value: fc.oneof(text, fc.integer(), fc.boolean()),
    })
    .map(({ key, value }) => ({
      hostile: 0 as const,
      run: onNode((doc, id) => updateNodeData(doc, id, { [key]: value })),
    })),
  fc.constantFrom('narration', 'visuals', 'seed').map((key) => ({
    hostile: 0 as const,
    run: onNode((_doc, _id, ynode) => dataOf(ynode)?.delete(key)),
  })),
  text.map((label) => ({
    hostile: 0 as const,
    run: onNode((_d, _id, n) => n.set('label', label)),
  })),
  fc.constantFrom(...NODE_TYPES).map((type) => ({
    hostile: 0 as const,
    run: onNode((_d, _id, n) => n.set('type', type)),
  })),
  fc.constant({ hostile: 0 as const, run: onNode((_d, _id, n) => n.delete('position')) }),
  fc.constant({ hostile: 0 as const, run: onNode((doc, id) => removeNodes(doc, [id])) }),
  fc.constant({
    hostile: 0 as const,
    run: onNode((doc, id) => getNodesMap(doc).set(id, nodeToYMap({ ...node(), id }))),
  }),
  fc.nat().map((k) => ({
    hostile: 0 as const,
    run: onNode((doc, id) => {
      const ids = nodeIds(doc)
      const other = ids[k % ids.length]!
      if (other !== id) addConnection(doc, { source: id, target: other })
    }),
  })),
  fc.nat().map((k) => ({
    hostile: 0 as const,
    run: (doc: Y.Doc) => {
      const keys = [...getConnectionsMap(doc).keys()]
      if (keys.length > 0) getConnectionsMap(doc).delete(keys[k % keys.length]!)
    },
  })),
  // A rule broken and mended within one transaction: nothing of it is left to refuse.
  fc.constant({
    hostile: 0 as const,
    run: onNode((doc, _id, n) =>
      doc.transact(() => {
        n.set('position', { x: 'NaN', y: null })
        n.set('position', { x: 1, y: 2 })
      }),
    ),
  }),
  fc.constant({
    hostile: 0 as const,
    run: onNode((doc, id, n) =>
      doc.transact(() => {
        updateNodeData(doc, id, { narration: 'poison\u0000' })
        dataOf(n)?.delete('narration')
        n.set('label', 'L'.repeat(201))
        n.delete('label')
      }),
    ),
  }),
  fc.constant({
    hostile: 0 as const,
    run: (doc: Y.Doc) =>
      doc.transact(() => {
        const bad = node('scene', { label: 'Te\u0000xt' })
        addNode(doc, bad)
        removeNodes(doc, [bad.id])
      }),
  }),
  // The Video nodes' timelines (issue 24): registers of cuts and settings, and their removal.
  text.map((titleText) => ({
    hostile: 0 as const,
    run: (doc: Y.Doc) => editTimelineSettings(doc, VIDEO, { titleText }),
  })),
  fc.record({ cut: fc.nat(3), holdMs: fc.nat(600_000) }).map(({ cut, holdMs }) => ({
    hostile: 0 as const,
    run: (doc: Y.Doc) =>
      getTimelinesMap(doc).set(cutFieldKey(VIDEO, `split-${cut}`, 'holdMs'), holdMs),
  })),
  fc.nat().map((k) => ({
    hostile: 0 as const,
    run: (doc: Y.Doc) => {
      const keys = [...getTimelinesMap(doc).keys()]
      if (keys.length > 0) getTimelinesMap(doc).delete(keys[k % keys.length]!)
    },
  })),
)

const hostileOp: fc.Arbitrary<Op> = fc
  .constantFrom<(doc: Y.Doc, pick: (n: number) => number) => void>(
    onNode((_d, _id, n) => n.set('type', 'evil<script>')),
    onNode((_d, _id, n) => n.set('label', 'Te\u0000xt')),
    onNode((_d, _id, n) => n.set('label', 'L'.repeat(201))),
    onNode((_d, _id, n) => n.set('position', { x: 'NaN', y: null })),
    onNode((_d, _id, n) => n.set('position', { x: 1, y: 2, z: 3 })),
    onNode((_d, _id, n) => n.set('evil', 1)),
    onNode((_d, _id, n) => n.set('connectionPoints', 'sideways')),
    onNode((doc, id) => updateNodeData(doc, id, { narration: 'poison\u0000' })),
    onNode((doc, id) =>
      updateNodeData(doc, id, { narration: 'x'.repeat(MAX_TEXT_FIELD_BYTES + 1) }),
    ),
    onNode((_d, _id, n) => dataOf(n)?.set('nested', new Y.Map())),
    onNode((_d, _id, n) => dataOf(n)?.set('', 'empty key')),
    onNode((_d, _id, n) => n.set('data', 'not a map')),
    onNode((_d, _id, n) => n.set('data', new Y.Array())),
    onNode((_d, _id, n) => {
      const data = new Y.Map<unknown>()
      for (let i = 0; i <= 50; i++) data.set(`k${i}`, i)
      n.set('data', data)
    }),
    onNode((doc, id) => getNodesMap(doc).set(id, 42 as never)),
    onNode((doc, id) => getNodesMap(doc).set(id, new Y.Array() as never)),
    (doc) => getNodesMap(doc).set(createNodeId('scene'), 42 as never),
    (doc) => getNodesMap(doc).set('Not An Id', nodeToYMap(node())),
    (doc) => doc.getMap('editor').set('deletedBy', doc.clientID),
    (doc) => doc.getArray('junk').push(['anything']),
    (doc) => doc.getMap('connections').set('a->b', { source: 1, evil: true }),
    (doc) => doc.getMap('connections').set('x->y', new Y.Map()),
    onNode((doc, id) => doc.getMap('connections').set(`${id}->${id}`, { source: id, target: id })),
    (doc) => getTimelinesMap(doc).set(cutFieldKey(VIDEO, 'split-0', 'holdMs'), -1),
    (doc) => getTimelinesMap(doc).set(`${VIDEO}/cut/split-0/evil`, 1),
    (doc) => getTimelinesMap(doc).set(settingKey(VIDEO, 'music'), 'http://example.com/a.mp3'),
    (doc) => getTimelinesMap(doc).set(settingKey(VIDEO, 'titleText'), new Y.Map() as never),
    (doc) => doc.getMap<unknown>('timelines').set('not a key', 'x'),
  )
  .map((run) => ({ hostile: 1 as const, run }))

const opArb = fc.oneof({ weight: 6, arbitrary: validOp }, { weight: 1, arbitrary: hostileOp })

type Step =
  | { kind: 'edit'; client: number; op: Op; seed: number }
  | { kind: 'deliver'; client: number; how: 'next' | 'any' | 'all'; seed: number }
  | { kind: 'pull'; client: number }
  | { kind: 'server'; op: Op; seed: number }
  | { kind: 'list'; root: 'nodes' | 'connections' }

const CLIENTS = 3
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      client: fc.nat(CLIENTS - 1),
      op: opArb,
      seed: fc.nat(),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('deliver' as const),
      client: fc.nat(CLIENTS - 1),
      how: fc.constantFrom('next' as const, 'any' as const, 'all' as const),
      seed: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('pull' as const), client: fc.nat(CLIENTS - 1) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('server' as const), op: validOp, seed: fc.nat() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('list' as const),
      root: fc.constantFrom('nodes' as const, 'connections' as const),
    }),
  },
)

interface Client {
  doc: Y.Doc
  outbox: { update: Uint8Array; hostile: number }[]
}

/** The update of one transaction of `edit` on `doc` (null when it changed nothing). */
function updateOf(doc: Y.Doc, edit: () => void): Uint8Array | null {
  const updates: Uint8Array[] = []
  const capture = (u: Uint8Array) => updates.push(u)
  doc.on('update', capture)
  try {
    doc.transact(edit)
  } finally {
    doc.off('update', capture)
  }
  return updates.length === 0 ? null : Y.mergeUpdates(updates)
}

function pulled(live: Y.Doc): Client {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(live))
  return { doc, outbox: [] }
}

const reasonOf = (r: DocRefusal | null) => r?.reason ?? null

describe('the structural check of a sync update (issue 23, decision 011)', () => {
  it('takes and refuses what the check on an applied copy takes and refuses, for the same reason', () => {
    let compared = 0
    let refused = 0
    let pendingSeen = 0
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 10, maxLength: 60, size: 'max' }),
        fc.nat(6),
        (steps, seeded) => {
          const live = new Y.Doc()
          const seed = new Y.Doc()
          seed.transact(() => {
            for (let i = 0; i < seeded; i++) addNode(seed, node(NODE_TYPES[i % NODE_TYPES.length]))
          })
          Y.applyUpdate(live, Y.encodeStateAsUpdate(seed))
          const clients = Array.from({ length: CLIENTS }, () => pulled(live))
          // Hostile content that may still wait in the live document's pending store.
          let hostilePending = false

          const deliver = (update: Uint8Array, hostile: number): DocRefusal | null => {
            const structural = inspectUpdate(live, update)
            const oracle = checkOnCopy(live, update)
            compared += 1
            expect(
              structural === null,
              `structural ${structural?.detail}, copy ${oracle?.detail}`,
            ).toBe(oracle === null)
            if (hostile <= 1 && !hostilePending) expect(reasonOf(structural)).toBe(reasonOf(oracle))
            if (oracle) {
              refused += 1
              return oracle
            }
            Y.applyUpdate(live, update)
            if (live.store.pendingStructs) pendingSeen += 1
            if (hostile > 0 && live.store.pendingStructs) hostilePending = true
            if (!live.store.pendingStructs) hostilePending = false
            return null
          }

          for (const step of steps) {
            if (step.kind === 'edit') {
              const client = clients[step.client]!
              let n = step.seed
              const update = updateOf(client.doc, () => step.op.run(client.doc, (k) => n++ % k))
              if (update) client.outbox.push({ update, hostile: step.op.hostile })
            } else if (step.kind === 'deliver') {
              const client = clients[step.client]!
              if (client.outbox.length === 0) continue
              let update: Uint8Array
              let hostile: number
              if (step.how === 'all') {
                update = Y.encodeStateAsUpdate(client.doc, Y.encodeStateVector(live))
                hostile = client.outbox.reduce((sum, u) => sum + u.hostile, 0)
                client.outbox = []
              } else {
                const i = step.how === 'next' ? 0 : step.seed % client.outbox.length
                ;[{ update, hostile }] = client.outbox.splice(i, 1) as [
                  { update: Uint8Array; hostile: number },
                ]
              }
              // A refused client's copy holds what the server never takes: it loads again.
              if (deliver(update, hostile)) clients[step.client] = pulled(live)
            } else if (step.kind === 'pull') {
              const client = clients[step.client]!
              Y.applyUpdate(
                client.doc,
                Y.encodeStateAsUpdate(live, Y.encodeStateVector(client.doc)),
              )
            } else if (step.kind === 'server') {
              // A trusted write on the live document (the api's gateway, another process).
              let n = step.seed
              live.transact(() => step.op.run(live, (k) => n++ % k))
            } else {
              // A client that typed a top-level map as an array before it synced.
              const doc = new Y.Doc()
              doc.getArray(step.root)
              Y.applyUpdate(doc, Y.encodeStateAsUpdate(live))
              const update = updateOf(doc, () => doc.getArray(step.root).push([{ id: 'x' }]))
              if (update)
                expect(deliver(update, 1)?.reason).toBe(UPDATE_REFUSAL_REASONS.documentShape)
            }
          }
        },
      ),
      { numRuns: 300 },
    )
    // The histories reached what they are for: refusals, and structs waiting to integrate.
    expect(refused).toBeGreaterThan(50)
    expect(pendingSeen).toBeGreaterThan(10)
    expect(compared).toBeGreaterThan(1000)
  })

  it('counts nodes as the document holds them after the update, at the 2,000-node limit', () => {
    const live = new Y.Doc()
    const writer = new Y.Doc()
    writer.transact(() => {
      for (let i = 0; i < MAX_NODES - 1; i++) addNode(writer, node())
    })
    Y.applyUpdate(live, Y.encodeStateAsUpdate(writer))
    const a = pulled(live).doc
    const b = pulled(live).doc
    const addA = updateOf(a, () => addNode(a, node()))!
    const addB = updateOf(b, () => addNode(b, node()))!
    // One more fits; the second, concurrent one would make 2,001.
    expect(inspectUpdate(live, addA)).toBeNull()
    expect(checkOnCopy(live, addA)).toBeNull()
    Y.applyUpdate(live, addA)
    expect(inspectUpdate(live, addB)?.reason).toBe(UPDATE_REFUSAL_REASONS.tooManyNodes)
    expect(checkOnCopy(live, addB)?.reason).toBe(UPDATE_REFUSAL_REASONS.tooManyNodes)
    // Replacing a node (delete one, add one) keeps the count and is taken.
    const c = pulled(live).doc
    const id = nodeIds(c)[0]!
    const swap = updateOf(c, () => {
      removeNodes(c, [id])
      addNode(c, node())
    })!
    expect(inspectUpdate(live, swap)).toBeNull()
    expect(checkOnCopy(live, swap)).toBeNull()
  })

  it('refuses what Yjs itself cannot apply, and garbage', () => {
    const live = new Y.Doc()
    addNode(live, node())
    expect(inspectUpdate(live, new Uint8Array([1, 2, 3]))?.reason).toBe(
      UPDATE_REFUSAL_REASONS.documentShape,
    )
  })
})
