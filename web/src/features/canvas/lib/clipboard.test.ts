import { createGraphNode, type GraphNode, NODE_ID_PATTERN } from '@reelgraph/shared'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { copyNodes, remapForPaste } from './clipboard'

const node = (id: string, x = 0): GraphNode => ({
  ...createGraphNode('scene', { x, y: 0 }),
  id,
})

describe('copy and paste', () => {
  it('copies the selected nodes and only their inner connections', () => {
    const nodes = [node('scene-1-a'), node('scene-2-b'), node('scene-3-c')]
    const connections = [
      { source: 'scene-1-a', target: 'scene-2-b' },
      { source: 'scene-2-b', target: 'scene-3-c' },
    ]
    const copied = copyNodes(nodes, connections, new Set(['scene-1-a', 'scene-2-b']))
    expect(copied.nodes.map((n) => n.id)).toEqual(['scene-1-a', 'scene-2-b'])
    expect(copied.connections).toEqual([{ source: 'scene-1-a', target: 'scene-2-b' }])
  })

  it('pastes with new ids of the spec shape, offset, connections following their ends', () => {
    const copied = copyNodes(
      [node('scene-1-a', 10), node('scene-2-b', 20)],
      [{ source: 'scene-1-a', target: 'scene-2-b' }],
      new Set(['scene-1-a', 'scene-2-b']),
    )
    const pasted = remapForPaste(copied, { x: 40, y: 40 })
    const [a, b] = pasted.nodes
    expect(a?.id).toMatch(NODE_ID_PATTERN)
    expect(a?.id).not.toBe('scene-1-a')
    expect(a?.position).toEqual({ x: 50, y: 40 })
    expect(b?.position).toEqual({ x: 60, y: 40 })
    expect(pasted.connections).toEqual([{ source: a?.id, target: b?.id }])
    // The copy is independent of the clipboard.
    expect(copied.nodes[0]?.position).toEqual({ x: 10, y: 0 })
  })

  it('pastes a generator without its original’s job (issue 12)', () => {
    const generator: GraphNode = {
      ...createGraphNode('image-generator', { x: 0, y: 0 }),
      id: 'image-generator-1-abc',
    }
    generator.data = { ...generator.data, prompt: 'A bee', jobId: 'job-1', jobStatus: 'running' }
    const pasted = remapForPaste(copyNodes([generator], [], new Set([generator.id])), {
      x: 40,
      y: 40,
    })
    expect(pasted.nodes[0]?.data).toMatchObject({ prompt: 'A bee' })
    expect(pasted.nodes[0]?.data).not.toHaveProperty('jobId')
    expect(pasted.nodes[0]?.data).not.toHaveProperty('jobStatus')
  })

  it('never reuses an id, and keeps every inner connection (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(fc.nat(11), fc.nat(11))),
        (n, pairs) => {
          const nodes = Array.from({ length: n }, (_, i) => node(`scene-${i + 1}-abc`))
          const connections = pairs
            .filter(([s, t]) => s < n && t < n && s !== t)
            .map(([s, t]) => ({ source: `scene-${s + 1}-abc`, target: `scene-${t + 1}-abc` }))
          const unique = new Set(connections.map((c) => `${c.source}->${c.target}`))
          const pasted = remapForPaste(
            copyNodes(nodes, connections, new Set(nodes.map((x) => x.id))),
            {
              x: 1,
              y: 1,
            },
          )
          const ids = new Set(pasted.nodes.map((x) => x.id))
          expect(ids.size).toBe(n)
          for (const x of nodes) expect(ids.has(x.id)).toBe(false)
          expect(pasted.connections).toHaveLength(unique.size)
          for (const c of pasted.connections) {
            expect(ids.has(c.source) && ids.has(c.target)).toBe(true)
          }
        },
      ),
    )
  })
})
