import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { encodeWav } from '@reelgraph/media'
import {
  createGraphNode,
  type Graph,
  type Job,
  modelCredits,
  type ProjectRunOutput,
  updateNodeData,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs, liveGraph } from '../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { itRendersOn } from '../../testing/renders.ts'
import type { TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import {
  bytes,
  json,
  type TestServer,
  startTestServer,
} from '../generation/providers/testing/http-server.ts'
import { solidPng } from '../generation/providers/testing/images.ts'
import type { FalFake } from '../generation/video-providers/testing/fal-fake.ts'
import { startClipJobApp } from '../generation/testing/clip-job-kit.ts'

/**
 * Run only what is stale (issue 42 item 4), end to end: a graph made by Make video with
 * "Animate each scene" (script, text, scenes, image generators, images, video generators,
 * clips, a Video node), then `POST /api/projects/:id/run { scope: 'stale' }` after edits. The
 * providers are faked at the network edge and their calls counted: OpenAI's images and speech
 * (one local server speaking both), fal's queue for the clips; scripts and scenes are the
 * builtin writer's.
 */

const run = promisify(execFile)
const MODEL = 'fal:fal-ai/kling-video/v2.5-turbo/standard/image-to-video'
const COSTS = {
  COST_SCRIPT: '1',
  COST_SCENES: '1',
  COST_IMAGE: '2',
  COST_VOICE: '1',
  COST_VIDEO: '3',
}
const costs = { script: 1, scenes: 1, image: 2, voice: 1, video: 3 }
const DONE_MS = 240_000
/** An image prompt with this word is refused by the fake image service. */
const FAILING_WORD = 'UNDRAWABLE'

/** A 24 kHz mono WAV of a tone of `toneMs` (OpenAI's `wav` answer). */
function toneWav(toneMs: number): Uint8Array {
  const rate = 24_000
  const samples = new Int16Array(Math.round((rate * toneMs) / 1000))
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 12_000)
  }
  return encodeWav({ samples, sampleRate: rate })
}

const finished = (j: Job) => j.status !== 'queued' && j.status !== 'running'

