import {
  addNode,
  createGraphNode,
  type GraphNode,
  getNodesMap,
  moveNodes,
  readNode,
  updateNodeData,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  reconcileEdges,
  reconcileNodes,
  toFlowData,
  toFlowNode,
  touchedNodeIds,
} from './flow-nodes'
import type { CanvasNode } from './node-types'

const at = (x: number, y: number) => ({ x, y })

function sceneNode(id = 'scene-1-aaaa'): GraphNode {
  return { ...createGraphNode('scene', at(0, 0)), id }
}

describe('toFlowData', () => {
  it('fills missing or mistyped fields with the type defaults', () => {
    const node: GraphNode = {
      id: 'image-generator-1-abc',
      type: 'image-generator',
      label: 'Gen',
      position: at(0, 0),
      data: { prompt: 'a cat', width: '512', height: true },
      connectionPoints: 'both',
    }
    expect(toFlowData(node)).toMatchObject({
      label: 'Gen',
      prompt: 'a cat',
      width: 512,
      height: 720,
      numInferenceSteps: 25,
      guidanceScale: 7.5,
      seed: '',
      promptFromScene: 'false',
    })
  })

  it('carries a generator node’s job fields (issue 12), and only a generator’s', () => {
    const job = { jobId: 'job-1', jobStatus: 'running', jobProgress: 40, jobStage: 'Rendering' }
    const generator = { ...createGraphNode('image-generator', at(0, 0)), data: job }
    expect(toFlowData(generator)).toMatchObject(job)
    const text = { ...createGraphNode('editable-text', at(0, 0)), data: job }
    expect(toFlowData(text)).toMatchObject(job)
    const scene = { ...createGraphNode('scene', at(0, 0)), data: job }
    expect(toFlowData(scene)).not.toHaveProperty('jobStatus')
    // A node without a job has no job keys at all (so its data compares equal as before).
    expect(Object.keys(toFlowData(createGraphNode('script-generator', at(0, 0))))).not.toContain(
      'jobId',
    )
  })

  it('keeps the scene count of a text node within 1 to 25', () => {
    const node = { ...createGraphNode('editable-text', at(0, 0)), data: { sceneCount: 99 } }
    expect(toFlowData(node)).toMatchObject({ sceneCount: 25, content: '' })
  })

  it('gives a Video node its settings, its last render and its job (issue 13 item 5)', () => {
    const video = createGraphNode('video', at(0, 0))
    expect(toFlowData(video)).toMatchObject({
      preset: '16:9',
      voice: '',
      subtitles: true,
      music: false,
      videoTakes: [],
    })
    const rendered = {
      ...video,
      data: {
        preset: '9:16',
        subtitles: false,
        videoUrl: '/api/assets/x',
        videoDurationMs: 8000,
        videoInputHash: 'abc',
        jobId: 'job-1',
        jobStatus: 'succeeded',
      },
    }
    expect(toFlowData(rendered)).toMatchObject({
      preset: '9:16',
      subtitles: false,
      videoTakes: [{ mp4Url: '/api/assets/x', durationMs: 8000, inputHash: 'abc' }],
      jobStatus: 'succeeded',
    })
  })
})

describe('toFlowNode', () => {
  it('keeps local state (selection, measured size) and returns the same object when nothing changed', () => {
    const node = sceneNode()
    const prev = { ...toFlowNode(node), selected: true, measured: { width: 300, height: 180 } }
    expect(toFlowNode(node, prev as CanvasNode)).toBe(prev)
    const moved = toFlowNode({ ...node, position: at(5, 6) }, prev as CanvasNode)
    expect(moved).not.toBe(prev)
    expect(moved).toMatchObject({ selected: true, measured: { width: 300 }, position: at(5, 6) })
    expect(moved.data).toBe(prev.data)
  })

  it('keeps the live position of a node being dragged here', () => {
    const node = sceneNode()
    const prev = { ...toFlowNode(node), dragging: true, position: at(100, 100) } as CanvasNode
    const next = toFlowNode({ ...node, position: at(50, 50) }, prev)
    expect(next.position).toEqual(at(100, 100))
  })
})

describe('reconcileNodes', () => {
  it('rebuilds only touched nodes, appends new ones and drops removed ones', () => {
    const a = sceneNode('scene-1-aaaa')
    const b = sceneNode('scene-2-bbbb')
    const current = [toFlowNode(a), toFlowNode(b)]
    const c = sceneNode('scene-3-cccc')
    const doc = new Map<string, GraphNode>([
      [b.id, { ...b, data: { ...b.data, narration: 'Hello' } }],
      [c.id, c],
    ])
    const next = reconcileNodes(current, [a.id, b.id, c.id], (id) => doc.get(id) ?? null)
    expect(next.map((n) => n.id)).toEqual([b.id, c.id])
    expect(next[0]?.data).toMatchObject({ narration: 'Hello' })
  })

  it('returns the same array when nothing visible changed', () => {
    const a = sceneNode()
    const current = [toFlowNode(a)]
    expect(reconcileNodes(current, [a.id], () => a)).toBe(current)
  })
})

describe('touchedNodeIds', () => {
  it('names the nodes a transaction changed, at any depth', () => {
    const doc = new Y.Doc()
    const nodes = getNodesMap(doc)
    const a = sceneNode('scene-1-aaaa')
    const b = sceneNode('scene-2-bbbb')
    addNode(doc, a)
    addNode(doc, b)
    const seen: Set<string>[] = []
    nodes.observeDeep((events) => seen.push(touchedNodeIds(events, nodes)))
    updateNodeData(doc, a.id, { narration: 'x' })
    moveNodes(doc, new Map([[b.id, at(1, 2)]]))
    doc.transact(() => nodes.delete(a.id))
    expect(seen).toEqual([new Set([a.id]), new Set([b.id]), new Set([a.id])])
  })

  it('keeps 1,000 nodes fast: one change rebuilds one node', () => {
    const doc = new Y.Doc()
    const nodes = getNodesMap(doc)
    const graph = Array.from({ length: 1000 }, (_, i) => sceneNode(`scene-${i + 1}-abcd`))
    doc.transact(() => {
      for (const n of graph) addNode(doc, n)
    })
    let flow = graph.map((n) => toFlowNode(n))
    nodes.observeDeep((events) => {
      flow = reconcileNodes(flow, touchedNodeIds(events, nodes), (id) =>
        readNode(id, nodes.get(id)),
      )
    })
    const before = flow
    updateNodeData(doc, 'scene-500-abcd', { visuals: 'sunset' })
    const changed = flow.filter((n, i) => n !== before[i])
    expect(changed.map((n) => n.id)).toEqual(['scene-500-abcd'])
  })
})

describe('reconcileEdges', () => {
  it('adds and removes edges by connection key, keeping the rest', () => {
    const first = { id: 'a->b', source: 'a', target: 'b', type: 'default' }
    const current = [first]
    const next = reconcileEdges(current, ['a->b', 'b->c'], (key) =>
      key === 'b->c' ? { source: 'b', target: 'c' } : { source: 'a', target: 'b' },
    )
    expect(next[0]).toBe(first)
    expect(next.map((e) => e.id)).toEqual(['a->b', 'b->c'])
    expect(reconcileEdges(next, ['a->b'], () => null).map((e) => e.id)).toEqual(['b->c'])
    expect(reconcileEdges(next, ['x->y'], () => null)).toBe(next)
  })
})
