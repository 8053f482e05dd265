import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { graphNodeSchema, NODE_ID_PATTERN, NODE_TYPES, type GraphNode } from './graph.ts'
import { createGraphNode, defaultNodeData, nextSceneNumber } from './node-defaults.ts'
import {
  imageGeneratorForScene,
  imageResult,
  NODE_FOOTPRINTS,
  PLACEMENT_GAP,
  placeAtNearestFreeSpot,
  placeInFreeSpace,
  scenesResult,
  scriptResult,
} from './placement.ts'

const NOW = 1_700_000_000_000

describe('node defaults', () => {
  it('every type makes a node the shared schema accepts', () => {
    for (const type of NODE_TYPES) {
      const node = createGraphNode(type, { x: 10, y: 20 })
      expect(graphNodeSchema.parse(node)).toEqual(node)
    }
  })

  it('uses the spec defaults and numbers a new scene after the highest one', () => {
    expect(defaultNodeData('editable-text')).toEqual({ content: '', sceneCount: 6 })
    const scenes = [{ type: 'scene' as const, data: { sceneNumber: '2' } }]
    expect(nextSceneNumber(scenes)).toBe(3)
    expect(createGraphNode('scene', { x: 0, y: 0 }, scenes)).toMatchObject({ label: 'Scene 3' })
  })

  it('takes a given id', () => {
    expect(createGraphNode('image', { x: 0, y: 0 }, [], NOW, 'image-1-abc').id).toBe('image-1-abc')
  })
})

describe('result placement (spec §4, §9)', () => {
  const generator = { id: 'script-generator-1-a', position: { x: 100, y: 40 } }

  it('puts the script in a "Generated Script" text node 350 to the right, connected', () => {
    const { nodes, connections } = scriptResult(generator, 'The script', NOW)
    const node = nodes[0]!
    expect(nodes).toHaveLength(1)
    expect(node).toMatchObject({
      type: 'editable-text',
      label: 'Generated Script',
      position: { x: 450, y: 40 },
      connectionPoints: 'both',
    })
    expect(node.data).toMatchObject({ content: 'The script', sceneCount: 6 })
    expect(node.id).toMatch(NODE_ID_PATTERN)
    expect(connections).toEqual([{ source: generator.id, target: node.id }])
  })

  it('puts scenes in one row 550 below the text node, 320 apart, each connected', () => {
    const text = { id: 'editable-text-1-b', position: { x: 450, y: 40 } }
    const scenes = [
      { narration: 'One', visuals: 'A hive' },
      { narration: 'Two', visuals: 'A dance' },
    ]
    const { nodes, connections } = scenesResult(text, scenes, NOW, ['scene-1-x', 'scene-1-y'])
    expect(nodes.map((n) => n.position)).toEqual([
      { x: 450, y: 590 },
      { x: 770, y: 590 },
    ])
    expect(nodes.map((n) => [n.id, n.label, n.data.sceneNumber])).toEqual([
      ['scene-1-x', 'Scene 1', '1'],
      ['scene-1-y', 'Scene 2', '2'],
    ])
    expect(connections).toEqual(nodes.map((n) => ({ source: text.id, target: n.id })))
  })

  it('puts the image in an image node 350 to the right, connected', () => {
    const gen = { id: 'image-generator-1-c', position: { x: -20, y: 600 } }
    const { nodes, connections } = imageResult(
      gen,
      { prompt: 'A bee', width: 640, height: 360 },
      { imageUrl: '/api/assets/abc' },
      NOW,
    )
    expect(nodes[0]).toMatchObject({
      type: 'image',
      position: { x: 330, y: 600 },
      data: { imageUrl: '/api/assets/abc', prompt: 'A bee', width: 640, height: 360 },
      connectionPoints: 'input',
    })
    expect(connections).toEqual([{ source: gen.id, target: nodes[0]!.id }])
  })

  it('makes an image generator below a scene with its visuals as the prompt', () => {
    const scene = { id: 'scene-1-d', position: { x: 450, y: 590 }, visuals: 'A hive at dawn' }
    const { nodes } = imageGeneratorForScene(scene, NOW)
    expect(nodes[0]).toMatchObject({
      type: 'image-generator',
      position: { x: 450, y: 1040 },
      data: { prompt: 'A hive at dawn', promptFromScene: 'true' },
    })
  })
})

