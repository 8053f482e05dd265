import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Graph, GraphNode } from './graph.ts'
import { graphAsApplied } from './graph-doc.ts'
import { encodeGraphJson, readGraphJson } from './graph-json.ts'

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

const encoder = new TextEncoder()

/** How a body's text may differ from a plain `JSON.stringify` of its parts. */
const editArb = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(' ', '\n', ',', ']', '}', '"', '\\', '{', '[', 'x', '"nodes":[]'),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 3 }),
  }),
)

type Edit =
  | { kind: 'none' }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }

function edited(text: string, edit: Edit): string {
  if (edit.kind === 'none') return text
  const at = edit.at % (text.length + 1)
  return edit.kind === 'insert'
    ? text.slice(0, at) + edit.text + text.slice(at)
    : text.slice(0, at) + text.slice(at + edit.length)
}

/** What a client sends back: some answered nodes as they were, some changed, some new, shuffled. */
const bodyArb = fc
  .tuple(graphArb, graphArb, fc.array(fc.nat(3), { maxLength: 8 }), editArb)
  .chain(([answer, others, hows, edit]) => {
    const applied = graphAsApplied(answer)
    const nodes: unknown[] = applied.nodes.map((node, i) => {
      const how = hows[i] ?? 0
      if (how === 1) return { ...node, position: { x: node.position.x + 1, y: node.position.y } }
      if (how === 2) return { ...node, label: `${node.label}!` }
      return node
    })
    return fc
      .shuffledSubarray([...nodes, ...others.nodes], { minLength: 0 })
      .map((sent) => ({ applied, sent, connections: others.connections, edit }))
  })

describe('readGraphJson (issue 23)', () => {
  it('reads what JSON.parse reads, or leaves the body to it', () => {
    let read = 0
    fc.assert(
      fc.property(bodyArb, fc.boolean(), ({ applied, sent, connections, edit }, buffer) => {
        const known = new Map(applied.nodes.map((node) => [node.id, node]))
        const text = encoder.encode(edited(JSON.stringify({ nodes: sent, connections }), edit))
        // The api's bodies are Node Buffers, compared natively; any other is compared in a loop.
        const bytes = buffer ? Buffer.from(text) : text
        const answer = readGraphJson(bytes, known)
        let expected: unknown
        try {
          // What the server parses when the body is not read here: its UTF-8 text (an edit
          // may have split a surrogate pair).
          expected = JSON.parse(decoder.decode(bytes))
        } catch {
          expect(answer).toBeNull()
          return
        }
        if (answer === null) return
        read += 1
        expect(answer).toStrictEqual(expected)
        // Known nodes come back as themselves, never for a value that differs.
        for (const node of answer.nodes as unknown[]) {
          const id = (node as { id?: unknown }).id
          if (typeof id === 'string' && known.get(id) === node) {
            expect(JSON.stringify(node)).toBe(JSON.stringify(known.get(id)))
          }
        }
      }),
      { numRuns: 2000 },
    )
    // Most bodies are read (the edits break some): the property is not vacuous.
    expect(read).toBeGreaterThan(800)
  })

  it('answers the known node objects for the nodes sent back unchanged', () => {
    fc.assert(
      fc.property(graphArb, fc.nat(), (graph, moved) => {
        const applied = graphAsApplied(graph)
        const known = new Map(applied.nodes.map((node) => [node.id, node]))
        const m = applied.nodes.length > 0 ? moved % applied.nodes.length : -1
        const sent = applied.nodes.map((node, i) =>
          i === m ? { ...node, position: { x: 1, y: 2 } } : node,
        )
        const text = encoder.encode(
          JSON.stringify({ nodes: sent, connections: applied.connections }),
        )
        const answer = readGraphJson(m % 2 === 0 ? Buffer.from(text) : text, known)
        expect(answer).not.toBeNull()
        const nodes = answer!.nodes as unknown[]
        nodes.forEach((node, i) => {
          // A node whose JSON does not read back as itself (-0, infinities) is parsed instead.
          const was = applied.nodes[i]!
          const same = i !== m && plainId(was.id) && isExact(was)
          expect(node === applied.nodes[i]).toBe(same)
        })
      }),
      { numRuns: 500 },
    )
  })

  it('leaves other layouts to the full parse', () => {
    const node: GraphNode = {
      id: 'scene-1',
      type: 'scene',
      label: 'Scene',
      position: { x: 1, y: 2 },
      data: {},
      connectionPoints: 'both',
    }
    // Known nodes are frozen, as the writer keeps them (a node that can change is parsed).
    Object.freeze(node.position)
    Object.freeze(node.data)
    const known = new Map([[node.id, Object.freeze(node)]])
    const read = (text: string) => readGraphJson(encoder.encode(text), known)
    const json = JSON.stringify(node)
    expect(read(`{"nodes":[${json}],"connections":[]}`)?.nodes).toEqual([node])
    expect((read(`{"nodes":[${json}],"connections":[]}`)?.nodes as unknown[])[0]).toBe(node)
    expect(read(`{ "nodes":[${json}],"connections":[]}`)).toBeNull()
    expect(read(`{"connections":[],"nodes":[${json}]}`)).toBeNull()
    expect(read(`{"nodes":[${json}],"connections":[],"name":"x"}`)).toBeNull()
    expect(read(`{"nodes":[${json},],"connections":[]}`)).toBeNull()
    expect(read(`{"nodes":[${json}],"connections":[]}\n`)).toBeNull()
    expect(read(`{"nodes":[],"connections":[]}`)).toEqual({ nodes: [], connections: [] })
    expect(read(`{"nodes":[],"connections":[]]`)).toBeNull()
    expect(read(`{"nodes":[],"connections":"}"}`)).toEqual({ nodes: [], connections: '}' })
  })
})

/** An id `readGraphJson` reads from the bytes: ASCII that JSON writes without escapes. */
function plainId(id: string): boolean {
  return /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(id)
}

/** Whether the node's JSON reads back as the node (what `readGraphJson` requires of a known node). */
function isExact(node: GraphNode): boolean {
  const numbers = [node.position.x, node.position.y, ...Object.values(node.data)].filter(
    (v) => typeof v === 'number',
  )
  return numbers.every((v) => Number.isFinite(v) && !Object.is(v, -0))
}
