import { graphNodeSchema, NODE_TYPES } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { createGraphNode, defaultNodeData, LIBRARY_ENTRIES, nextSceneNumber } from './node-defaults'

describe('node defaults', () => {
  it('every type makes a node the shared schema accepts', () => {
    for (const type of NODE_TYPES) {
      const node = createGraphNode(type, { x: 10, y: 20 })
      expect(graphNodeSchema.parse(node)).toEqual(node)
    }
  })

  it('uses the spec defaults (§9 Script choices, Image defaults; §5 scene count)', () => {
    expect(defaultNodeData('script-generator')).toEqual({
      topic: '',
      style: 'Professional',
      tone: 'Conversational',
      format: 'Explainer',
    })
    expect(defaultNodeData('editable-text')).toEqual({ content: '', sceneCount: 6 })
    expect(defaultNodeData('image-generator')).toMatchObject({
      width: 1280,
      height: 720,
      numInferenceSteps: 25,
      guidanceScale: 7.5,
      seed: '',
      promptFromScene: 'false',
    })
  })

  it('numbers a new scene after the highest one', () => {
    const scenes = [
      { type: 'scene' as const, data: { sceneNumber: '2' } },
      { type: 'scene' as const, data: { sceneNumber: 'x' } },
      { type: 'editable-text' as const, data: { sceneNumber: '9' } },
    ]
    expect(nextSceneNumber(scenes)).toBe(3)
    const node = createGraphNode('scene', { x: 0, y: 0 }, scenes)
    expect(node).toMatchObject({ label: 'Scene 3', data: { sceneNumber: '3' } })
  })

  it('lists only script generator, scene and text node in the library (spec §2)', () => {
    expect(LIBRARY_ENTRIES.map((e) => e.type)).toEqual([
      'script-generator',
      'scene',
      'editable-text',
    ])
  })
})
