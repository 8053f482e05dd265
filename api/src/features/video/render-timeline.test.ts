import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  collectVideoInputs,
  createGraphNode,
  docFilm,
  docToGraph,
  editTimelineSettings,
  type GraphNode,
  moveCut,
} from '@reelgraph/shared'
import { encodePcmWav } from '@reelgraph/media'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs as job } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until as poll } from '../../testing/until.ts'
import { storeGeneratedImage, storeMediaAsset } from '../assets/asset-service.ts'
import { itRendersOn } from '../../testing/renders.ts'

/**
 * Issue 24 items 1 and 4 through the API: a render takes what the Video node's timeline says
 * (order, title card, caption look), and `captions` on POST /render and /make is validated
 * and documented.
 */

const run = promisify(execFile)
const RENDER_DONE_MS = 120_000
/** The scenes' pictures, by scene number, and the title card's colour. */
const COLOURS: Record<string, { r: number; g: number; b: number }> = {
  '1': { r: 220, g: 40, b: 40 },
  '2': { r: 40, g: 200, b: 60 },
  '3': { r: 40, g: 70, b: 220 },
  title: { r: 0xee, g: 0xee, b: 0x22 },
}

async function project(t: TestApp, owner: TestUser) {
  const projectId = await createProjectAs(t, owner, 'Timeline')
  let x = 0
  const at = () => ({ x: (x += 500), y: 0 })
  const text = createGraphNode('editable-text', at())
  const video = createGraphNode('video', at())
  const nodes: GraphNode[] = [text, video]
  const connections = [{ source: text.id, target: video.id }]
  for (const number of ['1', '2', '3']) {
    const scene = createGraphNode('scene', at(), nodes)
    scene.data.sceneNumber = number
    scene.data.narration = `Part ${number}.`
    nodes.push(scene)
    connections.push({ source: text.id, target: scene.id })
    const c = COLOURS[number]!
    const bytes = await sharp({ create: { width: 320, height: 180, channels: 3, background: c } })
      .png()
      .toBuffer()
    const stored = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId,
      image: { bytes: new Uint8Array(bytes), mimeType: 'image/png' },
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
  return { projectId, video }
}

/** A 440 Hz tone, 48 kHz stereo 16-bit, as the music upload stores one. */
function toneWav(seconds: number): Uint8Array {
  const rate = 48_000
  const samples = new Int16Array(rate * seconds * 2)
  for (let i = 0; i < rate * seconds; i++) {
    const v = Math.round(12_000 * Math.sin((2 * Math.PI * 440 * i) / rate))
    samples[2 * i] = v
    samples[2 * i + 1] = v
  }
  return encodePcmWav(
    { encoding: 1, sampleRate: rate, channels: 2, bitsPerSample: 16 },
    new Uint8Array(samples.buffer),
  )
}

/** The mean level of a file's audio around `hz` (two narrow band-passes, volumedetect), dB. */
async function bandLevelDb(path: string, hz: number, seconds: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-t',
    String(seconds),
    '-i',
    path,
    '-map',
    '0:a',
    '-af',
    `bandpass=f=${hz}:width_type=q:width=10,bandpass=f=${hz}:width_type=q:width=10,volumedetect`,
    '-f',
    'null',
    '-',
  ])
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr)
  return match && match[1] !== '-inf' ? Number(match[1]) : -Infinity
}

/** Which picture the video shows, five times a second: runs of one colour collapsed. */
async function colourSequence(path: string): Promise<string[]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      path,
      '-vf',
      'fps=5,scale=16:9',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  )
  const frame = 16 * 9 * 3
  const names: string[] = []
  for (let at = 0; at + frame <= stdout.length; at += frame) {
    // The top rows: above any caption.
    const rows = stdout.subarray(at, at + 16 * 4 * 3)
    const mean = [0, 1, 2].map((c) => {
      let sum = 0
      for (let i = c; i < rows.length; i += 3) sum += rows[i]!
      return sum / (rows.length / 3)
    })
    let best = ''
    let bestDistance = Infinity
    for (const [name, colour] of Object.entries(COLOURS)) {
      const d =
        Math.abs(mean[0]! - colour.r) +
        Math.abs(mean[1]! - colour.g) +
        Math.abs(mean[2]! - colour.b)
      if (d < bestDistance) [best, bestDistance] = [name, d]
    }
    // Mid-transition frames match no picture well: left out.
    if (bestDistance < 40 && names.at(-1) !== best) names.push(best)
  }
  return names
}

