import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { solidPng } from './fake-a1111.ts'

const run = promisify(execFile)

/**
 * fal's queue (https://queue.fal.run) for the tests to hold in their hand: the app under test
 * talks to it over HTTP exactly as to fal (`FAL_QUEUE_URL`, `Authorization: Key <FAL_KEY>`),
 * and a test decides when a request leaves the queue, starts and completes. That makes a clip
 * generation last as long as a test needs to watch its job: queued with the provider's queue
 * position, running, done (issue 22 item 3).
 *
 * Speaks the queue protocol: `POST {queue}/{model id}` with the model's input as the body
 * answers `{request_id, response_url, status_url, cancel_url, queue_position}`, whose URLs are
 * under the model's app (its first two path segments: fal shortens them, so a client that
 * builds them itself from a longer model id gets a 404); `GET status_url` answers `IN_QUEUE`
 * with `queue_position`, `IN_PROGRESS` with logs (HTTP 202), then `COMPLETED` (200); `GET
 * response_url` answers the output; `PUT cancel_url` cancels a request not yet completed. Every
 * output has a `video` (`{url, content_type, file_name, file_size}`, a real MP4 made once with
 * ffmpeg and served from this server) and `images` (a PNG), so one fake serves a video model
 * and an image model alike.
 * @see https://docs.fal.ai/model-endpoints/queue
 */
