import {
  addNode,
  connectionKey,
  createGraphNode,
  docFilm,
  docToGraph,
  editCut,
  getTimelinesMap,
  getNodesMap,
  MAX_CONNECTIONS,
  MAX_NODES,
  moveNodes,
  NODE_FOOTPRINTS,
  scenesResult,
  updateNodeData,
} from '@reelgraph/shared'
import { describe, expect, it, vi } from 'vitest'
import * as Y from 'yjs'
import { createCanvasStore } from './canvas-store'

/** The node an `addNode` added (these tests expect it to). */
function added<T>(node: T | null): T {
  if (node === null) throw new Error('the node was not added')
  return node
}

/** Two docs that exchange every update, like two browsers through the sync server. */
function linkedDocs() {
  const a = new Y.Doc()
  const b = new Y.Doc()
  a.on('update', (u: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(b, u, 'remote')
  })
  b.on('update', (u: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(a, u, 'remote')
  })
  return { a, b }
}

describe('canvas store', () => {
  it('shows what the doc holds, and remote edits rebuild only the touched node', () => {
    const { a, b } = linkedDocs()
    const scene = createGraphNode('scene', { x: 0, y: 0 })
    const text = createGraphNode('editable-text', { x: 400, y: 0 })
    addNode(a, scene)
    addNode(a, text)
    const store = createCanvasStore(b)
    expect(
      store
        .getState()
        .nodes.map((n) => n.id)
        .sort(),
    ).toEqual([scene.id, text.id].sort())
    const before = store.getState().nodes
    updateNodeData(a, scene.id, { narration: 'Once upon a time' })
    const after = store.getState().nodes
    const changed = after.filter((n, i) => n !== before[i]).map((n) => n.id)
    expect(changed).toEqual([scene.id])
    expect(after.find((n) => n.id === scene.id)?.data).toMatchObject({
      narration: 'Once upon a time',
    })
    store.getState().actions.destroy()
  })

  it('adds nodes, connects them once, and deletes a node with its connections', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const script = added(s.addNode('script-generator', { x: 0, y: 0 }))
    const scene = added(s.addNode('scene', { x: 400, y: 0 }))
    expect(s.connect({ source: script.id, target: scene.id })).toEqual({
      added: true,
      promptCopied: false,
      promptQuestion: null,
      startImage: null,
    })
    expect(s.connect({ source: script.id, target: scene.id }).added).toBe(false)
    expect(s.connect({ source: scene.id, target: scene.id }).added).toBe(false)
    expect(store.getState().edges.map((e) => e.id)).toEqual([
      connectionKey({ source: script.id, target: scene.id }),
    ])
    expect(s.deleteElements({ nodeIds: [scene.id], edgeIds: [] })).toBe(1)
    expect(store.getState().edges).toEqual([])
    expect(docToGraph(doc)).toMatchObject({ connections: [] })
    expect(docToGraph(doc).nodes.map((n) => n.id)).toEqual([script.id])
  })

  it('copies a scene visuals into an image generator prompt on connect, either way', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const scene = added(s.addNode('scene', { x: 0, y: 0 }))
    const generator = createGraphNode('image-generator', { x: 400, y: 0 })
    addNode(doc, generator)
    s.updateNodeData(scene.id, { visuals: 'A lighthouse at dusk' })
    expect(s.connect({ source: generator.id, target: scene.id }).promptCopied).toBe(true)
    const node = docToGraph(doc).nodes.find((n) => n.id === generator.id)
    expect(node?.data).toMatchObject({ prompt: 'A lighthouse at dusk', promptFromScene: 'true' })
  })

  it('asks before a second scene replaces the prompt, and keeps it meanwhile (issue 14 item 6)', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const first = added(s.addNode('scene', { x: 0, y: 0 }))
    const second = added(s.addNode('scene', { x: 0, y: 600 }))
    const generator = added(s.addNode('image-generator', { x: 400, y: 0 }))
    s.updateNodeData(first.id, { visuals: 'A lighthouse at dusk' })
    s.updateNodeData(second.id, { visuals: 'A storm at sea' })
    expect(s.connect({ source: first.id, target: generator.id }).promptCopied).toBe(true)
    const result = s.connect({ source: second.id, target: generator.id })
    expect(result).toMatchObject({ added: true, promptCopied: false })
    expect(result.promptQuestion).toEqual({
      generatorId: generator.id,
      generatorType: 'image-generator',
      currentScene: first.label,
      newScene: second.label,
      patch: { prompt: 'A storm at sea', promptFromScene: 'true' },
    })
    const node = docToGraph(doc).nodes.find((n) => n.id === generator.id)
    expect(node?.data.prompt).toBe('A lighthouse at dusk')
  })

  it('fills a Video Generator’s prompt from a scene and its start image from an image (issue 22)', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const scene = added(s.addNode('scene', { x: 0, y: 0 }))
    const generator = added(s.addNode('video-generator', { x: 400, y: 0 }))
    const image = createGraphNode('image', { x: 800, y: 0 })
    const url = '/api/assets/abcdefghijklmnopqrstuvwxyz234567'
    image.data.imageUrl = url
    addNode(doc, image)
    s.updateNodeData(scene.id, { visuals: 'Waves roll into a cove' })
    expect(s.connect({ source: scene.id, target: generator.id }).promptCopied).toBe(true)
    // An image is only fed: from the generator's output to the image's input.
    expect(s.connect({ source: generator.id, target: image.id })).toMatchObject({
      added: true,
      startImage: image.label,
    })
    const node = docToGraph(doc).nodes.find((n) => n.id === generator.id)
    expect(node?.data).toMatchObject({
      prompt: 'Waves roll into a cove',
      promptFromScene: 'true',
      imageUrl: url,
    })
    // One undo step takes the connection and the start image back.
    s.undo()
    const undone = docToGraph(doc)
    expect(undone.connections).toHaveLength(1)
    expect(undone.nodes.find((n) => n.id === generator.id)?.data.imageUrl).toBe('')
  })

  it('undoes only this store’s changes, the connect and its prompt copy as one step', () => {
    const { a, b } = linkedDocs()
    const store = createCanvasStore(a)
    const s = store.getState().actions
    const scene = added(s.addNode('scene', { x: 0, y: 0 }))
    const remote = createGraphNode('editable-text', { x: 0, y: 300 })
    addNode(b, remote)
    s.undo()
    expect(docToGraph(a).nodes.map((n) => n.id)).toEqual([remote.id])
    expect(store.getState().nodes.map((n) => n.id)).toEqual([remote.id])
    expect(store.getState().canRedo).toBe(true)
    s.redo()
    expect(
      store
        .getState()
        .nodes.map((n) => n.id)
        .sort(),
    ).toEqual([scene.id, remote.id].sort())
  })

  it('keeps a node being dragged where the pointer is, writes throttled, and writes the end', () => {
    const { a, b } = linkedDocs()
    const store = createCanvasStore(a)
    const node = added(store.getState().actions.addNode('scene', { x: 0, y: 0 }))
    const s = store.getState().actions
    s.onNodesChange([{ type: 'position', id: node.id, position: { x: 10, y: 10 }, dragging: true }])
    s.onNodesChange([{ type: 'position', id: node.id, position: { x: 20, y: 20 }, dragging: true }])
    // The first move is written at once, the second waits for the interval.
    expect(docToGraph(b).nodes[0]?.position).toEqual({ x: 10, y: 10 })
    expect(store.getState().nodes[0]?.position).toEqual({ x: 20, y: 20 })
    // A remote move of the dragged node does not yank it from under the pointer.
    moveNodes(b, new Map([[node.id, { x: 500, y: 500 }]]))
    expect(store.getState().nodes[0]?.position).toEqual({ x: 20, y: 20 })
    s.onNodesChange([
      { type: 'position', id: node.id, position: { x: 30, y: 30 }, dragging: false },
    ])
    expect(docToGraph(b).nodes[0]?.position).toEqual({ x: 30, y: 30 })
    expect(store.getState().nodes[0]?.position).toEqual({ x: 30, y: 30 })
    // The whole drag is one undo step; it gives back what was there before this person's
    // writes, here the other person's move.
    s.undo()
    expect(getNodesMap(a).size).toBe(1)
    expect(docToGraph(a).nodes[0]?.position).toEqual({ x: 500, y: 500 })
    s.undo()
    expect(getNodesMap(a).size).toBe(0)
  })

  it('keeps selection local and pastes copies with their inner connection, selected', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const one = added(s.addNode('scene', { x: 0, y: 0 }))
    const two = added(s.addNode('scene', { x: 400, y: 0 }))
    const three = added(s.addNode('scene', { x: 800, y: 0 }))
    s.connect({ source: one.id, target: two.id })
    s.connect({ source: two.id, target: three.id })
    s.selectOnly([one.id, two.id])
    expect(s.copySelection()).toBe(2)
    expect(s.paste()).toBe(2)
    const graph = docToGraph(doc)
    expect(graph.nodes).toHaveLength(5)
    expect(graph.connections).toHaveLength(3)
    const selected = store.getState().nodes.filter((n) => n.selected)
    expect(selected).toHaveLength(2)
    // The copies keep their layout and land where they cover nothing (issue 14 item 2).
    const [p, q] = selected.map((n) => n.position)
    expect(q!.x - p!.x).toBe(400)
    expect(q!.y).toBe(p!.y)
    const { width, height } = NODE_FOOTPRINTS.scene
    for (const copy of selected) {
      for (const original of [one, two, three]) {
        const a = copy.position
        const b = original.position
        expect(
          a.x + width <= b.x || b.x + width <= a.x || a.y + height <= b.y || b.y + height <= a.y,
        ).toBe(true)
      }
    }
  })

  it('adds a node where another is to the nearest free place, not on top (issue 14 item 2)', () => {
    const store = createCanvasStore(new Y.Doc())
    const s = store.getState().actions
    const first = added(s.addNode('scene', { x: 100, y: 100 }))
    const second = added(s.addNode('scene', { x: 100, y: 100 }))
    expect(first.position).toEqual({ x: 100, y: 100 })
    const { width, height } = NODE_FOOTPRINTS.scene
    const a = second.position
    expect(
      a.x + width <= 100 || 100 + width <= a.x || a.y + height <= 100 || 100 + height <= a.y,
    ).toBe(true)
  })
})

