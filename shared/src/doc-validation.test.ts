import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  type ChangedTypes,
  type DocRefusal,
  docCounts,
  validateDocChange,
} from './doc-validation.ts'
import { createNodeId, type GraphNode, MAX_NODES, NODE_TYPES } from './graph.ts'
import {
  addConnection,
  addNode,
  getNodesMap,
  moveNodes,
  nodeToYMap,
  removeNodes,
  updateNodeData,
} from './graph-doc.ts'
import { UPDATE_REFUSAL_REASONS } from './sync.ts'

/** Runs `change` on `doc` in one transaction and validates what it touched. */
function check(doc: Y.Doc, change: (doc: Y.Doc) => void): DocRefusal | null {
  const before = docCounts(doc)
  let changed: ChangedTypes | null = null
  const capture = (tr: Y.Transaction) => {
    changed = tr.changed
  }
  doc.on('afterTransaction', capture)
  try {
    doc.transact(() => change(doc))
  } finally {
    doc.off('afterTransaction', capture)
  }
  return changed ? validateDocChange(doc, changed, before) : null
}

function node(patch: Partial<GraphNode> = {}): GraphNode {
  return {
    id: createNodeId('scene'),
    type: 'scene',
    label: 'Scene',
    position: { x: 1, y: 2 },
    data: { narration: 'hello', visuals: 'a shot' },
    connectionPoints: 'both',
    ...patch,
  }
}

const nodeArb = fc.record({
  type: fc.constantFrom(...NODE_TYPES),
  label: fc.string({ maxLength: 50 }).map((s) => s.replaceAll('\u0000', '')),
  x: fc.double({ noNaN: true, noDefaultInfinity: true }),
  y: fc.double({ noNaN: true, noDefaultInfinity: true }),
  text: fc.string({ unit: 'grapheme', maxLength: 200 }),
  n: fc.integer(),
  flag: fc.boolean(),
})

