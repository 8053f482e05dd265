import { describe, expect, it } from 'vitest'
import { accessibleEdges, connectionLabel, createAccessibleEdges } from './edge-a11y'
import type { CanvasEdge } from './node-types'

const labels: Record<string, string> = { 'n-1': 'Script Generator', 'n-2': 'Generated Script' }
const labelOf = (id: string) => labels[id]
const edge = (selected?: boolean): CanvasEdge => ({
  id: 'n-1->n-2',
  source: 'n-1',
  target: 'n-2',
  type: 'default',
  ...(selected === undefined ? {} : { selected }),
})

describe('accessibleEdges (issue 14 item 9)', () => {
  it('names a connection by its nodes’ labels, never by their ids', () => {
    const [drawn] = accessibleEdges([edge()], labelOf, new WeakMap(), null)
    expect(drawn?.ariaLabel).toBe('Connection from Script Generator to Generated Script')
    expect(drawn?.ariaLabel).not.toContain('n-1')
    expect(connectionLabel(undefined, 'Scene 1')).toBe('Connection from a node to Scene 1')
  })

  it('puts a connection in the Tab order only while it is selected', () => {
    const cache = new WeakMap()
    expect(accessibleEdges([edge()], labelOf, cache, null)[0]?.focusable).toBe(false)
    expect(accessibleEdges([edge(false)], labelOf, cache, null)[0]?.focusable).toBe(false)
    expect(accessibleEdges([edge(true)], labelOf, cache, null)[0]?.focusable).toBe(true)
  })

  it('gives back the same objects and array while nothing it derives changed', () => {
    const derive = createAccessibleEdges()
    const edges = [edge()]
    const first = derive(edges, labelOf)
    expect(derive(edges, labelOf)).toBe(first)
    expect(derive([...edges], labelOf)).toBe(first)
    labels['n-2'] = 'Script'
    const renamed = derive(edges, labelOf)
    expect(renamed).not.toBe(first)
    expect(renamed[0]?.ariaLabel).toBe('Connection from Script Generator to Script')
  })
})