describe('placeInFreeSpace (issue 12: never on top of a node)', () => {
  const node = (id: string, type: GraphNode['type'], x: number, y: number) =>
    createGraphNode(type, { x, y }, [], NOW, id)
  const generator = node('script-generator-1-a', 'script-generator', 100, 40)

  it('keeps the spec position when nothing is in the way', () => {
    const addition = scriptResult(generator, 'S', NOW)
    expect(placeInFreeSpace(addition, [generator])).toBe(addition)
  })

  it('moves a second script below the first result of the same generator', () => {
    const first = scriptResult(generator, 'one', NOW, ['editable-text-1-first'])
    const second = placeInFreeSpace(scriptResult(generator, 'two', NOW, ['editable-text-1-two']), [
      generator,
      ...first.nodes,
    ])
    const y = 40 + NODE_FOOTPRINTS['editable-text'].height + PLACEMENT_GAP
    expect(second.nodes[0]!.position).toEqual({ x: 450, y })
    expect(second.connections).toEqual([{ source: generator.id, target: 'editable-text-1-two' }])
  })

  it('moves a whole scene row below anything it would cover, keeping its spacing', () => {
    const text = node('editable-text-1-t', 'editable-text', 0, 0)
    const blocker = node('image-1-b', 'image', 700, 600)
    const row = scenesResult(
      text,
      [1, 2, 3].map(() => ({ narration: 'n', visuals: 'v' })),
      NOW,
    )
    const placed = placeInFreeSpace(row, [text, blocker])
    const y = 600 + NODE_FOOTPRINTS.image.height + PLACEMENT_GAP
    expect(placed.nodes.map((n) => n.position)).toEqual([
      { x: 0, y },
      { x: 320, y },
      { x: 640, y },
    ])
  })

  it('ignores an earlier copy of the same nodes (a result written again)', () => {
    const addition = scriptResult(generator, 'S', NOW, ['editable-text-1-same'])
    expect(placeInFreeSpace(addition, [generator, ...addition.nodes])).toBe(addition)
  })

  it('never overlaps any node, wherever the nodes are', () => {
    // A dense random canvas: the placed nodes' boxes share no area with any other node's.
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2000
    const existing = Array.from({ length: 200 }, (_, i) =>
      node(`scene-1-n${i}`, NODE_TYPES[i % NODE_TYPES.length]!, random(), random()),
    )
    const text = existing[2]!
    const placed = placeInFreeSpace(
      scenesResult(
        text,
        [1, 2, 3, 4].map(() => ({ narration: 'n', visuals: 'v' })),
        NOW,
      ),
      existing,
    )
    for (const a of placed.nodes) {
      const sa = NODE_FOOTPRINTS[a.type]
      for (const b of existing) {
        const sb = NODE_FOOTPRINTS[b.type]
        const apart =
          a.position.x + sa.width <= b.position.x ||
          b.position.x + sb.width <= a.position.x ||
          a.position.y + sa.height <= b.position.y ||
          b.position.y + sb.height <= a.position.y
        expect(apart).toBe(true)
      }
    }
  })
})

describe('placeAtNearestFreeSpot (issue 14 item 2)', () => {
  const at = (id: string, x: number, y: number) =>
    createGraphNode('scene', { x, y }, [], 0, `scene-1-${id}`)

  it('keeps a free place, and moves a covered one to the nearest free place', () => {
    const lone = { nodes: [at('a', 0, 0)], connections: [] }
    expect(placeAtNearestFreeSpot(lone, [])).toBe(lone)
    const blocker = at('b', 0, 0)
    const placed = placeAtNearestFreeSpot(lone, [blocker]).nodes[0]!
    // The nearest spot clear of the blocker and its gap: one footprint plus a gap away.
    const { width, height } = NODE_FOOTPRINTS.scene
    const dx = Math.abs(placed.position.x)
    const dy = Math.abs(placed.position.y)
    expect(dx >= width + PLACEMENT_GAP || dy >= height + PLACEMENT_GAP).toBe(true)
    expect(Math.max(dx, dy)).toBeLessThanOrEqual(height + 2 * PLACEMENT_GAP)
  })

  it('never overlaps a node, for any crowd and any paste of several nodes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            x: fc.integer({ min: -2000, max: 2000 }),
            y: fc.integer({ min: -2000, max: 2000 }),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 4 }),
        (spots, count) => {
          const existing = spots.map((p, i) => at(`e${i}`, p.x, p.y))
          const addition = {
            nodes: Array.from({ length: count }, (_, i) => at(`n${i}`, i * 340, 0)),
            connections: [],
          }
          const placed = placeAtNearestFreeSpot(addition, existing)
          for (const node of placed.nodes) {
            for (const other of existing) {
              const a = node.position
              const b = other.position
              const { width, height } = NODE_FOOTPRINTS.scene
              const apart =
                a.x + width <= b.x ||
                b.x + width <= a.x ||
                a.y + height <= b.y ||
                b.y + height <= a.y
              expect(apart).toBe(true)
            }
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('uses a measured size over the nominal footprint', () => {
    const tall = { ...at('t', 0, 0), size: { width: 300, height: 2000 } }
    const placed = placeAtNearestFreeSpot({ nodes: [at('n', 0, 500)], connections: [] }, [tall])
    const p = placed.nodes[0]!.position
    expect(p.x >= 300 || p.x + NODE_FOOTPRINTS.scene.width <= 0 || p.y >= 2000).toBe(true)
  })
})
