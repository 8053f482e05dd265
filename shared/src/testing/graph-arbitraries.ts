import fc from 'fast-check'
import { type Connection, type Graph, type GraphNode, NODE_TYPES } from '../graph.ts'

/**
 * fast-check arbitraries of graphs as a caller may hand the document writers (unsorted,
 * repeated ids and connections, loose ends), for the property tests of `graph-doc.ts` and
 * `graph-index.ts`.
 *
 * `narrow` draws ids, labels, positions and data values from a few each, so that a history
 * of graphs sets, overwrites, deletes and re-adds the same keys (what the graph index must
 * follow); otherwise labels, positions and values are any of their kind.
 */
export function graphArbitraries(options: { narrow?: boolean } = {}) {
  const narrow = options.narrow ?? false
  const id = fc
    .tuple(fc.constantFrom(...NODE_TYPES), fc.integer({ min: 0, max: narrow ? 12 : 30 }))
    .map(([type, n]) => `${type}-${1700000000000 + n}-a${n}`)
  const coordinate = narrow
    ? fc.integer({ min: -3, max: 3 })
    : fc.double({ noNaN: true, noDefaultInfinity: true })
  const node: fc.Arbitrary<GraphNode> = fc.record({
    id,
    type: fc.constantFrom(...NODE_TYPES),
    label: narrow ? fc.constantFrom('', 'A', 'Scene', 'B') : fc.string({ maxLength: 12 }),
    position: fc.record({ x: coordinate, y: coordinate }),
    data: fc.dictionary(
      fc.constantFrom('topic', 'content', 'width', 'seed'),
      narrow
        ? fc.oneof(fc.constantFrom('a', 'b', ''), fc.integer({ min: 0, max: 3 }), fc.boolean())
        : fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()),
      { maxKeys: 4 },
    ),
    connectionPoints: fc.constantFrom('input', 'output', 'both'),
  })
  const graph: fc.Arbitrary<Graph> = fc.record({
    nodes: fc.array(node, { maxLength: narrow ? 8 : 10 }),
    connections: fc.array(fc.record({ source: id, target: id }) as fc.Arbitrary<Connection>, {
      maxLength: narrow ? 8 : 12,
    }),
  })
  return { id, node, graph }
}
