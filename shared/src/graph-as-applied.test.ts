import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import type { Graph } from './graph.ts'
import { applyGraphChangeToDoc, applyGraphToDoc, docToGraph, graphAsApplied } from './graph-doc.ts'
import { graphArbitraries } from './testing/graph-arbitraries.ts'

/** Any graph a caller may hand the gateway: unsorted, repeated ids and connections, loose ends. */
const { graph: rawGraphArb } = graphArbitraries()

/**
 * A graph as the API answers it: JSON, which has no -0 (a node at y -0 that a graph puts at 0
 * is not written again: -0 !== 0 is false).
 */
const asSent = (graph: Graph) => JSON.parse(JSON.stringify(graph)) as Graph

describe('graphAsApplied (issue 23)', () => {
  it('is what the doc answers right after the graph was applied to it, whatever it held', () => {
    fc.assert(
      fc.property(rawGraphArb, rawGraphArb, (before, graph) => {
        const doc = new Y.Doc()
        applyGraphToDoc(doc, before)
        applyGraphToDoc(doc, graph)
        expect(asSent(graphAsApplied(graph))).toEqual(asSent(docToGraph(doc)))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps the node objects and connections of its answer before that are given again', () => {
    fc.assert(
      fc.property(rawGraphArb, rawGraphArb, fc.array(fc.boolean()), (before, after, picks) => {
        const doc = new Y.Doc()
        applyGraphToDoc(doc, before)
        const previous = graphAsApplied(before)
        // Some of the nodes answered before are given again (the same objects), with others.
        const again = previous.nodes.filter((_, i) => picks[i])
        const graph = { nodes: [...again, ...after.nodes], connections: after.connections }
        applyGraphToDoc(doc, graph)
        const applied = graphAsApplied(graph, previous)
        expect(asSent(applied)).toEqual(asSent(docToGraph(doc)))
        const ids = new Set(after.nodes.map((n) => n.id))
        for (const node of again) {
          if (!ids.has(node.id)) expect(applied.nodes).toContain(node)
        }
        expect(Object.isFrozen(applied.nodes) && applied.nodes.every(Object.isFrozen)).toBe(true)
        const same = graphAsApplied(graph, applied)
        expect(same.connections).toBe(applied.connections)
      }),
      { numRuns: 300 },
    )
  })

  it('keeps them in place when an autosave sends the same nodes, some changed, in any order', () => {
    fc.assert(
      fc.property(
        rawGraphArb,
        fc.array(fc.boolean()),
        fc.boolean(),
        fc.boolean(),
        (before, picks, reversed, sameConnections) => {
          const doc = new Y.Doc()
          applyGraphToDoc(doc, before)
          const previous = graphAsApplied(before)
          const sent = previous.nodes.map((node, i) =>
            picks[i] ? { ...node, label: `${node.label}*` } : node,
          )
          if (reversed) sent.reverse()
          const connections = sameConnections
            ? previous.connections.map((c) => ({ ...c })).reverse()
            : before.connections.slice(1)
          const graph = { nodes: sent, connections }
          applyGraphToDoc(doc, graph)
          const applied = graphAsApplied(graph, previous)
          expect(asSent(applied)).toEqual(asSent(docToGraph(doc)))
          previous.nodes.forEach((node, i) => {
            if (!picks[i]) expect(applied.nodes[i]).toBe(node)
          })
          if (sameConnections) expect(applied.connections).toBe(previous.connections)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('writes only the change into a doc that holds its answer before, to the same doc', () => {
    fc.assert(
      fc.property(rawGraphArb, rawGraphArb, fc.array(fc.boolean()), (before, after, picks) => {
        // A doc as a write leaves it: holding exactly the answer.
        const previous = graphAsApplied(before)
        const doc = new Y.Doc()
        applyGraphToDoc(doc, previous)
        const whole = new Y.Doc()
        Y.applyUpdate(whole, Y.encodeStateAsUpdate(doc))
        const graph = {
          nodes: [...previous.nodes.filter((_, i) => picks[i]), ...after.nodes],
          connections: picks[0] ? previous.connections : after.connections,
        }
        applyGraphChangeToDoc(doc, previous, graphAsApplied(graph, previous))
        applyGraphToDoc(whole, graph)
        expect(docToGraph(doc)).toEqual(docToGraph(whole))
      }),
      { numRuns: 300 },
    )
  })
})