describe.each(testDatabaseKinds())('runs of what is stale on $name', (kind) => {
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let fal: FalFake
  let openai: TestServer
  let dir: string
  let images = 0
  let speech = 0

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-run-stale-'))
    const path = join(dir, 'clip.mp4')
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=5'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', path],
    ])
    const png = await solidPng(64, 36)
    openai = await startTestServer((req, res) => {
      if (req.method === 'POST' && req.pathname === '/v1/images/generations') {
        images += 1
        const prompt = String((req.body as { prompt?: unknown }).prompt ?? '')
        if (prompt.includes(FAILING_WORD)) {
          json(res, 400, {
            error: { message: 'This prompt cannot be drawn.', type: 'invalid_request_error' },
          })
          return
        }
        json(res, 200, { created: 1, data: [{ b64_json: Buffer.from(png).toString('base64') }] })
        return
      }
      if (req.method === 'POST' && req.pathname === '/v1/audio/speech') {
        speech += 1
        bytes(res, 'audio/wav', toneWav(800 + 40 * speech))
        return
      }
      json(res, 404, { error: { message: 'not found' } })
    })
    ;({ t, fal } = await startClipJobApp(kind, {
      clip: await readFile(path),
      settings: {
        ...COSTS,
        AI_IMAGE_PROVIDER: 'openai',
        SPEECH_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${openai.url}/v1`,
      },
    }))
  })
  afterAll(async () => {
    await t?.close()
    await fal?.server.close()
    await openai?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const request = (user: TestUser, method: 'GET' | 'POST', path: string, body?: unknown) =>
    t.request(method, path, { cookie: user.cookie, ...(body === undefined ? {} : { body }) })

  const quote = async (user: TestUser, projectId: number): Promise<ProjectRunOutput> => {
    const res = await request(user, 'GET', `/api/projects/${projectId}/run-quote?scope=stale`)
    expect(res.status).toBe(200)
    return (await res.json()) as ProjectRunOutput
  }
  const runStale = async (user: TestUser, projectId: number): Promise<ProjectRunOutput> => {
    const res = await request(user, 'POST', `/api/projects/${projectId}/run`, { scope: 'stale' })
    expect(res.status).toBe(200)
    return (await res.json()) as ProjectRunOutput
  }
  const settle = (user: TestUser, answer: ProjectRunOutput) =>
    Promise.all(answer.nodes.map((n) => until(() => jobAs(t, user, n.jobId!), finished, DONE_MS)))
  const edit = (projectId: number, nodeId: string, patch: Record<string, string>) =>
    t.deps.documents.transact(projectId, (doc) => updateNodeData(doc, nodeId, patch))
  const ofType = (graph: Graph, type: string) => graph.nodes.filter((n) => n.type === type)
  const typesOf = (answer: ProjectRunOutput) => answer.nodes.map((n) => n.type).sort()

  itRenders(
    'runs only what an edit made stale, in dependency order, charging only those; a failure stops only what reads it',
    async () => {
      const owner = await addUser(t, 'Rosa', { credits: 500 })
      const projectId = await createProjectAs(t, owner, 'Lighthouses')
      const generator = createGraphNode('script-generator', { x: 0, y: 0 })
      generator.data.topic = 'How lighthouses guide ships'
      await t.deps.documents.applyGraph(projectId, { nodes: [generator], connections: [] })

      const made = await request(owner, 'POST', '/api/video/make', {
        projectId,
        nodeId: generator.id,
        sceneCount: 2,
        preset: '16:9',
        animate: { modelId: MODEL },
      })
      expect(made.status).toBe(202)
      const { jobId } = (await made.json()) as { jobId: string }
      const chain = await until(() => jobAs(t, owner, jobId), finished, DONE_MS)
      expect(chain.status).toBe('succeeded')

      // A fresh Make video graph has nothing stale.
      expect(await quote(owner, projectId)).toEqual({ nodes: [], credits: 0, skipped: [] })
      const before = await balance(t, owner.id)
      expect(await runStale(owner, projectId)).toEqual({ nodes: [], credits: 0, skipped: [] })
      expect(await balance(t, owner.id)).toBe(before)

      const graph = await liveGraph(t, projectId)
      const scenes = ofType(graph, 'scene').sort((a, b) =>
        String(a.data.sceneNumber).localeCompare(String(b.data.sceneNumber)),
      )
      const [first, second] = scenes
      const from = (id: string, type: string) =>
        graph.connections
          .filter((c) => c.source === id)
          .map((c) => graph.nodes.find((n) => n.id === c.target)!)
          .find((n) => n.type === type)!
      const firstImageGen = from(first!.id, 'image-generator')
      const firstVideoGen = from(first!.id, 'video-generator')
      const video = ofType(graph, 'video')[0]!
      const clipCredits = modelCredits(t.deps.catalog.video(MODEL)!.model, 5)

      // 1. One scene's visual instructions change: its image, its clip and the render run.
      await edit(projectId, first!.id, { visuals: 'A red lighthouse in a winter storm at night' })
      const counted = { images, speech, clips: fal.submits.length }
      const quoted = await quote(owner, projectId)
      expect(typesOf(quoted)).toEqual(['image-generator', 'video', 'video-generator'])
      expect(quoted.credits).toBe(costs.image + clipCredits + costs.video)
      const answer = await runStale(owner, projectId)
      expect(answer.credits).toBe(quoted.credits)
      const byType = (type: string) => answer.nodes.find((n) => n.type === type)!
      expect(byType('image-generator')).toMatchObject({ nodeId: firstImageGen.id, waitsFor: [] })
      expect(byType('video-generator')).toMatchObject({
        nodeId: firstVideoGen.id,
        waitsFor: [firstImageGen.id],
      })
      expect(byType('video')).toMatchObject({
        nodeId: video.id,
        waitsFor: [firstImageGen.id, firstVideoGen.id].sort(),
      })
      // In dependency order, each node after what it waits for.
      const order = answer.nodes.map((n) => n.nodeId)
      for (const n of answer.nodes) {
        for (const w of n.waitsFor) expect(order.indexOf(w)).toBeLessThan(order.indexOf(n.nodeId))
      }
      expect(await balance(t, owner.id)).toBe(before - answer.credits)
      // The render's wait is recorded in Postgres: released by its inputs' outcomes.
      const waits = await t.deps.db
        .selectFrom('job_inputs')
        .select('input_job_id')
        .where('job_id', '=', byType('video').jobId!)
        .execute()
      expect(waits.map((w) => w.input_job_id).sort()).toEqual(
        [byType('image-generator').jobId!, byType('video-generator').jobId!].sort(),
      )
      const jobs = await settle(owner, answer)
      expect(jobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
      expect(jobs.every((j) => j.refunded === 0)).toBe(true)
      expect(images - counted.images).toBe(1)
      expect(fal.submits.length - counted.clips).toBe(1)
      expect(speech - counted.speech).toBe(0)
      expect(await balance(t, owner.id)).toBe(before - answer.credits)
      // The clip started from the new picture; afterwards nothing is stale.
      const after = await liveGraph(t, projectId)
      const stamp = (id: string) => Number(id.split('-')[1])
      const [newest, older] = after.nodes
        .filter(
          (n) =>
            n.type === 'image' &&
            after.connections.some((c) => c.source === firstImageGen.id && c.target === n.id),
        )
        .sort((a, b) => stamp(b.id) - stamp(a.id))
      expect(older).toBeDefined()
      expect(newest!.data.imageUrl).not.toBe(older!.data.imageUrl)
      expect(after.nodes.find((n) => n.id === firstVideoGen.id)!.data.imageUrl).toBe(
        newest!.data.imageUrl,
      )
      expect(await quote(owner, projectId)).toEqual({ nodes: [], credits: 0, skipped: [] })

      // 2. Only a narration changes: only the render runs, speaking that one voice.
      await edit(projectId, second!.id, {
        narration: 'Every lighthouse has its own rhythm of light.',
      })
      const narrated = {
        images,
        speech,
        clips: fal.submits.length,
        credits: await balance(t, owner.id),
      }
      const renderOnly = await runStale(owner, projectId)
      expect(renderOnly.nodes.map((n) => [n.type, n.nodeId, n.waitsFor])).toEqual([
        ['video', video.id, []],
      ])
      expect(renderOnly.credits).toBe(costs.video + costs.voice)
      const [render] = await settle(owner, renderOnly)
      expect(render!.status).toBe('succeeded')
      expect(speech - narrated.speech).toBe(1)
      expect(images - narrated.images).toBe(0)
      expect(fal.submits.length - narrated.clips).toBe(0)
      expect(await balance(t, owner.id)).toBe(narrated.credits - renderOnly.credits)

      // 3. A failing image: its clip and the render are cancelled and refunded; the other
      // scene's stale image and clip still run.
      const secondImageGen = from(second!.id, 'image-generator')
      const secondVideoGen = from(second!.id, 'video-generator')
      await edit(projectId, first!.id, { visuals: `An ${FAILING_WORD} lighthouse` })
      await edit(projectId, second!.id, {
        visuals: 'A lighthouse keeper climbing the stairs at dawn',
      })
      const failing = { images, clips: fal.submits.length, credits: await balance(t, owner.id) }
      const mixed = await runStale(owner, projectId)
      expect(typesOf(mixed)).toEqual([
        'image-generator',
        'image-generator',
        'video',
        'video-generator',
        'video-generator',
      ])
      const ended = new Map((await settle(owner, mixed)).map((j) => [j.nodeId!, j] as const))
      expect(ended.get(firstImageGen.id)).toMatchObject({ status: 'failed', refunded: costs.image })
      expect(ended.get(firstVideoGen.id)).toMatchObject({
        status: 'cancelled',
        refunded: clipCredits,
      })
      expect(ended.get(firstVideoGen.id)!.message).toContain(
        `Not run: its input Image Generator ${firstImageGen.id} failed.`,
      )
      expect(ended.get(video.id)).toMatchObject({ status: 'cancelled' })
      expect(ended.get(video.id)!.message).toContain('Not run: its input')
      expect(ended.get(video.id)!.refunded).toBe(
        mixed.nodes.find((n) => n.type === 'video')!.credits,
      )
      expect(ended.get(secondImageGen.id)!.status).toBe('succeeded')
      expect(ended.get(secondVideoGen.id)!.status).toBe('succeeded')
      expect(images - failing.images).toBe(2)
      expect(fal.submits.length - failing.clips).toBe(1)
      expect(await balance(t, owner.id)).toBe(failing.credits - costs.image - clipCredits)
      // What failed is still stale; what ran is current.
      const left = await quote(owner, projectId)
      expect(left.nodes.map((n) => n.nodeId).sort()).toEqual(
        [firstImageGen.id, firstVideoGen.id, video.id].sort(),
      )
    },
    4 * DONE_MS,
  )

  it('answers a stranger 404 and a viewer 403, refuses an unknown node, and charges nothing it cannot pay for', async () => {
    const owner = await addUser(t, 'Owen', { credits: 0 })
    const projectId = await createProjectAs(t, owner, 'Unpaid')
    const imageGen = createGraphNode('image-generator', { x: 0, y: 0 })
    imageGen.data.prompt = 'A lighthouse'
    const note = createGraphNode('scene', { x: 500, y: 0 })
    await t.deps.documents.applyGraph(projectId, { nodes: [imageGen, note], connections: [] })

    const stranger = await addUser(t, 'Stan', { credits: 50 })
    const denied = await request(stranger, 'POST', `/api/projects/${projectId}/run`, {
      scope: 'stale',
    })
    expect(denied.status).toBe(404)
    expect((await request(stranger, 'GET', `/api/projects/${projectId}/run-quote`)).status).toBe(
      404,
    )
    const viewer = await addUser(t, 'Vera', { credits: 50 })
    await addMember(t, projectId, viewer.id, 'viewer')
    expect(
      (await request(viewer, 'POST', `/api/projects/${projectId}/run`, { scope: 'stale' })).status,
    ).toBe(403)

    const unknown = await request(owner, 'POST', `/api/projects/${projectId}/run`, {
      scope: 'stale',
      nodeIds: [note.id],
    })
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error.message).toContain(note.id)
    const badScope = await request(owner, 'POST', `/api/projects/${projectId}/run`, {
      scope: 'some',
    })
    expect(badScope.status).toBe(400)

    // Never run: stale, priced as its Generate button charges (the catalog model's credits).
    const quoted = await quote(owner, projectId)
    expect(quoted).toMatchObject({ nodes: [{ nodeId: imageGen.id, jobId: null, waitsFor: [] }] })
    expect(quoted.credits).toBeGreaterThan(0)
    expect(quoted.credits).toBe(quoted.nodes[0]!.credits)
    const short = await request(owner, 'POST', `/api/projects/${projectId}/run`, { scope: 'stale' })
    expect(short.status).toBe(402)
    expect((await short.json()).error.message).not.toBe('')
    expect(await balance(t, owner.id)).toBe(0)
    const open = await t.deps.db
      .selectFrom('generation_jobs')
      .select('id')
      .where('project_id', '=', projectId)
      .execute()
    expect(open).toEqual([])
  })
})