describe('undo steps', () => {
  it('undoes typing right after an add before the add itself', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const node = added(s.addNode('script-generator', { x: 0, y: 0 }))
    s.updateNodeData(node.id, { topic: 'B' })
    s.updateNodeData(node.id, { topic: 'Be' })
    s.undo()
    expect(docToGraph(doc).nodes[0]?.data.topic).toBe('')
    s.undo()
    expect(docToGraph(doc).nodes).toEqual([])
  })

  it('writes a generation result in one step: another editor sees it, undo takes it back', () => {
    const { a, b } = linkedDocs()
    const mine = createCanvasStore(a)
    const theirs = createCanvasStore(b)
    const text = added(mine.getState().actions.addNode('editable-text', { x: 0, y: 0 }))
    const result = scenesResult(text, [
      { narration: 'One', visuals: 'A hive' },
      { narration: 'Two', visuals: 'A dance' },
      { narration: 'Three', visuals: 'A flower' },
    ])
    mine.getState().actions.addGraph(result)
    expect(theirs.getState().nodes).toHaveLength(4)
    expect(theirs.getState().edges).toHaveLength(3)
    mine.getState().actions.undo()
    expect(docToGraph(b).nodes.map((n) => n.id)).toEqual([text.id])
    expect(docToGraph(b).connections).toEqual([])
    mine.getState().actions.destroy()
    theirs.getState().actions.destroy()
  })

  it('fills defaults outside undo, so undo never loops on them', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const generator = added(s.addNode('image-generator', { x: 0, y: 0 }))
    s.fillNodeDefaults(generator.id, { modelId: 'storyboard', modelVersionId: 'storyboard-v1' })
    expect(s.getNode(generator.id)?.data).toMatchObject({ modelId: 'storyboard' })
    // One undo takes back the add itself: the filled-in model is no step of its own.
    s.undo()
    expect(s.getNode(generator.id)).toBeNull()
    expect(store.getState().canUndo).toBe(false)
    s.redo()
    expect(s.getNode(generator.id)).not.toBeNull()
    s.destroy()
  })
})

