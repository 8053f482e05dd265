import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { addNode, docToGraph } from './graph-doc.ts'
import { graphSchema, MAX_NODES, NODE_ID_PATTERN } from './graph.ts'
import { resultNodeIds, writeJobResult, writeJobState } from './job-doc.ts'
import { JOB_DATA_KEYS } from './jobs.ts'
import { createGraphNode } from './node-defaults.ts'
import { scenesResult, scriptResult } from './placement.ts'

const JOB = '4f1c2a9e-3b7d-4c21-9a0e-5d6f7a8b9c0d'
const AT = new Date('2026-01-02T03:04:05.000Z')

function docWithGenerator() {
  const doc = new Y.Doc()
  const generator = createGraphNode(
    'script-generator',
    { x: 0, y: 0 },
    [],
    1,
    'script-generator-1-g',
  )
  addNode(doc, generator)
  return { doc, generator }
}

describe('job state and results in the document (issue 12)', () => {
  it('derives spec-shaped result ids from the job id, the same every time', () => {
    const ids = resultNodeIds(JOB, AT.getTime(), 'scene', 3)
    expect(ids).toEqual(resultNodeIds(JOB, AT.getTime(), 'scene', 3))
    expect(new Set(ids).size).toBe(3)
    for (const id of ids) expect(id).toMatch(NODE_ID_PATTERN)
    expect(
      resultNodeIds('5f1c2a9e-3b7d-4c21-9a0e-5d6f7a8b9c0e', AT.getTime(), 'scene', 1)[0],
    ).not.toBe(ids[0])
  })

  it('writes the state keys on the node and removes the null ones', () => {
    const { doc, generator } = docWithGenerator()
    const state = {
      id: JOB,
      kind: 'image' as const,
      status: 'running' as const,
      progress: 40,
      stage: 'Writing the script',
      message: null,
      refunded: null,
      updatedAt: AT,
    }
    expect(writeJobState(doc, generator.id, state)).toBe(true)
    expect(writeJobState(doc, generator.id, { ...state, progress: null, status: 'failed' })).toBe(
      true,
    )
    const data = docToGraph(doc).nodes[0]!.data
    expect(data).toMatchObject({
      [JOB_DATA_KEYS.id]: JOB,
      [JOB_DATA_KEYS.status]: 'failed',
      [JOB_DATA_KEYS.stage]: 'Writing the script',
      [JOB_DATA_KEYS.updatedAt]: AT.toISOString(),
    })
    expect(JOB_DATA_KEYS.progress in data).toBe(false)
    expect(writeJobState(doc, 'script-generator-1-gone', state)).toBe(false)
  })

  it('adds a result once, in free space, connected, with valid nodes', () => {
    const { doc, generator } = docWithGenerator()
    const state = {
      id: JOB,
      kind: 'image' as const,
      status: 'succeeded' as const,
      progress: 100,
      stage: null,
      message: null,
      refunded: null,
      updatedAt: AT,
    }
    const ids = resultNodeIds(JOB, AT.getTime(), 'editable-text', 1)
    const build = (source: { id: string; position: { x: number; y: number } }) =>
      scriptResult(source, 'The script', AT.getTime(), ids)
    expect(writeJobResult(doc, generator.id, build, state)).toBe('written')
    expect(writeJobResult(doc, generator.id, build, state)).toBe('already-written')
    // A second job of the same generator lands below the first result, not on it.
    const other = resultNodeIds('5f1c2a9e-3b7d-4c21-9a0e-5d6f7a8b9c0e', 2, 'editable-text', 1)
    writeJobResult(doc, generator.id, (s) => scriptResult(s, 'Again', 2, other), state)
    const graph = graphSchema.parse(docToGraph(doc))
    expect(graph.nodes).toHaveLength(3)
    const first = graph.nodes.find((n) => n.id === ids[0])!
    const second = graph.nodes.find((n) => n.id === other[0])!
    expect(first.position).toEqual({ x: 350, y: 0 })
    expect(second.position.x).toBe(350)
    expect(second.position.y).toBeGreaterThan(300)
    expect(graph.connections).toHaveLength(2)
  })

  it('keeps the project limit: a result past MAX_NODES is not placed, and the node says so', () => {
    const { doc, generator } = docWithGenerator()
    doc.transact(() => {
      for (let i = 1; i < MAX_NODES; i++) {
        addNode(doc, createGraphNode('scene', { x: i * 400, y: 0 }, [], 1, `scene-${i}-full`))
      }
    })
    const state = {
      id: JOB,
      kind: 'image' as const,
      status: 'succeeded' as const,
      progress: null,
      stage: null,
      message: null,
      refunded: null,
      updatedAt: AT,
    }
    const ids = resultNodeIds(JOB, AT.getTime(), 'editable-text', 1)
    const result = writeJobResult(
      doc,
      generator.id,
      (source) => scriptResult(source, 'One too many', AT.getTime(), ids),
      state,
    )
    expect(result).toBe('no-room')
    expect(docToGraph(doc).nodes).toHaveLength(MAX_NODES)
    const data = docToGraph(doc).nodes.find((n) => n.id === generator.id)!.data
    expect(data[JOB_DATA_KEYS.message]).toMatch(/limit of 2,000 nodes.*not placed/)
  })

  it('writes nothing when the source node was deleted', () => {
    const doc = new Y.Doc()
    const result = writeJobResult(
      doc,
      'editable-text-1-gone',
      (s) => scenesResult(s, [{ narration: 'n', visuals: 'v' }]),
      {
        id: JOB,
        kind: 'image' as const,
        status: 'succeeded',
        progress: null,
        stage: null,
        message: null,
        refunded: null,
        updatedAt: AT,
      },
    )
    expect(result).toBe('source-missing')
    expect(docToGraph(doc).nodes).toEqual([])
  })
})
