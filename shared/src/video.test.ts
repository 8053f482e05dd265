import { describe, expect, it } from 'vitest'
import type { Graph, GraphNode } from './graph.ts'
import { defaultNodeData } from './node-defaults.ts'
import { collectVideoInputs, videoRenderCost } from './video.ts'

function node(id: string, type: GraphNode['type'], data: GraphNode['data'] = {}): GraphNode {
  return {
    id,
    type,
    label: id,
    position: { x: 0, y: 0 },
    data: { ...defaultNodeData(type), ...data },
    connectionPoints: 'both',
  }
}

/** Text -> scenes 2, 10, 1; scenes 1 and 10 have image generator -> image; video <- text. */
function graph(): Graph {
  return {
    nodes: [
      node('video-1-a', 'video'),
      node('editable-text-1-a', 'editable-text'),
      node('scene-1-a', 'scene', { sceneNumber: '10', narration: 'Ten.' }),
      node('scene-1-b', 'scene', { sceneNumber: '2', narration: 'Two.' }),
      node('scene-1-c', 'scene', { sceneNumber: '1', narration: 'One.' }),
      node('image-generator-1-a', 'image-generator'),
      node('image-5-a', 'image', { imageUrl: '/api/assets/a' }),
      node('image-generator-1-c', 'image-generator'),
      node('image-5-c', 'image', { imageUrl: '/api/assets/c-old' }),
      node('image-9-c', 'image', { imageUrl: '/api/assets/c-new' }),
    ],
    connections: [
      { source: 'editable-text-1-a', target: 'video-1-a' },
      { source: 'editable-text-1-a', target: 'scene-1-a' },
      { source: 'editable-text-1-a', target: 'scene-1-b' },
      { source: 'editable-text-1-a', target: 'scene-1-c' },
      { source: 'scene-1-a', target: 'image-generator-1-a' },
      { source: 'image-generator-1-a', target: 'image-5-a' },
      { source: 'scene-1-c', target: 'image-generator-1-c' },
      { source: 'image-generator-1-c', target: 'image-5-c' },
      { source: 'image-generator-1-c', target: 'image-9-c' },
    ],
  }
}

describe('collectVideoInputs', () => {
  it('takes a connected text node’s scenes in numeric sceneNumber order with their newest image', () => {
    const inputs = collectVideoInputs(graph(), 'video-1-a')!
    expect(inputs.scenes.map((s) => [s.sceneNumber, s.narration, s.imageUrl])).toEqual([
      ['1', 'One.', '/api/assets/c-new'],
      ['2', 'Two.', null],
      ['10', 'Ten.', '/api/assets/a'],
    ])
    expect(inputs.missing.map((s) => s.nodeId)).toEqual(['scene-1-b'])
    expect(inputs.settings).toEqual({
      preset: '16:9',
      voice: '',
      subtitles: true,
      music: false,
      // Issue 22 item 4: how the scenes that are clips render.
      clipFit: 'cover',
      clipShorter: 'hold',
      clipSound: 'off',
    })
  })

  it('takes scenes connected directly, each once, and changes its hash when an input changes', () => {
    const g = graph()
    g.connections.push({ source: 'scene-1-a', target: 'video-1-a' })
    const before = collectVideoInputs(g, 'video-1-a')!
    expect(before.scenes).toHaveLength(3)
    expect(collectVideoInputs(g, 'video-1-a')!.hash).toBe(before.hash)
    g.nodes.find((n) => n.id === 'scene-1-b')!.data.narration = 'Two, edited.'
    expect(collectVideoInputs(g, 'video-1-a')!.hash).not.toBe(before.hash)
    g.nodes.find((n) => n.id === 'video-1-a')!.data.preset = '1:1'
    expect(collectVideoInputs(g, 'video-1-a')!.settings.preset).toBe('1:1')
  })

  it('answers null for a node that is not a Video node, and costs video + voice per scene', () => {
    expect(collectVideoInputs(graph(), 'scene-1-a')).toBeNull()
    expect(videoRenderCost({ voice: 1, video: 5 }, 3)).toBe(8)
  })
})
