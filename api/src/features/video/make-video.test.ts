import { readdir } from 'node:fs/promises'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { decodeWav } from '@reelgraph/media'
import {
  collectVideoInputs,
  createGraphNode,
  type GraphNode,
  JOB_DATA_KEYS,
  makeVideoCost,
  NODE_FOOTPRINTS,
  videoTakesOf,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs as job, liveGraph } from '../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until as poll } from '../../testing/until.ts'
import { renderDirs } from './render-scenes.ts'
import { itRendersOn } from '../../testing/renders.ts'

/**
 * "Make video" (issue 13 item 6) end to end on each database, with the builtin providers:
 * one call, one job, one charge; the worker writes script, scenes, image generators, images
 * and a Video node into the project and renders it. And the scene play button's preview.
 */

const COSTS = {
  COST_SCRIPT: '1',
  COST_SCENES: '1',
  COST_IMAGE: '2',
  COST_VOICE: '1',
  COST_VIDEO: '3',
}
const costs = { script: 1, scenes: 1, image: 2, voice: 1, video: 3 }
const CHAIN_DONE_MS = 150_000

const finished = (t: TestApp, user: TestUser, id: string) =>
  poll(
    () => job(t, user, id),
    (j) => j.status !== 'queued' && j.status !== 'running',
    CHAIN_DONE_MS,
  )

/** A project with one Script Generator (its topic `topic`), and a node beside it. */
async function project(t: TestApp, owner: TestUser, topic: string) {
  const projectId = await createProjectAs(t, owner, 'Bees')
  const generator = createGraphNode('script-generator', { x: 0, y: 0 })
  generator.data.topic = topic
  // In the way of where the script would go: the chain must go around it.
  const other = createGraphNode('scene', { x: 400, y: 600 })
  other.data.narration = 'A scene of my own.'
  await t.deps.documents.applyGraph(projectId, { nodes: [generator, other], connections: [] })
  return { projectId, generator, other }
}

function overlapping(nodes: readonly GraphNode[]): [string, string][] {
  const box = (n: GraphNode) => ({
    left: n.position.x,
    top: n.position.y,
    right: n.position.x + NODE_FOOTPRINTS[n.type].width,
    bottom: n.position.y + NODE_FOOTPRINTS[n.type].height,
  })
  const pairs: [string, string][] = []
  for (const [i, a] of nodes.entries()) {
    for (const b of nodes.slice(i + 1)) {
      const p = box(a)
      const q = box(b)
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
        pairs.push([a.id, b.id])
      }
    }
  }
  return pairs
}

