import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { encodeWav } from '@reelgraph/media'
import {
  createGraphNode,
  estimateNarrationMs,
  type GraphNode,
  type NarrationsOutput,
  splitWords,
  updateNodeData,
  videoTakesOf,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs, liveGraph } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import {
  bytes,
  json,
  startTestServer,
  type TestServer,
} from '../generation/providers/testing/http-server.ts'
import { solidPng } from '../generation/providers/testing/images.ts'
import { pruneNarrationCache } from './narration-cache.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { renderDirs } from './render-scenes.ts'

/**
 * Narration as its own cached step (issue 21 item 4), with a cloud voice whose audio differs
 * on every call: a fake OpenAI speech server (`POST /v1/audio/speech`, the real SDK against
 * it) answering a tone of a new length each time. A re-render speaks, charges and renders
 * only what changed.
 */

const COSTS = { COST_VIDEO: '3', COST_VOICE: '2' }
const RENDER_MS = 120_000

/** A 24 kHz mono WAV: silence, a tone of `toneMs`, silence (OpenAI's `wav` answer). */
function toneWav(toneMs: number): Uint8Array {
  const rate = 24_000
  const silence = rate / 10
  const tone = Math.round((rate * toneMs) / 1000)
  const samples = new Int16Array(silence * 2 + tone)
  for (let i = 0; i < tone; i++) {
    samples[silence + i] = Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 12_000)
  }
  return encodeWav({ samples, sampleRate: rate })
}