describe('view-only access (issue 6 item 1)', () => {
  it('writes nothing while access says view only, and writes again once it allows', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const a = added(s.addNode('scene', { x: 0, y: 0 }))
    const b = added(s.addNode('editable-text', { x: 400, y: 0 }))
    const before = JSON.stringify(docToGraph(doc))

    s.setAccess({ role: 'editor', scope: 'readonly' })
    expect(store.getState().access.canEdit).toBe(false)
    expect(s.addNode('scene', { x: 800, y: 0 })).toBe(null)
    s.updateNodeData(a.id, { narration: 'changed' })
    s.fillNodeDefaults(a.id, { narration: 'filled' })
    expect(s.connect({ source: a.id, target: b.id }).added).toBe(false)
    s.onNodesChange([{ type: 'position', id: a.id, position: { x: 90, y: 90 }, dragging: false }])
    s.selectOnly([a.id])
    expect(s.copySelection()).toBe(1)
    expect(s.paste()).toBe(0)
    s.undo()
    expect(s.deleteElements({ nodeIds: [a.id, b.id], edgeIds: [] })).toBe(0)
    expect(JSON.stringify(docToGraph(doc))).toBe(before)
    // Selection stays local and allowed: presence shows what a viewer looks at.
    expect(store.getState().nodes.find((n) => n.id === a.id)?.selected).toBe(true)

    s.setAccess({ scope: 'read-write' })
    expect(store.getState().access.canEdit).toBe(true)
    s.updateNodeData(a.id, { narration: 'changed' })
    expect(store.getState().dataById.get(a.id)).toMatchObject({ narration: 'changed' })
    store.getState().actions.destroy()
  })
})

