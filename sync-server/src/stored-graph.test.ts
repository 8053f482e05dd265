import { createNodeId, type GraphNode } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { graphFromStoredJson } from './stored-graph.ts'

const node = (label: string): GraphNode => ({
  id: createNodeId('scene'),
  type: 'scene',
  label,
  position: { x: 1, y: 2 },
  data: { sceneNumber: '1' },
  connectionPoints: 'both',
})

describe('graphFromStoredJson', () => {
  it('takes a valid stored graph as it is', () => {
    const a = node('a')
    const b = node('b')
    const connections = [{ source: a.id, target: b.id }]
    expect(graphFromStoredJson([a, b], connections)).toEqual({ nodes: [a, b], connections })
  })

  it('salvages a loose row: bad nodes, repeated ids and dangling, repeated or self connections go', () => {
    const a = node('a')
    const b = node('b')
    const graph = graphFromStoredJson(
      [a, { ...b, position: { x: 'left' } }, b, { ...a, label: 'again' }, 'junk'],
      [
        { source: a.id, target: b.id },
        { source: a.id, target: b.id },
        { source: a.id, target: a.id },
        { source: a.id, target: 'scene-1-missing' },
        { nonsense: true },
      ],
    )
    expect(graph).toEqual({ nodes: [a, b], connections: [{ source: a.id, target: b.id }] })
  })

  it('reads anything that is not an array as empty', () => {
    expect(graphFromStoredJson(null, { a: 1 })).toEqual({ nodes: [], connections: [] })
  })
})