describe.each(testDatabaseKinds())('make video on $name', (kind) => {
  // Its renders run on one database kind (`costlyTestsRunOn`), its other tests on each.
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let workDir: string
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
    workDir = renderDirs(t.deps.env).work
  })
  afterAll(() => t.close())

  itRenders(
    'turns a topic into a script, scenes, an image each and a rendered video, charged once, laid out without overlaps',
    async () => {
      const owner = await addUser(t, 'Ada', { credits: 20 })
      const { projectId, generator, other } = await project(t, owner, 'How bees make honey')
      const cost = makeVideoCost(costs, 2)
      expect(cost).toBe(11)

      const res = await t.request('POST', '/api/video/make', {
        body: { projectId, nodeId: generator.id, sceneCount: 2, preset: '9:16' },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      expect(await balance(t, owner.id)).toBe(20 - cost)

      const done = await finished(t, owner, jobId)
      expect(done).toMatchObject({ kind: 'make-video', status: 'succeeded', cost, refunded: 0 })
      const graph = await poll(
        () => liveGraph(t, projectId),
        (g) => g.nodes.some((n) => n.type === 'video' && n.data.videoUrl),
        CHAIN_DONE_MS,
      )
      const byId = new Map(graph.nodes.map((n) => [n.id, n]))
      const from = (id: string) =>
        graph.connections.filter((c) => c.source === id).map((c) => byId.get(c.target)!)

      // generator -> text (the script) -> 2 scenes, and text -> Video.
      const [text, ...more] = from(generator.id)
      expect(more).toEqual([])
      expect(text).toMatchObject({ type: 'editable-text', label: 'Generated Script' })
      expect(String(text!.data.content)).not.toBe('')
      const fromText = from(text!.id)
      const scenes = fromText.filter((n) => n.type === 'scene')
      expect(scenes.map((s) => s.data.sceneNumber).sort()).toEqual(['1', '2'])
      const video = fromText.find((n) => n.type === 'video')!
      expect(video.data.preset).toBe('9:16')
      // scene -> image generator -> image, with the image stored.
      for (const scene of scenes) {
        const [imageGenerator] = from(scene.id)
        expect(imageGenerator?.type).toBe('image-generator')
        const [image] = from(imageGenerator!.id)
        expect(image?.data.imageUrl).toMatch(/^\/api\/assets\//)
        // Drawn at the render's own frame size (issue 20 item 4).
        expect(image?.data).toMatchObject({ width: 1080, height: 1920 })
      }
      // The result on the Video node, one take; the chain's end on the generator.
      const takes = videoTakesOf(video.data)
      expect(takes).toHaveLength(1)
      expect(takes[0]).toMatchObject({ mp4Url: video.data.videoUrl, preset: '9:16' })
      expect(byId.get(generator.id)!.data[JOB_DATA_KEYS.status]).toBe('succeeded')
      // Nothing covers anything: not the chain's nodes, not the node that was in the way.
      expect(overlapping(graph.nodes)).toEqual([])
      expect(byId.get(other.id)!.position).toEqual(other.position)

      // The MP4 is there for members; a stranger gets 404 on the asset and on the call.
      const mp4 = await t.request('GET', String(video.data.videoUrl), {
        cookie: owner.cookie,
        headers: { Range: 'bytes=0-99' },
      })
      expect(mp4.status).toBe(206)
      const stranger = await addUser(t, 'Stan', { credits: 20 })
      const denied = await t.request('POST', '/api/video/make', {
        body: { projectId, nodeId: generator.id, sceneCount: 2, preset: '16:9' },
        cookie: stranger.cookie,
      })
      expect(denied.status).toBe(404)
      expect(await balance(t, stranger.id)).toBe(20)

      // Rendering the Video node again adds a take in front.
      const again = await t.request('POST', '/api/video/render', {
        body: { projectId, nodeId: video.id },
        cookie: owner.cookie,
      })
      expect(again.status).toBe(202)
      const second = await finished(t, owner, (await again.json()).jobId)
      expect(second.status).toBe('succeeded')
      const after = await poll(
        () => liveGraph(t, projectId),
        (g) => videoTakesOf(g.nodes.find((n) => n.id === video.id)!.data).length === 2,
        CHAIN_DONE_MS,
      )
      const [newest, older] = videoTakesOf(after.nodes.find((n) => n.id === video.id)!.data)
      expect(newest!.mp4Url).toBe((second.result as { mp4Url: string }).mp4Url)
      expect(older!.mp4Url).toBe(takes[0]!.mp4Url)
      expect(await readdir(workDir)).toEqual([])
    },
    CHAIN_DONE_MS * 2,
  )

  it(
    'a cancel during the render refunds the steps not delivered (voices and render) and keeps the images',
    async () => {
      const owner = await addUser(t, 'Cal', { credits: 20 })
      const { projectId, generator } = await project(t, owner, 'Tide pools at dawn')
      const res = await t.request('POST', '/api/video/make', {
        body: { projectId, nodeId: generator.id, sceneCount: 2, preset: '16:9' },
        cookie: owner.cookie,
      })
      const { jobId } = await res.json()
      await poll(
        () => job(t, owner, jobId),
        (j) =>
          (j.status !== 'queued' && j.status !== 'running') ||
          /^Voices|^Rendering scenes/.test(j.stage ?? ''),
        CHAIN_DONE_MS,
      )
      const cancel = await t.request('POST', `/api/jobs/${jobId}/cancel`, { cookie: owner.cookie })
      expect(cancel.status).toBe(200)
      const cancelled = await finished(t, owner, jobId)
      expect(cancelled.status).toBe('cancelled')
      const notDelivered = costs.voice * 2 + costs.video
      expect(cancelled.refunded).toBe(notDelivered)
      expect(await balance(t, owner.id)).toBe(20 - makeVideoCost(costs, 2) + notDelivered)
      const graph = await liveGraph(t, projectId)
      expect(graph.nodes.filter((n) => n.type === 'image' && n.data.imageUrl)).toHaveLength(2)
      await poll(
        () => readdir(workDir),
        (entries) => entries.length === 0,
        // A still being made when the cancel came is finished first (longer beside another render).
        30_000,
      )
    },
    CHAIN_DONE_MS * 2,
  )

  it('refuses a missing topic (400), what the user cannot pay (402) and a viewer (403), charging nothing', async () => {
    const owner = await addUser(t, 'Mo', { credits: 20 })
    const empty = await project(t, owner, '')
    const noTopic = await t.request('POST', '/api/video/make', {
      body: {
        projectId: empty.projectId,
        nodeId: empty.generator.id,
        sceneCount: 2,
        preset: '16:9',
      },
      cookie: owner.cookie,
    })
    expect(noTopic.status).toBe(400)
    expect((await noTopic.json()).error.message).toBe('Please enter a topic for your video')

    const full = await project(t, owner, 'Volcanoes')
    const tooDear = await t.request('POST', '/api/video/make', {
      body: {
        projectId: full.projectId,
        nodeId: full.generator.id,
        sceneCount: 25,
        preset: '16:9',
      },
      cookie: owner.cookie,
    })
    expect(tooDear.status).toBe(402)
    const badCount = await t.request('POST', '/api/video/make', {
      body: { projectId: full.projectId, nodeId: full.generator.id, sceneCount: 0, preset: '16:9' },
      cookie: owner.cookie,
    })
    expect(badCount.status).toBe(400)

    const viewer = await addUser(t, 'Vi', { credits: 20 })
    await addMember(t, full.projectId, viewer.id, 'viewer')
    const asViewer = await t.request('POST', '/api/video/make', {
      body: { projectId: full.projectId, nodeId: full.generator.id, sceneCount: 1, preset: '16:9' },
      cookie: viewer.cookie,
    })
    expect(asViewer.status).toBe(403)
    expect(await balance(t, owner.id)).toBe(20)
    expect(await balance(t, viewer.id)).toBe(20)
  })

  it('previews a scene’s narration as a WAV for members (viewers too), 404 for strangers, 400 when it is empty', async () => {
    const owner = await addUser(t, 'Pia', { credits: 20 })
    const { projectId, other } = await project(t, owner, 'Owls')
    const viewer = await addUser(t, 'Vern')
    await addMember(t, projectId, viewer.id, 'viewer')
    const res = await t.request('POST', '/api/video/narration-preview', {
      body: { projectId, nodeId: other.id },
      cookie: viewer.cookie,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/wav')
    const pcm = decodeWav(Buffer.from(await res.arrayBuffer()))
    const durationMs = (pcm.samples.length / pcm.sampleRate) * 1000
    expect(durationMs).toBeGreaterThan(500)
    expect(Math.abs(durationMs - Number(res.headers.get('x-duration-ms')))).toBeLessThan(50)
    const peak = pcm.samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0)
    expect(peak).toBeGreaterThan(1000)

    const stranger = await addUser(t, 'Sid')
    const denied = await t.request('POST', '/api/video/narration-preview', {
      body: { projectId, nodeId: other.id },
      cookie: stranger.cookie,
    })
    expect(denied.status).toBe(404)
    const silent = createGraphNode('scene', { x: 0, y: 2000 })
    await t.deps.documents.applyGraph(projectId, {
      nodes: [...(await liveGraph(t, projectId)).nodes, silent],
      connections: [],
    })
    const empty = await t.request('POST', '/api/video/narration-preview', {
      body: { projectId, nodeId: silent.id },
      cookie: owner.cookie,
    })
    expect(empty.status).toBe(400)
    expect((await empty.json()).error.message).toContain('no narration')
  })

  itRenders(
    'animates each scene with the offline motion draft: a Video Generator and a Clip per scene, priced in the one total, rendered from the clips (issue 22 item 4)',
    async () => {
      const owner = await addUser(t, 'Lumiere', { credits: 80 })
      const { projectId, generator } = await project(t, owner, 'How tides turn')
      const model = t.deps.catalog.video('builtin:motion-draft')!.model
      const cost = makeVideoCost(costs, 2, model)
      expect(cost).toBeGreaterThan(makeVideoCost(costs, 2))

      const res = await t.request('POST', '/api/video/make', {
        body: {
          projectId,
          nodeId: generator.id,
          sceneCount: 2,
          preset: '16:9',
          animate: { modelId: model.id },
        },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      expect(await balance(t, owner.id)).toBe(80 - cost)
      const done = await finished(t, owner, (await res.json()).jobId)
      expect(done).toMatchObject({ status: 'succeeded', cost, refunded: 0 })

      const graph = await liveGraph(t, projectId)
      const byId = new Map(graph.nodes.map((n) => [n.id, n]))
      const from = (id: string) =>
        graph.connections.filter((c) => c.source === id).map((c) => byId.get(c.target)!)
      const scenes = graph.nodes.filter((n) => n.type === 'scene' && n.id.includes('-'))
      const chainScenes = scenes.filter((n) => from(n.id).some((m) => m.type === 'video-generator'))
      expect(chainScenes).toHaveLength(2)
      for (const scene of chainScenes) {
        const videoGenerator = from(scene.id).find((n) => n.type === 'video-generator')!
        expect(videoGenerator.data).toMatchObject({ modelId: model.id, aspectRatio: '16:9' })
        const clip = from(videoGenerator.id).find((n) => n.type === 'clip')!
        expect(clip.data.videoUrl).toMatch(/^\/api\/assets\//)
        expect(Number(clip.data.durationMs)).toBeGreaterThan(0)
      }
      // The Video node takes each scene as its clip, and rendered them.
      const video = graph.nodes.find((n) => n.type === 'video')!
      const inputs = collectVideoInputs(graph, video.id)!
      expect(inputs.scenes.every((scene) => scene.clip?.modelId === model.id)).toBe(true)
      expect(videoTakesOf(video.data)[0]?.inputHash).toBe(inputs.hash)
      expect(overlapping(graph.nodes)).toEqual([])
    },
    2 * CHAIN_DONE_MS,
  )

  it('refuses to animate with a model that is not listed or does not start from an image, charging nothing', async () => {
    const owner = await addUser(t, 'Melies', { credits: 80 })
    const { projectId, generator } = await project(t, owner, 'How tides turn')
    const make = (modelId: string) =>
      t.request('POST', '/api/video/make', {
        body: {
          projectId,
          nodeId: generator.id,
          sceneCount: 1,
          preset: '16:9',
          animate: { modelId },
        },
        cookie: owner.cookie,
      })
    const unknown = await make('fal:fal-ai/no-such-model')
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error.message).toContain('not available')
    expect(await balance(t, owner.id)).toBe(80)
  })
})
