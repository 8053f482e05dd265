import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  type Connection,
  connectionKey,
  type Graph,
  type GraphNode,
  graphSchema,
  NODE_TYPES,
} from './graph.ts'
import {
  addConnection,
  addNode,
  applyGraphToDoc,
  docToGraph,
  moveNodes,
  removeNodes,
  updateNodeData,
} from './graph-doc.ts'

const nodeIdArb = fc
  .tuple(fc.constantFrom(...NODE_TYPES), fc.integer({ min: 0, max: 99 }))
  .map(([type, n]) => `${type}-${1700000000000 + n}-a${n}`)

const dataValueArb = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
)

const nodeArb = (id: string): fc.Arbitrary<GraphNode> =>
  fc.record({
    id: fc.constant(id),
    type: fc.constantFrom(...NODE_TYPES),
    label: fc.string({ maxLength: 20 }),
    position: fc.record({
      x: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
      y: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    }),
    data: fc.dictionary(
      fc.constantFrom('topic', 'style', 'content', 'visuals', 'width', 'seed'),
      dataValueArb,
      {
        maxKeys: 4,
      },
    ),
    connectionPoints: fc.constantFrom('input', 'output', 'both'),
  })

/** A valid graph, normalised as docToGraph answers it: nodes by id, connections by key. */
const graphArb: fc.Arbitrary<Graph> = fc
  .uniqueArray(nodeIdArb, { maxLength: 12 })
  .chain((ids) =>
    fc.tuple(
      fc.tuple(...ids.map(nodeArb)),
      ids.length < 2
        ? fc.constant<Connection[]>([])
        : fc.array(
            fc
              .tuple(fc.constantFrom(...ids), fc.constantFrom(...ids))
              .filter(([a, b]) => a !== b)
              .map(([source, target]) => ({ source, target })),
            { maxLength: 15 },
          ),
    ),
  )
  .map(([nodes, connections]) => normalise({ nodes, connections }))

function normalise(graph: Graph): Graph {
  const byKey = new Map(graph.connections.map((c) => [connectionKey(c), c]))
  return {
    nodes: [...graph.nodes].sort((a, b) => (a.id < b.id ? -1 : 1)),
    connections: [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, c]) => c),
  }
}

function docOf(graph: Graph): Y.Doc {
  const doc = new Y.Doc()
  applyGraphToDoc(doc, graph)
  return doc
}

/** Sends every update each doc has that the other lacks. */
function exchange(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)))
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)))
}

describe('doc <-> REST JSON mapping (issue 3 item 4)', () => {
  it('round-trips any valid graph', () => {
    fc.assert(
      fc.property(graphArb, (graph) => {
        expect(docToGraph(docOf(graph))).toEqual(graph)
      }),
    )
  })

  it('the REST schema accepts what the doc answers', () => {
    fc.assert(
      fc.property(graphArb, (graph) => {
        expect(graphSchema.safeParse(docToGraph(docOf(graph))).success).toBe(true)
      }),
    )
  })

  it('applying a second graph leaves exactly the second graph', () => {
    fc.assert(
      fc.property(graphArb, graphArb, (first, second) => {
        const doc = docOf(first)
        applyGraphToDoc(doc, second)
        expect(docToGraph(doc)).toEqual(second)
      }),
    )
  })

  it('applying the same graph again writes nothing', () => {
    fc.assert(
      fc.property(graphArb, (graph) => {
        const doc = docOf(graph)
        let updates = 0
        doc.on('update', () => updates++)
        applyGraphToDoc(doc, graph)
        expect(updates).toBe(0)
      }),
    )
  })

  it('survives encoding: a doc loaded from its state answers the same graph', () => {
    fc.assert(
      fc.property(graphArb, (graph) => {
        const loaded = new Y.Doc()
        Y.applyUpdate(loaded, Y.encodeStateAsUpdate(docOf(graph)))
        expect(docToGraph(loaded)).toEqual(graph)
      }),
    )
  })
})

type Op =
  | { kind: 'add'; node: GraphNode }
  | { kind: 'move'; index: number; x: number; y: number }
  | { kind: 'edit'; index: number; key: string; value: string }
  | { kind: 'delete'; index: number }
  | { kind: 'connect'; a: number; b: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  nodeIdArb.chain(nodeArb).map((node) => ({ kind: 'add' as const, node })),
  fc.record({
    kind: fc.constant('move' as const),
    index: fc.nat(),
    x: fc.integer(),
    y: fc.integer(),
  }),
  fc.record({
    kind: fc.constant('edit' as const),
    index: fc.nat(),
    key: fc.constantFrom('topic', 'content', 'visuals'),
    value: fc.string({ maxLength: 10 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('connect' as const), a: fc.nat(), b: fc.nat() }),
)

function apply(doc: Y.Doc, op: Op): void {
  const ids = docToGraph(doc).nodes.map((n) => n.id)
  const pick = (i: number) => ids[i % Math.max(ids.length, 1)]
  switch (op.kind) {
    case 'add':
      addNode(doc, op.node)
      break
    case 'move': {
      const id = pick(op.index)
      if (id) moveNodes(doc, new Map([[id, { x: op.x, y: op.y }]]))
      break
    }
    case 'edit': {
      const id = pick(op.index)
      if (id) updateNodeData(doc, id, { [op.key]: op.value })
      break
    }
    case 'delete': {
      const id = pick(op.index)
      if (id) removeNodes(doc, [id])
      break
    }
    case 'connect': {
      const [source, target] = [pick(op.a), pick(op.b)]
      if (source && target) addConnection(doc, { source, target })
      break
    }
  }
}

describe('concurrent editing', () => {
  it('two docs edited concurrently converge to the same valid graph', () => {
    fc.assert(
      fc.property(
        graphArb,
        fc.array(opArb, { maxLength: 15 }),
        fc.array(opArb, { maxLength: 15 }),
        (start, opsA, opsB) => {
          const a = docOf(start)
          const b = new Y.Doc()
          Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
          for (const op of opsA) apply(a, op)
          for (const op of opsB) apply(b, op)
          exchange(a, b)
          const graph = docToGraph(a)
          expect(docToGraph(b)).toEqual(graph)
          expect(graphSchema.safeParse(graph).success).toBe(true)
        },
      ),
    )
  })

  it('ignores a duplicate connection and removes a deleted node’s connections', () => {
    const graph = normalise({
      nodes: [
        {
          id: 'scene-1-a',
          type: 'scene',
          label: 'A',
          position: { x: 0, y: 0 },
          data: {},
          connectionPoints: 'both',
        },
        {
          id: 'image-2-b',
          type: 'image',
          label: 'B',
          position: { x: 1, y: 0 },
          data: {},
          connectionPoints: 'both',
        },
      ],
      connections: [],
    })
    const doc = docOf(graph)
    expect(addConnection(doc, { source: 'scene-1-a', target: 'image-2-b' })).toBe(true)
    expect(addConnection(doc, { source: 'scene-1-a', target: 'image-2-b' })).toBe(false)
    expect(addConnection(doc, { source: 'scene-1-a', target: 'scene-1-a' })).toBe(false)
    expect(docToGraph(doc).connections).toHaveLength(1)
    removeNodes(doc, ['image-2-b'])
    expect(docToGraph(doc)).toEqual({ nodes: [graph.nodes[1]], connections: [] })
  })
})
