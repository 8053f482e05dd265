import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createGraphNode, type GraphNode } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs as job } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until as poll } from '../../testing/until.ts'
import { storeGeneratedImage, storeMediaAsset } from '../assets/asset-service.ts'
import { solidPng } from '../generation/providers/testing/images.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { renderDirs } from './render-scenes.ts'

/**
 * Clips in the render (issue 22 item 4), end to end: a scene whose picture is a clip (scene
 * -> video generator -> clip holding a stored MP4) and a scene with an image, rendered through
 * `POST /api/video/render` and the in-process worker with the machine's ffmpeg; the MP4 is
 * checked with ffprobe and ffmpeg's own decoding and measurements.
 */

const run = promisify(execFile)
const RENDER_DONE_MS = 90_000
const RENDER_TEST_MS = 150_000
const COSTS = { COST_VIDEO: '3', COST_VOICE: '2' }
/** 3 + 2 x 2 scenes. */
const RENDER_COST = 7
const TONE_HZ = 3_000
/** The clip's colour, far from solidPng's blue. */
const RED = { r: 224, g: 48, b: 48 }

/** A 3 s red 640x360 MP4 with a 3 kHz tone, as a video model would deliver one. */
async function redClip(path: string): Promise<void> {
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xE03030:size=640x360:rate=30:d=3'],
    ...['-f', 'lavfi', '-i', `sine=frequency=${TONE_HZ}:sample_rate=48000:duration=3`],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4', path],
  ])
}

/** Mean R, G, B of frame `n` of a video, decoded by ffmpeg at 64x36. */
async function frameColour(path: string, n: number) {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-v', 'error', '-i', path, '-vf', `select=eq(n\\,${n}),scale=64:36`, '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { encoding: 'buffer' },
  )
  const sums = [0, 0, 0]
  for (let i = 0; i < stdout.length; i++) sums[i % 3]! += stdout[i]!
  const [r, g, b] = sums.map((sum) => sum / (stdout.length / 3))
  return { r: r!, g: g!, b: b! }
}

/** Mean level (dB) of the audio around `hz` from `from` for `seconds` (bandpass, volumedetect). */
async function bandLevelDb(path: string, hz: number, from: number, seconds: number) {
  const { stderr } = await run('ffmpeg', [
    ...['-hide_banner', '-nostats', '-ss', String(from), '-t', String(seconds), '-i', path],
    ...['-map', '0:a', '-af', `bandpass=f=${hz}:width_type=q:width=10,volumedetect`],
    ...['-f', 'null', '-'],
  ])
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr)
  return match ? Number(match[1]) : -Infinity
}

