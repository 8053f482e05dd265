import { collectVideoInputs, createGraphNode, type Graph } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { toFlowNode } from './flow-nodes'
import { canvasGraph } from './video-graph'

describe('canvasGraph', () => {
  it('gives the Video node the same scenes and input hash as the stored document (no false Stale)', () => {
    const at = { x: 0, y: 0 }
    const video = createGraphNode('video', at, [], 1, 'video-1-a')
    const scene = createGraphNode('scene', at, [], 1, 'scene-1-a')
    scene.data.narration = 'Crabs hide.'
    const generator = createGraphNode('image-generator', at, [], 1, 'image-generator-1-a')
    const image = createGraphNode('image', at, [], 1, 'image-2-a')
    image.data.imageUrl = '/api/assets/abc'
    const stored: Graph = {
      nodes: [video, scene, generator, image],
      connections: [
        { source: scene.id, target: video.id },
        { source: scene.id, target: generator.id },
        { source: generator.id, target: image.id },
      ],
    }
    const edges = stored.connections.map((c) => ({
      id: `${c.source}->${c.target}`,
      source: c.source,
      target: c.target,
    }))
    const onCanvas = collectVideoInputs(
      canvasGraph(
        stored.nodes.map((n) => toFlowNode(n)),
        edges,
      ),
      video.id,
    )
    const onServer = collectVideoInputs(stored, video.id)
    expect(onCanvas).toEqual(onServer)
    expect(onCanvas?.scenes.map((s) => s.imageUrl)).toEqual(['/api/assets/abc'])
  })
})