describe('limits, checked before writing (issue 11)', () => {
  /** A doc holding `count` scenes, as a project at its node limit. */
  function fullDoc(count: number) {
    const doc = new Y.Doc()
    doc.transact(() => {
      for (let i = 0; i < count; i++) addNode(doc, createGraphNode('scene', { x: i * 10, y: 0 }))
    })
    return doc
  }

  it('adds, pastes or generates nothing past MAX_NODES, and says why', () => {
    const doc = fullDoc(MAX_NODES - 1)
    const refusals: string[] = []
    const store = createCanvasStore(doc, { onRefused: (reason) => refusals.push(reason) })
    const s = store.getState().actions
    const last = added(s.addNode('scene', { x: 0, y: 500 }))
    expect(getNodesMap(doc).size).toBe(MAX_NODES)
    expect(refusals).toEqual([])

    const before = Y.encodeStateVector(doc)
    expect(s.addNode('scene', { x: 0, y: 900 })).toBe(null)
    s.selectOnly([last.id])
    expect(s.copySelection()).toBe(1)
    expect(s.paste()).toBe(0)
    const generated = createGraphNode('editable-text', { x: 0, y: 1200 })
    expect(s.addGraph({ nodes: [generated], connections: [] })).toBe(false)
    expect(s.hasRoomFor(1)).toBe(false)
    expect(refusals).toEqual([
      'too-many-nodes',
      'too-many-nodes',
      'too-many-nodes',
      'too-many-nodes',
    ])
    // Nothing was written, so nothing would be sent.
    expect(Y.encodeStateVector(doc)).toEqual(before)

    // Deleting makes room again.
    expect(s.deleteElements({ nodeIds: [last.id], edgeIds: [] })).toBe(1)
    expect(s.hasRoomFor(1)).toBe(true)
    expect(s.addNode('scene', { x: 0, y: 900 })).not.toBe(null)
    store.getState().actions.destroy()
  })

  it('connects nothing past MAX_CONNECTIONS, but an existing connection is no refusal', () => {
    const doc = new Y.Doc()
    const refusals: string[] = []
    const store = createCanvasStore(doc, { onRefused: (reason) => refusals.push(reason) })
    const s = store.getState().actions
    const a = added(s.addNode('editable-text', { x: 0, y: 0 }))
    const b = added(s.addNode('editable-text', { x: 400, y: 0 }))
    const c = added(s.addNode('editable-text', { x: 800, y: 0 }))
    expect(s.connect({ source: a.id, target: b.id }).added).toBe(true)
    // Fill the map up to the limit (ends that are not nodes are allowed in the doc).
    const connections = doc.getMap('connections')
    doc.transact(() => {
      for (let i = connections.size; i < MAX_CONNECTIONS; i++) {
        connections.set(`x${i}->y${i}`, { source: `x${i}`, target: `y${i}` })
      }
    })
    expect(s.connect({ source: a.id, target: b.id }).added).toBe(false)
    expect(refusals).toEqual([])
    expect(s.connect({ source: b.id, target: c.id }).added).toBe(false)
    expect(refusals).toEqual(['too-many-connections'])
    expect(connections.has(connectionKey({ source: b.id, target: c.id }))).toBe(false)
    store.getState().actions.destroy()
  })
})

describe('session status', () => {
  it('applies a change of any one field, and keeps the same object when nothing changed', () => {
    const store = createCanvasStore(new Y.Doc())
    const { setSession } = store.getState().actions
    setSession({ ready: true })
    setSession({ failure: 'load-failed' })
    expect(store.getState().session).toEqual({ ready: true, failure: 'load-failed' })
    const before = store.getState().session
    setSession({ ready: true, failure: 'load-failed' })
    expect(store.getState().session).toBe(before)
  })
})

describe('what a move recomputes (issue 14 item 12)', () => {
  it('keeps the data index when nodes only move, and replaces only the edited entry', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const a = added(s.addNode('scene', { x: 0, y: 0 }))
    const b = added(s.addNode('scene', { x: 0, y: 600 }))
    const before = store.getState().dataById
    moveNodes(doc, new Map([[a.id, { x: 40, y: 40 }]]))
    expect(store.getState().nodes.find((n) => n.id === a.id)?.position).toEqual({ x: 40, y: 40 })
    expect(store.getState().dataById).toBe(before)
    s.updateNodeData(a.id, { narration: 'Changed' })
    const after = store.getState().dataById
    expect(after).not.toBe(before)
    expect(after.get(b.id)).toBe(before.get(b.id))
    expect(after.get(a.id)).toMatchObject({ narration: 'Changed' })
  })
})

