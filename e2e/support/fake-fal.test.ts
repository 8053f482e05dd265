import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import {
  appOf,
  FAKE_CLIP_RGB,
  FAKE_FAL_KEY,
  type FakeFal,
  requestedSeconds,
  startFakeFal,
} from './fake-fal.ts'

const run = promisify(execFile)

let fake: FakeFal | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

const MODEL = 'fal-ai/kling-video/v2.1/standard/image-to-video'
const auth = { authorization: `Key ${FAKE_FAL_KEY}`, 'content-type': 'application/json' }

interface Submitted {
  request_id: string
  status_url: string
  response_url: string
  cancel_url: string
  queue_position: number
}

async function submit(url: string, input: Record<string, unknown>): Promise<Submitted> {
  const res = await fetch(`${url}/${MODEL}`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(input),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as Submitted
}

async function status(url: string) {
  const res = await fetch(`${url}?logs=1`, { headers: auth })
  return { code: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** The mean colour of the frame at `seconds` of an MP4, by ffmpeg (scaled to one pixel). */
async function meanColour(path: string, seconds: number): Promise<number[]> {
  const out = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      path,
      '-frames:v',
      '1',
      '-vf',
      'scale=1:1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer' },
  )
  return [...out.stdout]
}

describe('the fake fal queue', () => {
  it('refuses a request without the key, as fal does', async () => {
    fake = await startFakeFal()
    const res = await fetch(`${fake.url}/${MODEL}`, {
      method: 'POST',
      headers: { authorization: 'Key wrong', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
    expect(fake.requests).toHaveLength(0)
  })

  it('answers the URLs under the model’s app (fal shortens them), and only those', async () => {
    fake = await startFakeFal()
    const sent = await submit(fake.url, { prompt: 'Waves' })
    const prefix = `${fake.url}/fal-ai/kling-video/requests/${sent.request_id}`
    expect(sent).toMatchObject({
      status_url: `${prefix}/status`,
      response_url: prefix,
      cancel_url: `${prefix}/cancel`,
    })
    expect(appOf(MODEL)).toBe('fal-ai/kling-video')
    // A status URL built from the whole model id is not fal's.
    const built = await fetch(`${fake.url}/${MODEL}/requests/${sent.request_id}/status`, {
      headers: auth,
    })
    expect(built.status).toBe(404)
    expect(fake.requests[0]).toMatchObject({ model: MODEL, input: { prompt: 'Waves' } })
  })

  it('holds a request in the queue at a position, then in progress, then completed', async () => {
    fake = await startFakeFal()
    fake.hold(3)
    const sent = await submit(fake.url, { prompt: 'Waves', duration: '5', aspect_ratio: '16:9' })
    // fal counts from 0: the third in line is at queue_position 2.
    expect(sent.queue_position).toBe(2)
    expect(await status(sent.status_url)).toEqual({
      code: 202,
      body: { status: 'IN_QUEUE', queue_position: 2, response_url: sent.response_url },
    })
    await fake.waitForStatusRead('IN_QUEUE')
    const early = await fetch(sent.response_url, { headers: auth })
    expect(early.status).toBe(400)

    fake.start()
    const running = await status(sent.status_url)
    expect(running.code).toBe(202)
    expect(running.body).toMatchObject({ status: 'IN_PROGRESS' })
    expect(running.body.logs).toHaveLength(1)

    fake.release()
    expect((await status(sent.status_url)).body).toMatchObject({ status: 'COMPLETED' })
    await fake.waitForStatusRead('COMPLETED')
    expect(fake.requests[0]?.statusesRead).toEqual(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'])
  })

  it('completes at once when not held, with a real MP4 of the asked length', async () => {
    fake = await startFakeFal()
    const sent = await submit(fake.url, { prompt: 'Waves', duration: '4' })
    expect((await status(sent.status_url)).code).toBe(200)
    const output = (await (await fetch(sent.response_url, { headers: auth })).json()) as {
      video: { url: string; content_type: string; file_size: number }
      images: { url: string }[]
    }
    expect(output.video.content_type).toBe('video/mp4')
    const video = await fetch(output.video.url)
    expect(video.headers.get('content-type')).toBe('video/mp4')
    const bytes = Buffer.from(await video.arrayBuffer())
    expect(bytes.length).toBe(output.video.file_size)
    const image = await fetch(output.images[0]!.url)
    expect(image.headers.get('content-type')).toBe('image/png')

    const dir = await mkdtemp(join(tmpdir(), 'fake-fal-test-'))
    try {
      const path = join(dir, 'clip.mp4')
      await writeFile(path, bytes)
      const probe = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration:stream=codec_type,width,height',
        '-of',
        'json',
        path,
      ])
      const info = JSON.parse(probe.stdout) as {
        format: { duration: string }
        streams: { codec_type: string; width: number; height: number }[]
      }
      expect(Number(info.format.duration)).toBeCloseTo(4, 0)
      expect(info.streams).toEqual([{ codec_type: 'video', width: 640, height: 360 }])
      // Mostly the blue background; the white square moves, so frames differ.
      const first = await meanColour(path, 0.5)
      const later = await meanColour(path, 3)
      for (const [i, c] of first.entries()) expect(Math.abs(c - FAKE_CLIP_RGB[i]!)).toBeLessThan(40)
      expect(first).not.toEqual(later)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('cancels a request not completed yet, and says when it already is', async () => {
    fake = await startFakeFal()
    fake.hold()
    const sent = await submit(fake.url, { prompt: 'Waves' })
    const cancel = await fetch(sent.cancel_url, { method: 'PUT', headers: auth })
    expect(cancel.status).toBe(202)
    expect(await cancel.json()).toEqual({ status: 'CANCELLATION_REQUESTED' })
    expect(fake.cancelled).toBe(1)
    fake.release()
    const done = await submit(fake.url, { prompt: 'Waves' })
    const late = await fetch(done.cancel_url, { method: 'PUT', headers: auth })
    expect(late.status).toBe(400)
    expect(await late.json()).toEqual({ status: 'ALREADY_COMPLETED' })
  })

  it('reads the length a model’s input asks for', () => {
    expect(requestedSeconds({ duration: '5' })).toBe(5)
    expect(requestedSeconds({ duration: 8 })).toBe(8)
    expect(requestedSeconds({ duration: '6s' })).toBe(6)
    expect(requestedSeconds({})).toBe(5)
  })
})