describe.each(testDatabaseKinds())('narration cached by its content, on $name', (kind) => {
  // Its renders run on one database kind (`costlyTestsRunOn`), its other tests on each.
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let speech: TestServer
  let owner: TestUser
  let spoken = 0

  beforeAll(async () => {
    speech = await startTestServer((req, res) => {
      if (req.method !== 'POST' || req.pathname !== '/v1/audio/speech') {
        json(res, 404, { error: { message: 'not found' } })
        return
      }
      spoken += 1
      // Another length on every call, as a cloud voice's audio differs from call to call.
      bytes(res, 'audio/wav', toneWav(900 + 70 * spoken))
    })
    t = await createTestApp(kind, undefined, {
      JOB_WAIT_MS: '0',
      ...COSTS,
      SPEECH_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${speech.url}/v1`,
      AI_TEXT_PROVIDER: 'builtin',
      AI_IMAGE_PROVIDER: 'builtin',
    })
    owner = await addUser(t, 'Nora', { credits: 100 })
  })
  afterAll(async () => {
    await t.close()
    await speech.close()
  })

  /** Text -> three scenes, each with an image, -> Video node. */
  async function project() {
    const projectId = await createProjectAs(t, owner, 'Tides')
    let x = 0
    const at = () => ({ x: (x += 500), y: 0 })
    const text = createGraphNode('editable-text', at())
    const video = createGraphNode('video', at())
    const nodes: GraphNode[] = [text, video]
    const connections = [{ source: text.id, target: video.id }]
    for (const n of [1, 2, 3]) {
      const scene = createGraphNode('scene', at(), nodes)
      scene.data.narration = `Scene ${n}: the tide goes out and comes back in.`
      const stored = await storeGeneratedImage(t.deps.db, t.deps.assets, {
        userId: owner.id,
        projectId,
        image: { bytes: await solidPng(320, 180 + n * 8), mimeType: 'image/png' },
      })
      const generator = createGraphNode('image-generator', at())
      const image = createGraphNode('image', at())
      image.data.imageUrl = stored.url
      nodes.push(scene, generator, image)
      connections.push(
        { source: text.id, target: scene.id },
        { source: scene.id, target: generator.id },
        { source: generator.id, target: image.id },
      )
    }
    await t.deps.documents.applyGraph(projectId, { nodes, connections })
    return { projectId, video, scenes: nodes.filter((n) => n.type === 'scene') }
  }

  const quote = async (projectId: number, nodeId: string) =>
    (
      await t.request('GET', `/api/video/render-quote?projectId=${projectId}&nodeId=${nodeId}`, {
        cookie: owner.cookie,
      })
    ).json()

  /** Renders, waits, and answers what it charged and which segment files it added. */
  async function render(projectId: number, videoId: string) {
    const segments = join(renderDirs(t.deps.env).cache, 'segments')
    const before = new Set(await readdir(segments).catch(() => [] as string[]))
    const credits = await balance(t, owner.id)
    const calls = spoken
    const res = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId: videoId },
      cookie: owner.cookie,
    })
    expect(res.status).toBe(202)
    const { jobId } = await res.json()
    const done = await until(
      () => jobAs(t, owner, jobId),
      (j) => j.status !== 'queued' && j.status !== 'running',
      RENDER_MS,
    )
    expect(done.status).toBe('succeeded')
    const added = (await readdir(segments)).filter((f) => f.endsWith('.mp4') && !before.has(f))
    return {
      charged: credits - (await balance(t, owner.id)),
      synthesized: spoken - calls,
      segmentsRendered: added.length,
      result: done.result as { voicesReused: number; voicesTotal: number; durationMs: number },
    }
  }

  itRenders(
    'one changed narration speaks, charges and renders one scene (and its two transitions); nothing changed speaks and charges no voice',
    async () => {
      const { projectId, video, scenes } = await project()
      expect(await quote(projectId, video.id)).toEqual({
        credits: 3 + 3 * 2,
        voices: { total: 3, reused: 0 },
      })
      const first = await render(projectId, video.id)
      expect(first).toMatchObject({ charged: 9, synthesized: 3, segmentsRendered: 5 })
      expect(first.result).toMatchObject({ voicesReused: 0, voicesTotal: 3 })

      // The middle scene's narration changes: one voice to speak and pay, one scene (and the
      // crossfades on each side of it) to render; the others come from the caches.
      await t.deps.documents.transact(projectId, (doc, origin) =>
        updateNodeData(
          doc,
          scenes[1]!.id,
          { narration: 'Scene 2: crabs hide under rocks.' },
          origin,
        ),
      )
      expect(await quote(projectId, video.id)).toEqual({
        credits: 3 + 2,
        voices: { total: 3, reused: 2 },
      })
      const second = await render(projectId, video.id)
      expect(second).toMatchObject({ charged: 5, synthesized: 1, segmentsRendered: 3 })
      expect(second.result).toMatchObject({ voicesReused: 2, voicesTotal: 3 })

      // Nothing changed: no voice spoken or paid, no segment rendered.
      expect(await quote(projectId, video.id)).toEqual({
        credits: 3,
        voices: { total: 3, reused: 3 },
      })
      const third = await render(projectId, video.id)
      expect(third).toMatchObject({ charged: 3, synthesized: 0, segmentsRendered: 0 })
      expect(third.result.durationMs).toBe(second.result.durationMs)

      // The node keeps how many voices each render reused.
      const graph = await liveGraph(t, projectId)
      const takes = videoTakesOf(graph.nodes.find((n) => n.id === video.id)!.data)
      expect(takes.map((take) => [take.voicesReused, take.voicesTotal])).toEqual([
        [3, 3],
        [2, 3],
        [0, 3],
      ])
    },
    4 * RENDER_MS,
  )

  it('the play button speaks into the same cache: a preview, then a render, speak once', async () => {
    const { projectId, video, scenes } = await project()
    const calls = spoken
    const play = () =>
      t.request('POST', '/api/video/narration-preview', {
        body: { projectId, nodeId: scenes[0]!.id },
        cookie: owner.cookie,
      })
    const firstPlay = await play()
    expect(firstPlay.status).toBe(200)
    expect(firstPlay.headers.get('content-type')).toBe('audio/wav')
    const again = await play()
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(
      new Uint8Array(await firstPlay.arrayBuffer()),
    )
    expect(spoken - calls).toBe(1)
    expect(await quote(projectId, video.id)).toEqual({
      credits: 3 + 2 * 2,
      voices: { total: 3, reused: 1 },
    })
  })

  it('tells the timeline each scene’s narration: spoken ones exactly with their WAV, others estimated (issue 24)', async () => {
    const { projectId, video, scenes } = await project()
    const play = await t.request('POST', '/api/video/narration-preview', {
      body: { projectId, nodeId: scenes[0]!.id },
      cookie: owner.cookie,
    })
    const playedMs = Number(play.headers.get('x-duration-ms'))
    const url = `/api/video/narrations?projectId=${projectId}&nodeId=${video.id}`
    const res = await t.request('GET', url, { cookie: owner.cookie })
    expect(res.status).toBe(200)
    const { scenes: narrations } = (await res.json()) as NarrationsOutput
    expect(narrations.map((n) => n.sceneId)).toEqual(scenes.map((s) => s.id))
    const [spokenOne, ...unspoken] = narrations
    expect(spokenOne).toMatchObject({ estimated: false })
    expect(Math.abs(spokenOne!.durationMs - playedMs)).toBeLessThanOrEqual(1)
    expect(spokenOne!.words.map((w) => w.text)).toEqual(
      splitWords(String(scenes[0]!.data.narration)),
    )
    const wav = await t.request('GET', spokenOne!.wavUrl!, { cookie: owner.cookie })
    expect(wav.status).toBe(200)
    expect(new Uint8Array(await wav.arrayBuffer())).toEqual(
      new Uint8Array(await play.arrayBuffer()),
    )
    for (const [i, n] of unspoken.entries()) {
      const text = String(scenes[i + 1]!.data.narration)
      expect(n).toMatchObject({
        estimated: true,
        wavUrl: null,
        durationMs: estimateNarrationMs(text),
      })
      expect(n.words.map((w) => w.text)).toEqual(splitWords(text))
    }

    const stranger = await addUser(t, 'Stranger')
    expect((await t.request('GET', url, { cookie: stranger.cookie })).status).toBe(404)
    expect((await t.request('GET', url)).status).toBe(401)
    const noVideo = `/api/video/narrations?projectId=${projectId}&nodeId=${scenes[0]!.id}`
    expect((await t.request('GET', noVideo, { cookie: owner.cookie })).status).toBe(404)
  })

  it('prunes the least recently used narrations past its budget, and their files', async () => {
    const rows = await t.deps.db.selectFrom('narration_cache').select(['asset_id']).execute()
    expect(rows.length).toBeGreaterThan(0)
    const pruned = await pruneNarrationCache(t.deps, { maxBytes: 0, minAgeMs: 0 })
    expect(pruned).toMatchObject({ removed: rows.length, bytesAfter: 0 })
    expect(await t.deps.db.selectFrom('narration_cache').selectAll().execute()).toEqual([])
    const assets = await t.deps.db
      .selectFrom('assets')
      .select('id')
      .where(
        'id',
        'in',
        rows.map((r) => r.asset_id),
      )
      .execute()
    expect(assets).toEqual([])
  })
})