export interface FakeFal {
  /** Its base URL, for `FAL_QUEUE_URL`. */
  url: string
  /** The key it accepts, for `FAL_KEY`. */
  key: string
  /**
   * From now on, new requests wait `IN_QUEUE` at `position` (1 = next) until {@link start} or
   * {@link release}.
   */
  hold(position?: number): void
  /** Held requests go `IN_PROGRESS` (logs say so); they complete on {@link release}. */
  start(): void
  /** Every held request completes; later ones complete at once. */
  release(): void
  /** The requests received so far, oldest first. */
  readonly requests: readonly FalRequest[]
  /** Requests cancelled through their `cancel_url`. */
  readonly cancelled: number
  /** Resolves once `count` requests were received in all. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>
  /**
   * Resolves once the newest request's status was read while it was `status`: the app has
   * seen it (so what the canvas shows next comes from that answer).
   */
  waitForStatusRead(status: FalStatus, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** Where a request is in fal's queue. */
export type FalStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED'

/** One request the fake received. */
export interface FalRequest {
  id: string
  /** The model id, as submitted (`fal-ai/kling-video/v2.1/standard/image-to-video`). */
  model: string
  /** The model's input, as sent. */
  input: Record<string, unknown>
  /** The `Authorization` header it came with. */
  authorization: string
  status: FalStatus | 'CANCELLED'
  /** The statuses the app has read for it, in order (repeats left out). */
  statusesRead: FalStatus[]
}

/** The key the fake accepts. */
export const FAKE_FAL_KEY = 'e2e-fal-key:0123456789abcdef'

/** The clip's frame size by the aspect ratio asked for (fal's `aspect_ratio`), in px. */
const FRAME_SIZES: Record<string, string> = {
  '16:9': '640x360',
  '9:16': '360x640',
  '1:1': '480x480',
}
/** Frames per second of the clips it makes. */
const CLIP_FPS = 24
/** The clip's background colour: a saturated blue no still of the app is made of. */
export const FAKE_CLIP_RGB: [number, number, number] = [16, 64, 224]
/** The colour of the images it makes (an image model's output). */
export const FAKE_IMAGE_RGB: [number, number, number] = [230, 120, 40]
/** Longest clip it makes, in seconds (a request asking for more gets this). */
const MAX_CLIP_SECONDS = 20

/**
 * The length a model's input asks for, in seconds: `duration` as fal's video models take it
 * (`5`, `"5"`, `"5s"`), else 5.
 */
export function requestedSeconds(input: Record<string, unknown>): number {
  const raw = input.duration
  const n = typeof raw === 'number' ? raw : Number.parseFloat(String(raw ?? ''))
  return Number.isFinite(n) && n > 0 ? Math.min(MAX_CLIP_SECONDS, n) : 5
}

const hex = (rgb: [number, number, number]) =>
  `0x${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`

/**
 * A real H.264 MP4 of `seconds` at `size`: the blue background with a white square moving
 * across it (consecutive frames differ), no sound; made with the machine's ffmpeg.
 */
export async function makeClip(path: string, seconds: number, size: string): Promise<void> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${hex(FAKE_CLIP_RGB)}:s=${size}:r=${CLIP_FPS}:d=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `color=c=white:s=48x48:r=${CLIP_FPS}:d=${seconds}`,
    '-filter_complex',
    `[0][1]overlay=x='20+t*60':y='(H-h)/2':shortest=1,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-movflags',
    '+faststart',
    path,
  ])
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const piece of req) text += String(piece)
  return text
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startFakeFal(): Promise<FakeFal> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-fal-'))
  const clips = new Map<string, Promise<Buffer>>()
  const clip = (seconds: number, size: string) => {
    const name = `${seconds}s-${size}`
    let made = clips.get(name)
    if (!made) {
      const path = join(dir, `${name}.mp4`)
      made = makeClip(path, seconds, size).then(() => readFile(path))
      clips.set(name, made)
    }
    return made
  }
  const png = solidPng(64, 36, FAKE_IMAGE_RGB)
  const requests: FalRequest[] = []
  const byId = new Map<string, FalRequest>()
  let holding = false
  let queuePosition = 1
  let cancelled = 0
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const w of waiters) w()
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      json(res, 500, { detail: error instanceof Error ? error.message : String(error) })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base())
    const parts = url.pathname.split('/').filter(Boolean)
    // The outputs: the CDN's part of fal, without a key.
    if (req.method === 'GET' && parts[0] === 'files' && parts.length === 3) {
      const request = byId.get(parts[1] ?? '')
      if (!request) return json(res, 404, { detail: 'Not Found' })
      if (parts[2] === 'image.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
        res.end(png)
        return
      }
      const bytes = await clip(requestedSeconds(request.input), sizeOf(request.input))
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length })
      res.end(bytes)
      return
    }
    if (req.headers.authorization !== `Key ${FAKE_FAL_KEY}`) {
      return json(res, 401, { detail: 'Authentication is required to access this application.' })
    }
    const at = parts.indexOf('requests')
    if (at === -1) {
      if (req.method !== 'POST' || parts.length < 2) return json(res, 404, { detail: 'Not Found' })
      const body = await readBody(req)
      let input: Record<string, unknown>
      try {
        input = JSON.parse(body) as Record<string, unknown>
      } catch {
        return json(res, 422, { detail: 'The body must be JSON.' })
      }
      const request: FalRequest = {
        id: randomUUID(),
        model: parts.join('/'),
        input,
        authorization: req.headers.authorization,
        status: holding ? 'IN_QUEUE' : 'COMPLETED',
        statusesRead: [],
      }
      requests.push(request)
      byId.set(request.id, request)
      wake()
      const urls = urlsOf(request)
      return json(res, 200, {
        request_id: request.id,
        ...urls,
        // fal counts from 0 (0 = next); `hold` takes positions as people count them.
        queue_position: request.status === 'IN_QUEUE' ? queuePosition - 1 : 0,
      })
    }
    // {app}/requests/{id}[/status|/cancel]: only under the app's two segments.
    const request = byId.get(parts[at + 1] ?? '')
    if (!request || at !== 2 || appOf(request.model) !== parts.slice(0, 2).join('/')) {
      return json(res, 404, { detail: 'Request not found' })
    }
    const action = parts[at + 2]
    if (req.method === 'GET' && action === 'status') {
      if (request.status === 'CANCELLED') {
        return json(res, 400, { detail: 'The request was cancelled.' })
      }
      const status = request.status
      if (request.statusesRead.at(-1) !== status) request.statusesRead.push(status)
      wake()
      const body: Record<string, unknown> = { status, response_url: urlsOf(request).response_url }
      if (status === 'IN_QUEUE') body.queue_position = queuePosition - 1
      if (status !== 'IN_QUEUE' && url.searchParams.get('logs') === '1') {
        body.logs = [
          { message: 'Generating the video', level: 'INFO', timestamp: new Date().toISOString() },
        ]
      }
      return json(res, status === 'COMPLETED' ? 200 : 202, body)
    }
    if (req.method === 'GET' && action === undefined) {
      if (request.status !== 'COMPLETED') {
        return json(res, 400, { detail: 'The request is not completed yet.' })
      }
      const seconds = requestedSeconds(request.input)
      const bytes = await clip(seconds, sizeOf(request.input))
      const files = `${base()}/files/${request.id}`
      return json(res, 200, {
        video: {
          url: `${files}/video.mp4`,
          content_type: 'video/mp4',
          file_name: 'video.mp4',
          file_size: bytes.length,
        },
        images: [{ url: `${files}/image.png`, content_type: 'image/png', width: 64, height: 36 }],
        seed: typeof request.input.seed === 'number' ? request.input.seed : 0,
      })
    }
    if (req.method === 'PUT' && action === 'cancel') {
      if (request.status === 'COMPLETED') return json(res, 400, { status: 'ALREADY_COMPLETED' })
      if (request.status !== 'CANCELLED') cancelled += 1
      request.status = 'CANCELLED'
      wake()
      return json(res, 202, { status: 'CANCELLATION_REQUESTED' })
    }
    return json(res, 405, { detail: 'Method Not Allowed' })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const base = () => `http://127.0.0.1:${port}`
  const urlsOf = (request: FalRequest) => {
    const prefix = `${base()}/${appOf(request.model)}/requests/${request.id}`
    return {
      response_url: prefix,
      status_url: `${prefix}/status`,
      cancel_url: `${prefix}/cancel`,
    }
  }
  const held = () => requests.filter((r) => r.status === 'IN_QUEUE' || r.status === 'IN_PROGRESS')

  async function waitFor(done: () => boolean, what: () => string, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs
    while (!done()) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(what())
      await new Promise<void>((resolve) => {
        const w = () => {
          waiters.delete(w)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(w, left)
        waiters.add(w)
      })
    }
  }

  return {
    url: base(),
    key: FAKE_FAL_KEY,
    hold: (position = 1) => {
      holding = true
      queuePosition = position
    },
    start: () => {
      for (const r of held()) r.status = 'IN_PROGRESS'
      wake()
    },
    release: () => {
      holding = false
      for (const r of held()) r.status = 'COMPLETED'
      wake()
    },
    get requests() {
      return requests
    },
    get cancelled() {
      return cancelled
    },
    waitForRequests: (count, timeoutMs = 30_000) =>
      waitFor(
        () => requests.length >= count,
        () => `fal received ${requests.length} requests, not ${count}`,
        timeoutMs,
      ),
    waitForStatusRead: (status, timeoutMs = 30_000) =>
      waitFor(
        () => requests.at(-1)?.statusesRead.includes(status) ?? false,
        () =>
          `the newest request's status was read as ${JSON.stringify(requests.at(-1)?.statusesRead ?? [])}, never ${status}`,
        timeoutMs,
      ),
    close: async () => {
      holding = false
      for (const r of held()) r.status = 'COMPLETED'
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** The app a model id's queue URLs are under: its first two segments (fal's shortening). */
export function appOf(model: string): string {
  return model.split('/').slice(0, 2).join('/')
}

/** The frame size a model's input asks for, by its `aspect_ratio` (16:9 by default). */
function sizeOf(input: Record<string, unknown>): string {
  return FRAME_SIZES[String(input.aspect_ratio ?? '')] ?? FRAME_SIZES['16:9']!
}