describe('timeline edits (issue 24 item 1)', () => {
  const scenes = ['scene-1-a', 'scene-1-b', 'scene-1-c'].map((nodeId, i) => ({
    nodeId,
    sceneNumber: String(i + 1),
    narration: '',
    imageUrl: '/api/assets/abcdefghijklmnopqrstuvwxyz234567',
    clip: null,
  }))

  it('writes through the doc, mirrors the registers, and undo takes back only this person’s edits', () => {
    const { a, b } = linkedDocs()
    const store = createCanvasStore(a)
    const s = store.getState().actions
    const film = () => docFilm(a, 'video-1-a', scenes).cuts
    s.timeline.moveCut('video-1-a', film(), 'scene:scene-1-c', 0)
    expect(film().map((c) => c.sceneId)).toEqual(['scene-1-c', 'scene-1-a', 'scene-1-b'])
    expect(store.getState().timelines.get('video-1-a/cut/scene:scene-1-c/movedTo')).toBeTypeOf(
      'string',
    )
    s.timeline.beginGesture()
    s.timeline.editCut('video-1-a', film()[1]!, { holdMs: 4_000 })
    s.timeline.endGesture()
    // Another person trims a different cut; undo leaves it.
    editCut(b, 'video-1-a', docFilm(b, 'video-1-a', scenes).cuts[2]!, { holdMs: 9_000 })
    expect(store.getState().timelines.get('video-1-a/cut/scene:scene-1-b/holdMs')).toBe(9_000)
    s.undo()
    expect(film()[1]!.holdMs).toBe(0)
    expect(film().map((c) => c.sceneId)).toEqual(['scene-1-c', 'scene-1-a', 'scene-1-b'])
    s.undo()
    expect(film().map((c) => c.sceneId)).toEqual(['scene-1-a', 'scene-1-b', 'scene-1-c'])
    expect(film()[1]!.holdMs).toBe(9_000)
    s.redo()
    expect(docFilm(b, 'video-1-a', scenes).cuts.map((c) => c.sceneId)).toEqual([
      'scene-1-c',
      'scene-1-a',
      'scene-1-b',
    ])
    store.getState().actions.destroy()
  })

  it('makes a gesture one undo step however long it lasts', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const doc = new Y.Doc()
      const store = createCanvasStore(doc)
      const s = store.getState().actions
      const cut = () => docFilm(doc, 'video-1-a', scenes).cuts[0]!
      s.timeline.editSettings('video-1-a', { titleMs: 1_000 })
      vi.advanceTimersByTime(2_000)
      s.timeline.beginGesture()
      for (const holdMs of [3_000, 4_000, 5_000]) {
        s.timeline.editCut('video-1-a', cut(), { holdMs })
        vi.advanceTimersByTime(2_000)
      }
      s.timeline.endGesture()
      s.timeline.editSettings('video-1-a', { endMs: 1_000 })
      s.undo()
      expect(cut().holdMs).toBe(5_000)
      s.undo()
      expect(cut().holdMs).toBe(0)
      expect(docFilm(doc, 'video-1-a', scenes).settings.titleMs).toBe(1_000)
      store.getState().actions.destroy()
    } finally {
      vi.useRealTimers()
    }
  })

  it('gives a deleted Video node its timeline back on undo', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    const video = added(s.addNode('video', { x: 0, y: 0 }))
    s.timeline.editSettings(video.id, { titleText: 'Low tide', titleMs: 2_000 })
    expect(s.deleteElements({ nodeIds: [video.id], edgeIds: [] })).toBe(1)
    expect(getTimelinesMap(doc).size).toBe(0)
    s.undo()
    expect(docFilm(doc, video.id, scenes).settings).toMatchObject({
      titleText: 'Low tide',
      titleMs: 2_000,
    })
    expect(store.getState().timelines.size).toBe(2)
  })

  it('writes no timeline edit while view only', () => {
    const doc = new Y.Doc()
    const store = createCanvasStore(doc)
    const s = store.getState().actions
    s.setAccess({ role: 'viewer', scope: 'readonly' })
    s.timeline.editSettings('video-1-a', { titleMs: 2_000 })
    s.timeline.moveCut('video-1-a', docFilm(doc, 'video-1-a', scenes).cuts, 'scene:scene-1-b', 0)
    expect(getTimelinesMap(doc).size).toBe(0)
  })
})
