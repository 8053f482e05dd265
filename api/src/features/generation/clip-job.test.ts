import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { type GraphNode, readNodeData } from '@reelgraph/shared'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs, liveGraph } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import type { TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import { solidPng } from './providers/testing/images.ts'
import {
  clipCredits,
  postClipJob,
  settledJob,
  startClipJobApp,
  storeImage,
} from './testing/clip-job-kit.ts'
import { resultFile } from './video-providers/testing/result-file.ts'
import { itRendersOn } from '../../testing/renders.ts'
import type { FalFake } from './video-providers/testing/fal-fake.ts'

const run = promisify(execFile)

/**
 * Clips as jobs (issue 22 items 2, 3 and 5), end to end through the api on each database: the
 * catalog's fal model, fal's queue protocol served by a local fake (the provider's own wire
 * format: submit, status URLs fal returns, the result, cancel), the result copied into the
 * project's assets and read by ffmpeg, the Clip node placed beside its Video Generator.
 */

const MODEL = 'fal:fal-ai/kling-video/v2.5-turbo/standard/image-to-video'
const JOB_MS = 60_000

describe.each(testDatabaseKinds())('clips on $name', (kind) => {
  // Its renders run on one database kind (`costlyTestsRunOn`), its other tests on each.
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let fal: FalFake
  let dir: string
  let clip: Uint8Array
  let owner: TestUser
  let projectId: number
  let generator: GraphNode
  let imageUrl: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-clips-'))
    // A real 5 s clip (the model's shortest) with a sound track, as a video model answers.
    const path = join(dir, 'clip.mp4')
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x180:rate=25:duration=5',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=5',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      path,
    ])
    clip = await readFile(path)
    ;({ t, fal, owner, projectId, generator } = await startClipJobApp(kind, { clip }))
    imageUrl = (await storeImage(t, owner, projectId)).url
  })
  afterAll(async () => {
    await t.close()
    await fal.server.close()
    await rm(dir, { recursive: true, force: true })
  })

  const submit = async (extra: Record<string, unknown> = {}, user = owner) =>
    postClipJob({ t, projectId, generator }, user, {
      modelId: MODEL,
      imageUrl,
      durationSeconds: 5,
      ...extra,
    })
  const finished = (jobId: string) => settledJob(t, owner, jobId, JOB_MS)
  const price = () => clipCredits(t, MODEL, 5)

  itRenders(
    'makes a clip from a scene image through fal, stores it, reads it with ffmpeg and places a Clip node; a second one is its newest take',
    async () => {
      fal.reset()
      fal.queuePositions = [2, 1]
      const before = await balance(t, owner.id)
      const res = await submit()
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      expect(await balance(t, owner.id)).toBe(before - price())

      // The provider's queue position reaches the job's words.
      const queued = await until(
        () => jobAs(t, owner, jobId),
        (j) => /position/.test(j.stage ?? '') || j.status === 'succeeded',
        JOB_MS,
      )
      expect(queued.stage ?? 'finished before it was seen').toMatch(
        /Generating the clip \(queued at the provider, position [1-3]\)|finished/,
      )
      const done = await finished(jobId)
      expect(done).toMatchObject({ status: 'succeeded', kind: 'clip', cost: price() })
      const result = done.result as {
        videoUrl: string
        posterUrl: string
        durationMs: number
        hasAudio: boolean
      }
      expect(Math.abs(result.durationMs - 5000)).toBeLessThanOrEqual(100)
      expect(result.hasAudio).toBe(true)

      // What fal got: the start image as bytes (a data URI), never a link into Reelgraph.
      const sent = fal.submits[0]!.input
      expect(fal.submits[0]!.model).toBe('fal-ai/kling-video/v2.5-turbo/standard/image-to-video')
      expect(String(sent.image_url)).toMatch(/^data:image\/png;base64,/)
      expect(JSON.stringify(sent)).not.toContain('/api/assets/')

      // The clip and its poster are the project's assets, served to members.
      const video = await t.request('GET', result.videoUrl, { cookie: owner.cookie })
      expect(video.headers.get('content-type')).toBe('video/mp4')
      const served = Buffer.from(await video.arrayBuffer())
      expect([served.length, served.equals(Buffer.from(clip))]).toEqual([clip.length, true])
      const poster = await t.request('GET', result.posterUrl, { cookie: owner.cookie })
      const meta = await sharp(new Uint8Array(await poster.arrayBuffer())).metadata()
      expect(meta).toMatchObject({ format: 'jpeg', width: 320, height: 180 })

      const placed = await until(
        () => liveGraph(t, projectId),
        (g) => g.nodes.some((n) => n.type === 'clip'),
        JOB_MS,
      )
      const clipNode = placed.nodes.find((n) => n.type === 'clip')!
      expect(placed.connections).toContainEqual({ source: generator.id, target: clipNode.id })
      expect(readNodeData('clip', clipNode.data)).toMatchObject({
        videoUrl: result.videoUrl,
        posterUrl: result.posterUrl,
        modelId: MODEL,
        prompt: 'Waves roll into a rocky cove at dusk',
      })

      // Again from the same generator: the same Clip node, with the new clip in front.
      fal.reset()
      const again = await finished((await (await submit({ seed: 7 })).json()).jobId)
      expect(again.status).toBe('succeeded')
      const after = await until(
        () => liveGraph(t, projectId),
        (g) =>
          readNodeData('clip', g.nodes.find((n) => n.id === clipNode.id)!.data).clipTakes.length ===
          2,
        JOB_MS,
      )
      expect(after.nodes.filter((n) => n.type === 'clip')).toHaveLength(1)
      const takes = readNodeData('clip', after.nodes.find((n) => n.id === clipNode.id)!.data)
      expect(takes.videoUrl).toBe((again.result as { videoUrl: string }).videoUrl)
      expect(takes.clipTakes.map((take) => take.seed)).toEqual([7, expect.any(Number)])
    },
    3 * JOB_MS,
  )

  it('refuses an image from outside the app’s assets or another person’s, and nothing leaves the server', async () => {
    fal.reset()
    const stranger = await addUser(t, 'Stranger', { credits: 50 })
    const theirs = await createProjectAs(t, stranger, 'Theirs')
    const foreign = await storeImage(t, stranger, theirs, 64, 64)
    const before = await balance(t, owner.id)
    for (const url of [
      'http://127.0.0.1:9/secret.png',
      'file:///etc/passwd',
      '/api/assets/../../x',
    ]) {
      const res = await submit({ imageUrl: url })
      expect(res.status).toBe(400)
      expect((await res.json()).error.message).toMatch(/image of this project/)
    }
    expect((await submit({ imageUrl: foreign.url })).status).toBe(404)
    expect((await submit({ lastFrameUrl: foreign.url })).status).toBe(400) // this model takes none
    // A model that does not take what is asked, or one not listed.
    expect((await submit({ imageUrl: undefined })).status).toBe(400)
    expect((await submit({ modelId: 'fal:fal-ai/not-a-model' })).status).toBe(400)
    expect(fal.server.requests).toEqual([])
    expect(await balance(t, owner.id)).toBe(before)
  })

  itRenders(
    'fails a provider answer that is not the clip asked for, in words, and refunds it',
    async () => {
      const cases: [string, Uint8Array, string, RegExp][] = [
        [
          'an HTML page',
          new TextEncoder().encode('<!doctype html><p>Oops</p>'),
          'text/html',
          /not a video/,
        ],
        ['a picture', await solidPng(320, 180), 'image/png', /not a video/],
        [
          'a truncated clip',
          clip.subarray(0, Math.floor(clip.length / 3)),
          'video/mp4',
          /not a video|cut off/,
        ],
      ]
      for (const [, bytes, type, words] of cases) {
        fal.reset(resultFile(bytes, type))
        const before = await balance(t, owner.id)
        const done = await finished((await (await submit()).json()).jobId)
        expect(done).toMatchObject({ status: 'failed', refunded: price() })
        expect(done.message).toMatch(words)
        expect(await balance(t, owner.id)).toBe(before)
      }
    },
  )

  itRenders(
    'a result URL that answers once is fetched once, and the clip is served afterwards all the same',
    async () => {
      const once = resultFile(clip)
      once.once = true
      fal.reset(once)
      const done = await finished((await (await submit()).json()).jobId)
      expect(done, done.message).toMatchObject({ status: 'succeeded' })
      expect(once.served).toBe(1)
      const url = (done.result as { videoUrl: string }).videoUrl
      for (let i = 0; i < 2; i++) {
        const video = await t.request('GET', url, { cookie: owner.cookie })
        expect(video.status).toBe(200)
      }
    },
  )

  itRenders(
    'a clip in another container (a WebM) is stored as an H.264 MP4 that browsers play',
    async () => {
      const webm = join(dir, 'clip.webm')
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x180:rate=25:duration=5',
        '-c:v',
        'libvpx-vp9',
        '-b:v',
        '200k',
        '-deadline',
        'realtime',
        webm,
      ])
      fal.reset(resultFile(await readFile(webm), 'video/webm'))
      const done = await finished((await (await submit()).json()).jobId)
      expect(done, done.message).toMatchObject({ status: 'succeeded' })
      const video = await t.request('GET', (done.result as { videoUrl: string }).videoUrl, {
        cookie: owner.cookie,
      })
      const stored = join(dir, 'stored.mp4')
      await writeFile(stored, new Uint8Array(await video.arrayBuffer()))
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=format_name:stream=codec_name',
        '-of',
        'json',
        stored,
      ])
      const probe = JSON.parse(stdout) as {
        format: { format_name: string }
        streams: { codec_name: string }[]
      }
      expect(probe.format.format_name).toContain('mp4')
      expect(probe.streams.map((s) => s.codec_name)).toContain('h264')
    },
  )

  it('a cancel reaches fal (PUT cancel_url) and refunds the clip', async () => {
    fal.reset()
    fal.queuePositions = Array.from({ length: 200 }, () => 1)
    const before = await balance(t, owner.id)
    const { jobId } = await (await submit()).json()
    await until(
      () => Promise.resolve(fal.submits.length),
      (n) => n === 1,
      JOB_MS,
    )
    const cancelled = await t.request('POST', `/api/jobs/${jobId}/cancel`, { cookie: owner.cookie })
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled', refunded: price() })
    await until(
      () => Promise.resolve(fal.cancelled.length),
      (n) => n === 1,
      JOB_MS,
    )
    expect(await balance(t, owner.id)).toBe(before)
  })
})
