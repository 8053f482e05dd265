import { addNode, createGraphNode, getNodesMap, removeNodes } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { DOC_EDITOR_KEY, keepClockMoving } from './clock-bump'

describe('keepClockMoving', () => {
  it('advances the clock after a delete-only transaction, and only then', () => {
    const doc = new Y.Doc()
    keepClockMoving(doc)
    const node = createGraphNode('scene', { x: 0, y: 0 })
    addNode(doc, node)
    const afterAdd = Y.getState(doc.store, doc.clientID)
    expect(doc.getMap(DOC_EDITOR_KEY).size).toBe(0)
    removeNodes(doc, [node.id])
    expect(getNodesMap(doc).size).toBe(0)
    expect(Y.getState(doc.store, doc.clientID)).toBeGreaterThan(afterAdd)
  })

  it('leaves remote (applied) updates alone', () => {
    const a = new Y.Doc()
    const b = new Y.Doc()
    keepClockMoving(b)
    const node = createGraphNode('scene', { x: 0, y: 0 })
    addNode(a, node)
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
    removeNodes(a, [node.id])
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
    expect(Y.getState(b.store, b.clientID)).toBe(0)
  })
})
