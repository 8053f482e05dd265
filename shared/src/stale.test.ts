import { describe, expect, it } from 'vitest'
import type { Connection, GraphNode } from './graph.ts'
import { createGraphNode } from './node-defaults.ts'
import { generatorInputHash, graphStaleness, nodeStaleness, planRun, showsStale } from './stale.ts'

/** scene -> image generator -> image -> video generator (-> clip), scene -> Video. */
function graph() {
  let x = 0
  const at = () => ({ x: (x += 500), y: 0 })
  const scene = createGraphNode('scene', at(), [], 1_700_000_000_000)
  Object.assign(scene.data, { narration: 'The tide turns.', visuals: 'A rock pool at dawn' })
  const imageGen = createGraphNode('image-generator', at(), [], 1_700_000_000_001)
  Object.assign(imageGen.data, { prompt: 'A rock pool at dawn', promptFromScene: 'true' })
  const image = createGraphNode('image', at(), [], 1_700_000_000_002)
  image.data.imageUrl = '/api/assets/1'
  const videoGen = createGraphNode('video-generator', at(), [], 1_700_000_000_003)
  Object.assign(videoGen.data, {
    prompt: 'A rock pool at dawn',
    promptFromScene: 'true',
    modelId: 'fal:x',
    imageUrl: '/api/assets/1',
  })
  const video = createGraphNode('video', at(), [], 1_700_000_000_004)
  const nodes: GraphNode[] = [scene, imageGen, image, videoGen, video]
  const connections: Connection[] = [
    { source: scene.id, target: imageGen.id },
    { source: imageGen.id, target: image.id },
    { source: scene.id, target: videoGen.id },
    { source: videoGen.id, target: image.id },
    { source: scene.id, target: video.id },
  ]
  return { nodes, connections, scene, imageGen, image, videoGen, video }
}

/** Every generator stamped current (as their results' writes do). */
function current(g: ReturnType<typeof graph>) {
  for (const node of [g.imageGen, g.videoGen]) {
    node.data.resultInputHash = generatorInputHash(g, node.id)!
  }
  g.video.data.videoTakes = JSON.stringify([
    {
      mp4Url: '/api/assets/9',
      srtUrl: '',
      vttUrl: '',
      durationMs: 1000,
      inputHash: generatorInputHash(g, g.video.id),
      renderedAt: '',
      preset: '16:9',
    },
  ])
}

describe('stale generators (issue 42 item 4)', () => {
  it('never run: stale, without a label; once stamped: current', () => {
    const g = graph()
    const before = graphStaleness(g)
    expect([...before.values()].every((s) => s.stale && !showsStale(s))).toBe(true)
    current(g)
    expect([...graphStaleness(g).values()].some((s) => s.stale)).toBe(false)
    expect(planRun(g, { scope: 'stale' })).toEqual({ nodes: [], skipped: [] })
  })

  it('a scene’s visuals make its image, its clip and the render run, in that order', () => {
    const g = graph()
    current(g)
    g.scene.data.visuals = 'A storm over the rock pool'
    expect(showsStale(nodeStaleness(g, g.imageGen.id)!)).toBe(true)
    const plan = planRun(g, { scope: 'stale' })
    expect(plan.nodes).toEqual([
      { nodeId: g.imageGen.id, type: 'image-generator', waitsFor: [] },
      { nodeId: g.videoGen.id, type: 'video-generator', waitsFor: [g.imageGen.id] },
      { nodeId: g.video.id, type: 'video', waitsFor: [g.imageGen.id, g.videoGen.id].sort() },
    ])
  })

  it('a narration makes only the render run; a busy or unrunnable node is left out with why', () => {
    const g = graph()
    current(g)
    g.scene.data.narration = 'The tide turns again.'
    expect(planRun(g, { scope: 'stale' }).nodes.map((n) => n.nodeId)).toEqual([g.video.id])
    g.scene.data.visuals = 'A storm'
    const busy = planRun(g, { scope: 'stale', busy: new Set([g.imageGen.id]) })
    expect(busy.skipped).toContainEqual({
      nodeId: g.imageGen.id,
      type: 'image-generator',
      reason: 'its last run has not finished yet',
    })
    g.videoGen.data.modelId = ''
    const noModel = planRun(g, { scope: 'stale', nodeIds: [g.videoGen.id] })
    expect(noModel).toEqual({
      nodes: [],
      skipped: [{ nodeId: g.videoGen.id, type: 'video-generator', reason: 'has no video model' }],
    })
  })

  it('a redrawn picture is the clip’s new start image', () => {
    const g = graph()
    current(g)
    const newer = createGraphNode('image', { x: 0, y: 900 }, [], 1_800_000_000_000)
    newer.data.imageUrl = '/api/assets/2'
    g.nodes.push(newer)
    g.connections.push({ source: g.imageGen.id, target: newer.id })
    expect(nodeStaleness(g, g.videoGen.id)!.stale).toBe(true)
    expect(nodeStaleness(g, g.imageGen.id)!.stale).toBe(false)
  })
})
