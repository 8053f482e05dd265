import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  collectVideoInputs,
  createGraphNode,
  type GraphNode,
  JOB_DATA_KEYS,
  updateNodeData,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs as job, liveGraph } from '../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { solidPng } from '../generation/providers/testing/images.ts'
import { until as poll } from '../../testing/until.ts'
import { renderDirs } from './render-scenes.ts'
import { itRendersOn } from '../../testing/renders.ts'

/**
 * Video renders as jobs (issue 13 item 4), end to end on each database: the route collects
 * the scenes from the live document, the in-process worker narrates them with the builtin
 * voice and renders with media's renderer (the machine's ffmpeg), the files are assets.
 */

const run = promisify(execFile)
/** A render of three short scenes takes a few seconds; leave room on a busy machine. */
const RENDER_DONE_MS = 90_000
const RENDER_TEST_MS = 120_000
const COSTS = { COST_VIDEO: '3', COST_VOICE: '2' }
/** 3 + 2 x 3 scenes. */
const RENDER_COST = 9

/**
 * A project "Tide pools" with a text node -> three scenes (numbered 3, 1, 2 on purpose), a
 * video node connected to the text node, and scene -> image generator -> image for the scenes
 * in `withImages` (small PNGs stored as the project's assets). Other `words` make other
 * narrations and images, so nothing comes from the renderer's segment cache.
 */
async function project(t: TestApp, owner: TestUser, withImages = [1, 2, 3], words = 'Crabs hide.') {
  const projectId = await createProjectAs(t, owner, 'Tide pools')
  let x = 0
  const at = () => ({ x: (x += 500), y: 0 })
  const text = createGraphNode('editable-text', at())
  const video = createGraphNode('video', at())
  const nodes: GraphNode[] = [text, video]
  const connections = [{ source: text.id, target: video.id }]
  for (const number of [3, 1, 2]) {
    const scene = createGraphNode('scene', at(), nodes)
    scene.data.sceneNumber = String(number)
    scene.data.narration = `Scene ${number}. ${words}`
    nodes.push(scene)
    connections.push({ source: text.id, target: scene.id })
    if (!withImages.includes(number)) continue
    const stored = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId,
      image: { bytes: await solidPng(320 + words.length, 180), mimeType: 'image/png' },
    })
    const generator = createGraphNode('image-generator', at())
    const image = createGraphNode('image', at())
    image.data.imageUrl = stored.url
    nodes.push(generator, image)
    connections.push(
      { source: scene.id, target: generator.id },
      { source: generator.id, target: image.id },
    )
  }
  await t.deps.documents.applyGraph(projectId, { nodes, connections })
  return { projectId, video, scenes: nodes.filter((n) => n.type === 'scene') }
}

