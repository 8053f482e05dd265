import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Graph, GraphNode } from './graph.ts'
import { graphAsApplied } from './graph-doc.ts'
import { encodeGraphJson } from './graph-json.ts'

const decoder = new TextDecoder()
const text = (graph: Graph) => decoder.decode(encodeGraphJson(graph))

const nodeArb: fc.Arbitrary<GraphNode> = fc.record({
  id: fc.string({ minLength: 1, maxLength: 6 }),
  type: fc.constant('scene' as const),
  label: fc.string({ maxLength: 12, unit: 'binary' }),
  position: fc.record({ x: fc.double({ noNaN: true }), y: fc.integer() }),
  data: fc.dictionary(
    fc.string({ maxLength: 6 }),
    fc.oneof(fc.string({ maxLength: 8, unit: 'binary' }), fc.double(), fc.boolean()),
    { maxKeys: 4 },
  ),
  connectionPoints: fc.constantFrom('input' as const, 'output' as const, 'both' as const),
})
const graphArb: fc.Arbitrary<Graph> = fc.record({
  nodes: fc.array(nodeArb, { maxLength: 8 }),
  connections: fc.array(
    fc.record({ source: fc.string({ maxLength: 4 }), target: fc.string({ maxLength: 4 }) }),
    { maxLength: 6 },
  ),
})

describe('encodeGraphJson (issue 23)', () => {
  it('is the UTF-8 of JSON.stringify of the graph, frozen or not', () => {
    fc.assert(
      fc.property(graphArb, (graph) => {
        const expected = JSON.stringify({ nodes: graph.nodes, connections: graph.connections })
        expect(text(graph)).toBe(expected)
        // Frozen (graphAsApplied's answer): the same text, again from what it kept.
        const applied = graphAsApplied(graph)
        const json = JSON.stringify(applied)
        expect(text(applied)).toBe(json)
        expect(text(applied)).toBe(json)
      }),
      { numRuns: 300 },
    )
  })

  it('encodes again what can still change', () => {
    const node: GraphNode = {
      id: 'scene-1',
      type: 'scene',
      label: 'Scene',
      position: { x: 1, y: 2 },
      data: { narration: 'before' },
      connectionPoints: 'both',
    }
    const graph = { nodes: [node], connections: [] }
    expect(text(graph)).toContain('"before"')
    node.data.narration = 'after'
    expect(text(graph)).toContain('"after"')
    // A frozen node whose data is not frozen is not kept either.
    const shallow = Object.freeze({ ...node, data: { narration: 'one' } })
    const held = { nodes: [shallow], connections: [] }
    expect(text(held)).toContain('"one"')
    shallow.data.narration = 'two'
    expect(text(held)).toContain('"two"')
  })
})