describe('validateDocChange (issue 11)', () => {
  it('accepts whatever the graph-doc functions write from valid values', () => {
    fc.assert(
      fc.property(fc.array(nodeArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const doc = new Y.Doc()
        const ids: string[] = []
        for (const s of specs) {
          const n = node({
            type: s.type,
            label: s.label,
            position: { x: s.x, y: s.y },
            data: { text: s.text, n: s.n, flag: s.flag },
          })
          ids.push(n.id)
          expect(check(doc, (d) => addNode(d, n))).toBeNull()
        }
        const [a, b] = ids
        expect(check(doc, (d) => moveNodes(d, new Map([[a!, { x: 5, y: -5 }]])))).toBeNull()
        expect(check(doc, (d) => updateNodeData(d, a!, { text: 'edited' }))).toBeNull()
        if (b) expect(check(doc, (d) => addConnection(d, { source: a!, target: b }))).toBeNull()
        expect(check(doc, (d) => removeNodes(d, [a!]))).toBeNull()
      }),
      { numRuns: 50 },
    )
  })

  it('refuses bad values with the reason the canvas shows', () => {
    const doc = new Y.Doc()
    const n = node()
    addNode(doc, n)
    const cases: [(d: Y.Doc) => void, string][] = [
      [
        (d) => updateNodeData(d, n.id, { narration: 'a\u0000b' }),
        UPDATE_REFUSAL_REASONS.invalidText,
      ],
      [
        (d) => updateNodeData(d, n.id, { narration: 'half \ud800' }),
        UPDATE_REFUSAL_REASONS.invalidText,
      ],
      [(d) => updateNodeData(d, n.id, { ['k\u0000']: 'v' }), UPDATE_REFUSAL_REASONS.invalidText],
      [
        (d) => updateNodeData(d, n.id, { big: 'x'.repeat(100 * 1024 + 1) }),
        UPDATE_REFUSAL_REASONS.textTooLong,
      ],
      [
        (d) => getNodesMap(d).get(n.id)!.set('label', 'L'.repeat(201)),
        UPDATE_REFUSAL_REASONS.invalidNode,
      ],
      [(d) => getNodesMap(d).get(n.id)!.set('type', 'audio'), UPDATE_REFUSAL_REASONS.invalidNode],
      [
        (d) => getNodesMap(d).get(n.id)!.set('position', { x: Infinity, y: 0 }),
        UPDATE_REFUSAL_REASONS.invalidNode,
      ],
      [(d) => getNodesMap(d).get(n.id)!.set('extra', 1), UPDATE_REFUSAL_REASONS.invalidNode],
      [
        (d) => getNodesMap(d).get(n.id)!.set('data', 'not a map'),
        UPDATE_REFUSAL_REASONS.invalidNode,
      ],
      [
        (d) => (getNodesMap(d).get(n.id)!.get('data') as Y.Map<unknown>).set('nested', new Y.Map()),
        UPDATE_REFUSAL_REASONS.invalidNode,
      ],
      [
        (d) => getNodesMap(d).set('Not An Id', nodeToYMap(node())),
        UPDATE_REFUSAL_REASONS.invalidNode,
      ],
      [
        (d) => d.getMap('connections').set('x->y', { source: n.id, target: n.id }),
        UPDATE_REFUSAL_REASONS.invalidConnection,
      ],
      [
        (d) => d.getMap('connections').set('wrong-key', { source: n.id, target: node().id }),
        UPDATE_REFUSAL_REASONS.invalidConnection,
      ],
      [(d) => d.getMap('editor').set('other', 'x'), UPDATE_REFUSAL_REASONS.documentShape],
      // The clock bump of before issue 14: the `saved` snapshot replaced it.
      [
        (d) => d.getMap('editor').set('deletedBy', d.clientID),
        UPDATE_REFUSAL_REASONS.documentShape,
      ],
      [(d) => d.getText('notes').insert(0, 'x'), UPDATE_REFUSAL_REASONS.documentShape],
    ]
    for (const [change, reason] of cases) {
      const copy = new Y.Doc()
      copy.getMap('nodes')
      copy.getMap('connections')
      Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc))
      expect(check(copy, change)?.reason).toBe(reason)
    }
  })

  it('tolerates a node missing a field (readers skip it), and limits only what grows', () => {
    const doc = new Y.Doc()
    const n = node()
    addNode(doc, n)
    expect(check(doc, (d) => getNodesMap(d).get(n.id)!.delete('position'))).toBeNull()

    const full = new Y.Doc()
    full.transact(() => {
      for (let i = 0; i < MAX_NODES; i++) addNode(full, node({ id: `scene-${i}-a` }))
    })
    expect(check(full, (d) => addNode(d, node()))?.reason).toBe(UPDATE_REFUSAL_REASONS.tooManyNodes)
    const over = new Y.Doc()
    over.transact(() => {
      for (let i = 0; i <= MAX_NODES; i++) addNode(over, node({ id: `scene-${i}-a` }))
    })
    // An oversized project (from before the limit) may still shrink and move.
    expect(check(over, (d) => removeNodes(d, ['scene-0-a']))).toBeNull()
    expect(check(over, (d) => moveNodes(d, new Map([['scene-1-a', { x: 9, y: 9 }]])))).toBeNull()
  })

  it('refuses a known field its node type cannot read, naming it; unknown keys stay allowed (issue 21 item 3)', () => {
    const doc = new Y.Doc()
    const video = node({ id: createNodeId('video'), type: 'video', data: { subtitles: true } })
    const generator = node({ id: createNodeId('image-generator'), type: 'image-generator' })
    addNode(doc, video)
    addNode(doc, generator)
    const maybe = check(doc, (d) => updateNodeData(d, video.id, { subtitles: 'maybe' }))
    expect(maybe?.reason).toBe(UPDATE_REFUSAL_REASONS.invalidNode)
    expect(maybe?.detail).toContain('"subtitles"')
    const wide = check(doc, (d) => updateNodeData(d, generator.id, { width: 'wide' }))
    expect(wide?.reason).toBe(UPDATE_REFUSAL_REASONS.invalidNode)
    expect(wide?.detail).toContain('"width"')
    // A new node is checked whole.
    const added = node({ id: createNodeId('video'), type: 'video', data: { preset: '4:3' } })
    expect(check(doc, (d) => addNode(d, added))?.detail).toContain('"preset"')
    // What the schema reads is fine: "false" for a boolean, a numeric string for a number,
    // and keys no node type knows.
    expect(check(doc, (d) => updateNodeData(d, video.id, { subtitles: 'false' }))).toBeNull()
    expect(check(doc, (d) => updateNodeData(d, generator.id, { width: '512' }))).toBeNull()
    expect(check(doc, (d) => updateNodeData(d, generator.id, { someday: 'wide' }))).toBeNull()
  })

  it('lets a node whose stored value does not read (from before the rule) change its other fields', () => {
    const doc = new Y.Doc()
    const generator = node({
      id: createNodeId('image-generator'),
      type: 'image-generator',
      data: { width: 'wide' },
    })
    addNode(doc, generator)
    expect(check(doc, (d) => updateNodeData(d, generator.id, { prompt: 'A bee' }))).toBeNull()
    expect(check(doc, (d) => moveNodes(d, new Map([[generator.id, { x: 3, y: 4 }]])))).toBeNull()
    expect(
      check(doc, (d) => updateNodeData(d, generator.id, { height: 'tall' }))?.detail,
    ).toContain('"height"')
  })
})