describe.each(testDatabaseKinds())('video renders on $name', (kind) => {
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
    'renders three scenes in sceneNumber order into an H.264/AAC MP4 with SRT and VTT on the Video node; strangers get 404, Range 206',
    async () => {
      const owner = await addUser(t, 'Olive', { credits: 20 })
      const { projectId, video } = await project(t, owner)

      const res = await t.request('POST', '/api/video/render', {
        body: { projectId, nodeId: video.id },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      expect(await balance(t, owner.id)).toBe(20 - RENDER_COST)

      const done = await until(
        () => job(t, owner, jobId),
        (j) => j.status !== 'queued' && j.status !== 'running',
      )
      expect(done).toMatchObject({ kind: 'video', status: 'succeeded', cost: RENDER_COST })
      const result = done.result as Record<string, string | number>
      const graph = await until(
        () => liveGraph(t, projectId),
        (g) => g.nodes.some((n) => n.id === video.id && n.data.videoUrl),
      )
      const node = graph.nodes.find((n) => n.id === video.id)!
      expect(node.data).toMatchObject({
        videoUrl: result.mp4Url,
        videoSrtUrl: result.srtUrl,
        videoVttUrl: result.vttUrl,
        videoDurationMs: result.durationMs,
        // What the canvas computes from the same document: not Stale right after the render.
        videoInputHash: collectVideoInputs(graph, video.id)!.hash,
        [JOB_DATA_KEYS.status]: 'succeeded',
      })

      // The MP4, downloaded as <project name>.mp4, is H.264 + AAC of the renderer's length.
      const mp4 = await t.request('GET', `${result.mp4Url}?download=1`, { cookie: owner.cookie })
      expect(mp4.status).toBe(200)
      expect(mp4.headers.get('content-type')).toBe('video/mp4')
      expect(mp4.headers.get('content-disposition')).toContain('filename="Tide pools.mp4"')
      const bytes = new Uint8Array(await mp4.arrayBuffer())
      const dir = await mkdtemp(join(tmpdir(), 'reelgraph-video-test-'))
      try {
        await writeFile(join(dir, 'v.mp4'), bytes)
        const { stdout } = await run('ffprobe', [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_type,codec_name:format=duration',
          '-of',
          'json',
          join(dir, 'v.mp4'),
        ])
        const probe = JSON.parse(stdout) as {
          streams: { codec_type: string; codec_name: string }[]
          format: { duration: string }
        }
        expect(probe.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual([
          'audio:aac',
          'video:h264',
        ])
        expect(
          Math.abs(Number(probe.format.duration) * 1000 - Number(result.durationMs)),
        ).toBeLessThanOrEqual(100)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }

      // Subtitles: cues of the three scenes, in order.
      const srt = await t.request('GET', `${result.srtUrl}?download=1`, { cookie: owner.cookie })
      expect(srt.headers.get('content-disposition')).toContain('filename="Tide pools.srt"')
      const srtText = await srt.text()
      expect(srtText.indexOf('Scene 1')).toBeLessThan(srtText.indexOf('Scene 2'))
      expect(srtText.indexOf('Scene 2')).toBeLessThan(srtText.indexOf('Scene 3'))
      const vtt = await t.request('GET', String(result.vttUrl), { cookie: owner.cookie })
      expect(await vtt.text()).toMatch(/^WEBVTT/)

      // Range: the bytes asked for, 416 past the end; a stranger sees nothing.
      const part = await t.request('GET', String(result.mp4Url), {
        cookie: owner.cookie,
        headers: { Range: 'bytes=100-199' },
      })
      expect(part.status).toBe(206)
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.byteLength}`)
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200))
      const past = await t.request('GET', String(result.mp4Url), {
        cookie: owner.cookie,
        headers: { Range: `bytes=${bytes.byteLength}-` },
      })
      expect(past.status).toBe(416)
      const stranger = await addUser(t, 'Stan')
      const denied = await t.request('GET', String(result.mp4Url), { cookie: stranger.cookie })
      expect(denied.status).toBe(404)

      expect(await readdir(workDir)).toEqual([])
    },
    RENDER_TEST_MS,
  )

  it('answers 400 listing the scenes without an image, and charges nothing', async () => {
    const owner = await addUser(t, 'Mia', { credits: 20 })
    const { projectId, video, scenes } = await project(t, owner, [2])
    const res = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId: video.id },
      cookie: owner.cookie,
    })
    expect(res.status).toBe(400)
    const { error } = await res.json()
    expect(error.message).toContain('Scenes without an image: 1, 3.')
    const missing = scenes.filter((s) => s.data.sceneNumber !== '2').map((s) => s.id)
    expect(Object.keys(error.fields).sort()).toEqual(missing.sort())
    expect(await balance(t, owner.id)).toBe(20)
  })

  it('fails an unknown voice with words a person can act on, refunded whole', async () => {
    const owner = await addUser(t, 'Val', { credits: 20 })
    const { projectId, video } = await project(t, owner)
    await t.deps.documents.transact(projectId, (doc, origin) =>
      updateNodeData(doc, video.id, { voice: 'no-such-voice' }, origin),
    )
    const res = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId: video.id },
      cookie: owner.cookie,
    })
    const { jobId } = await res.json()
    const failed = await until(
      () => job(t, owner, jobId),
      (j) => j.status === 'failed',
    )
    expect(failed.message).toContain('The narration voice "no-such-voice" does not exist.')
    expect(failed.refunded).toBe(RENDER_COST)
    expect(await balance(t, owner.id)).toBe(20)
    expect(await readdir(workDir)).toEqual([])
  })

  it('refuses a viewer (403) and a node that is no Video node (404)', async () => {
    const owner = await addUser(t, 'Vic', { credits: 20 })
    const { projectId, video, scenes } = await project(t, owner, [])
    const viewer = await addUser(t, 'Viv', { credits: 20 })
    await addMember(t, projectId, viewer.id, 'viewer')
    const asViewer = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId: video.id },
      cookie: viewer.cookie,
    })
    expect(asViewer.status).toBe(403)
    const notVideo = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId: scenes[0]!.id },
      cookie: owner.cookie,
    })
    expect(notVideo.status).toBe(404)
  })

  itRenders(
    'a cancel mid-render stops it, refunds it whole and leaves no temporary files',
    async () => {
      const owner = await addUser(t, 'Cal', { credits: 20 })
      const { projectId, video } = await project(
        t,
        owner,
        [1, 2, 3],
        'Anemones wave their arms while the tide slowly returns to the rocks.',
      )
      const res = await t.request('POST', '/api/video/render', {
        body: { projectId, nodeId: video.id },
        cookie: owner.cookie,
      })
      const { jobId } = await res.json()
      await until(
        () => job(t, owner, jobId),
        (j) => j.status === 'running' && /Rendering scenes/.test(j.stage ?? ''),
      )
      const cancel = await t.request('POST', `/api/jobs/${jobId}/cancel`, { cookie: owner.cookie })
      expect(cancel.status).toBe(200)
      const cancelled = await until(
        () => job(t, owner, jobId),
        (j) => j.status === 'cancelled',
      )
      expect(cancelled.refunded).toBe(RENDER_COST)
      expect(await balance(t, owner.id)).toBe(20)
      // The worker removes its folder once ffmpeg has stopped.
      await until(
        () => readdir(workDir),
        (entries) => entries.length === 0,
        // A still being made when the cancel came is finished first (longer beside another render).
        30_000,
      )
      const node = (await liveGraph(t, projectId)).nodes.find((n) => n.id === video.id)!
      expect(node.data.videoUrl).toBeUndefined()
    },
    RENDER_TEST_MS,
  )
})

/** Polls until `done`, at most `ms` (default RENDER_DONE_MS). */
function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = RENDER_DONE_MS) {
  return poll(read, done, ms)
}