describe.each(testDatabaseKinds())('renders from the timeline on $name', (kind) => {
  // Its renders run on one database kind (`costlyTestsRunOn`), its other tests on each.
  const itRenders = itRendersOn(kind)
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0' })
  })
  afterAll(() => t.close())

  itRenders(
    'renders the timeline’s order and title card, with word-highlight captions asked by the render',
    async () => {
      const owner = await addUser(t, 'Tess', { credits: 50 })
      const { projectId, video } = await project(t, owner)
      // Scene 3 moved to the front, a yellow title card before it.
      await t.deps.documents.transact(projectId, (doc) => {
        const scenes = collectVideoInputs(docToGraph(doc), video.id)!.scenes
        const film = docFilm(doc, video.id, scenes)
        moveCut(doc, video.id, film.cuts, film.cuts[2]!.id, 0)
        editTimelineSettings(doc, video.id, {
          titleText: 'Tide {pools}',
          titleMs: 1_500,
          titleBackground: '#eeee22',
          titleColor: '#111111',
        })
      })
      const res = await t.request('POST', '/api/video/render', {
        body: { projectId, nodeId: video.id, captions: { style: 'word-highlight', size: 40 } },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      const done = await poll(
        () => job(t, owner, jobId),
        (j) => j.status !== 'queued' && j.status !== 'running',
        RENDER_DONE_MS,
      )
      expect(done).toMatchObject({ status: 'succeeded' })
      const result = done.result as { mp4Url: string; srtUrl: string }
      const mp4 = await t.request('GET', result.mp4Url, { cookie: owner.cookie })
      const dir = await mkdtemp(join(tmpdir(), 'reelgraph-timeline-test-'))
      try {
        const path = join(dir, 'v.mp4')
        await writeFile(path, new Uint8Array(await mp4.arrayBuffer()))
        expect(await colourSequence(path)).toEqual(['title', '3', '1', '2'])
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
      // The SRT stays plain, in the film's order.
      const srt = await (await t.request('GET', result.srtUrl, { cookie: owner.cookie })).text()
      expect(srt).not.toMatch(/[{}\\]/)
      expect(srt.indexOf('Part 3')).toBeLessThan(srt.indexOf('Part 1'))
      expect(srt.indexOf('Part 1')).toBeLessThan(srt.indexOf('Part 2'))
    },
    RENDER_DONE_MS + 30_000,
  )

  itRenders(
    'plays the timeline’s uploaded music from this project’s own asset; another project’s fails in words, refunded',
    async () => {
      const owner = await addUser(t, 'Mo', { credits: 50 })
      const mine = await project(t, owner)
      const other = await project(t, owner)
      const store = (projectId: number) =>
        storeMediaAsset(t.deps.db, t.deps.assets, {
          userId: owner.id,
          projectId,
          content: toneWav(3),
          mimeType: 'audio/wav',
        })
      const own = await store(mine.projectId)
      const foreign = await store(other.projectId)
      const render = async (music: string) => {
        await t.deps.documents.transact(mine.projectId, (doc) =>
          editTimelineSettings(doc, mine.video.id, { music, musicDuckDb: 0, musicFadeInMs: 0 }),
        )
        const res = await t.request('POST', '/api/video/render', {
          body: { projectId: mine.projectId, nodeId: mine.video.id },
          cookie: owner.cookie,
        })
        expect(res.status).toBe(202)
        const { jobId } = await res.json()
        return poll(
          () => job(t, owner, jobId),
          (j) => j.status !== 'queued' && j.status !== 'running',
          RENDER_DONE_MS,
        )
      }
      const before = await balance(t, owner.id)
      const refused = await render(foreign.url)
      expect(refused).toMatchObject({ status: 'failed' })
      expect(await balance(t, owner.id)).toBe(before)
      expect(JSON.stringify(refused)).toContain('The timeline’s music file is gone.')

      const played = await render(own.url)
      expect(played).toMatchObject({ status: 'succeeded' })
      const { mp4Url } = played.result as { mp4Url: string }
      const mp4 = await t.request('GET', mp4Url, { cookie: owner.cookie })
      const dir = await mkdtemp(join(tmpdir(), 'reelgraph-timeline-test-'))
      try {
        const path = join(dir, 'v.mp4')
        await writeFile(path, new Uint8Array(await mp4.arrayBuffer()))
        // The tone plays from the start, before the first voice (0.6 s in): nothing else
        // sounds there.
        expect(await bandLevelDb(path, 440, 0.5)).toBeGreaterThan(-40)
        expect(await bandLevelDb(path, 1_000, 0.5)).toBeLessThan(-60)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    2 * RENDER_DONE_MS,
  )

  it('refuses an unknown caption style with a clear 400 and charges nothing', async () => {
    const owner = await addUser(t, 'Cal', { credits: 50 })
    const { projectId, video } = await project(t, owner)
    for (const [path, extra] of [
      ['/api/video/render', { nodeId: video.id }],
      ['/api/video/make', { nodeId: video.id, sceneCount: 3, preset: '16:9' }],
    ] as const) {
      const res = await t.request('POST', path, {
        body: { projectId, ...extra, captions: { style: 'karaoke' } },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.error.message).toBe(
        'The caption style must be one of classic, word-highlight, bold.',
      )
    }
    const colour = await t.request('POST', '/api/video/render', {
      body: { projectId, nodeId: video.id, captions: { style: 'bold', color: 'red' } },
      cookie: owner.cookie,
    })
    expect(colour.status).toBe(400)
    expect((await colour.json()).error.message).toBe('A colour is #rrggbb.')
  })

  it('documents `captions` on POST /render and /make in the OpenAPI document', async () => {
    const doc = await (await t.request('GET', '/api/openapi.json')).json()
    const schemas = doc.components.schemas
    for (const name of ['RenderVideoInput', 'MakeVideoInput']) {
      expect(schemas[name].properties.captions.$ref).toBe('#/components/schemas/Captions')
    }
    expect(schemas.Captions.properties.style.enum).toEqual(['classic', 'word-highlight', 'bold'])
  })
})