describe.each(testDatabaseKinds())('video renders with clips on $name', (kind) => {
  // Its renders run on one database kind (`costlyTestsRunOn`), its other tests on each.
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let dir: string
  let workDir: string
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
    workDir = renderDirs(t.deps.env).work
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-clips-test-'))
    await redClip(join(dir, 'red.mp4'))
  })
  afterAll(async () => {
    await t.close()
    await rm(dir, { recursive: true, force: true })
  })

  /**
   * A project with a Video node (its clip sound `clipSound`) and two scenes connected to it:
   * scene 1 -> video generator -> clip (the asset `clipAsset` stores, by default the red MP4
   * in the project), no image; scene 2 -> image generator -> image (solidPng's blue).
   */
  async function project(
    owner: TestUser,
    clipSound: 'off' | 'mix',
    clipAsset: (projectId: number) => Promise<{ url: string }> = (projectId) =>
      storeMediaAsset(t.deps.db, t.deps.assets, {
        userId: owner.id,
        projectId,
        content: { path: join(dir, 'red.mp4') },
        mimeType: 'video/mp4',
      }),
  ) {
    const projectId = await createProjectAs(t, owner, 'Rock pools')
    let x = 0
    const at = () => ({ x: (x += 500), y: 0 })
    const video = createGraphNode('video', at())
    video.data.clipSound = clipSound
    const nodes: GraphNode[] = [video]
    const connections: { source: string; target: string }[] = []
    const scene = (number: string) => {
      const node = createGraphNode('scene', at(), nodes)
      node.data.sceneNumber = number
      node.data.narration = `Scene ${number}. The tide comes in.`
      nodes.push(node)
      connections.push({ source: node.id, target: video.id })
      return node
    }
    const first = scene('1')
    const { url } = await clipAsset(projectId)
    const generator = createGraphNode('video-generator', at())
    const clip = createGraphNode('clip', at())
    Object.assign(clip.data, { videoUrl: url, durationMs: 3000, hasAudio: true })
    nodes.push(generator, clip)
    connections.push(
      { source: first.id, target: generator.id },
      { source: generator.id, target: clip.id },
    )
    const second = scene('2')
    const image = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId,
      image: { bytes: await solidPng(320, 180), mimeType: 'image/png' },
    })
    const imageGenerator = createGraphNode('image-generator', at())
    const imageNode = createGraphNode('image', at())
    imageNode.data.imageUrl = image.url
    nodes.push(imageGenerator, imageNode)
    connections.push(
      { source: second.id, target: imageGenerator.id },
      { source: imageGenerator.id, target: imageNode.id },
    )
    await t.deps.documents.applyGraph(projectId, { nodes, connections })
    return { projectId, video }
  }

  async function submit(owner: TestUser, projectId: number, nodeId: string) {
    const res = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId },
      cookie: owner.cookie,
    })
    expect(res.status).toBe(202)
    const { jobId } = await res.json()
    return until(
      () => job(t, owner, jobId),
      (j) => j.status !== 'queued' && j.status !== 'running',
    )
  }

  itRenders(
    'renders the clip as its scene’s picture (no image needed) with its sound mixed under the narration',
    async () => {
      const owner = await addUser(t, 'Cora', { credits: 20 })
      const { projectId, video } = await project(owner, 'mix')
      const done = await submit(owner, projectId, video.id)
      expect(done).toMatchObject({ kind: 'video', status: 'succeeded', cost: RENDER_COST })
      const result = done.result as { mp4Url: string; durationMs: number }

      const mp4 = await t.request('GET', result.mp4Url, { cookie: owner.cookie })
      expect(mp4.status).toBe(200)
      const path = join(dir, `render-${kind.name}.mp4`)
      await writeFile(path, new Uint8Array(await mp4.arrayBuffer()))
      const { stdout } = await run('ffprobe', [
        ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name:format=duration'],
        ...['-of', 'json', path],
      ])
      const probe = JSON.parse(stdout) as {
        streams: { codec_type: string; codec_name: string }[]
        format: { duration: string }
      }
      expect(probe.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual([
        'audio:aac',
        'video:h264',
      ])
      expect(Math.abs(Number(probe.format.duration) * 1000 - result.durationMs)).toBeLessThan(100)

      // Scene 1 shows the red clip, scene 2 its blue image (1 s into each: 30 fps).
      const clipFrame = await frameColour(path, 30)
      expect(Math.abs(clipFrame.r - RED.r)).toBeLessThan(20)
      expect(clipFrame.b).toBeLessThan(80)
      const last = Math.floor((result.durationMs / 1000) * 30) - 30
      const imageFrame = await frameColour(path, last)
      expect(imageFrame.b).toBeGreaterThan(imageFrame.r + 60)
      // The clip's tone before the first narration starts (0.6 s in); none after the last
      // narration ends (0.7 s before the end), in scene 2.
      const toneInScene1 = await bandLevelDb(path, TONE_HZ, 0.05, 0.45)
      const toneInScene2 = await bandLevelDb(path, TONE_HZ, result.durationMs / 1000 - 0.6, 0.5)
      expect(toneInScene1).toBeGreaterThan(toneInScene2 + 25)
      expect(await readdir(workDir)).toEqual([])
    },
    RENDER_TEST_MS,
  )

  it(
    'fails in words, refunded, when a clip is another project’s or no MP4',
    async () => {
      const owner = await addUser(t, 'Finn', { credits: 20 })
      const elsewhere = await createProjectAs(t, owner, 'Elsewhere')
      const foreign = await storeMediaAsset(t.deps.db, t.deps.assets, {
        userId: owner.id,
        projectId: elsewhere,
        content: { path: join(dir, 'red.mp4') },
        mimeType: 'video/mp4',
      })
      const stranger = await project(owner, 'off', async () => foreign)
      const gone = await submit(owner, stranger.projectId, stranger.video.id)
      expect(gone).toMatchObject({ status: 'failed', refunded: RENDER_COST })
      expect(gone.message).toContain('The clip of scene 1 is gone.')

      const png = await project(owner, 'off', async (projectId) =>
        storeGeneratedImage(t.deps.db, t.deps.assets, {
          userId: owner.id,
          projectId,
          image: { bytes: await solidPng(32, 18), mimeType: 'image/png' },
        }),
      )
      const notVideo = await submit(owner, png.projectId, png.video.id)
      expect(notVideo).toMatchObject({ status: 'failed', refunded: RENDER_COST })
      expect(notVideo.message).toContain('The clip of scene 1 is not an MP4 video.')
      expect(await balance(t, owner.id)).toBe(20)
    },
    RENDER_TEST_MS,
  )
})

/** Polls until `done`, at most RENDER_DONE_MS. */
function until<T>(read: () => Promise<T>, done: (value: T) => boolean) {
  return poll(read, done, RENDER_DONE_MS)
}
