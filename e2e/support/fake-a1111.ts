import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, deflateSync } from 'node:zlib'

/**
 * A Stable Diffusion server (AUTOMATIC1111's web UI API, `--api`) that the tests hold in
 * their hand: the app under test talks to it over HTTP as it would to the real one (the
 * `automatic1111` image provider), and a test decides when an image comes back. That makes
 * a generation last as long as a test needs to watch its job (issue 12): queued, running,
 * cancelled, or finished while nobody has the project open.
 *
 * Speaks what the provider uses: `GET /sdapi/v1/sd-models` and `POST /sdapi/v1/txt2img`
 * (base64 PNGs), plus `GET /sdapi/v1/progress`.
 * @see https://github.com/AUTOMATIC1111/stable-diffusion-webui/wiki/API
 */
export interface FakeA1111 {
  /** Its base URL, for `A1111_URL`. */
  url: string
  /** The checkpoint it lists (the image generator selects it by itself). */
  model: string
  /** From now on, `txt2img` answers only once {@link release} is called. */
  hold(): void
  /** Answers every held `txt2img` (and later ones at once). */
  release(): void
  /**
   * Answers every held `txt2img` with HTTP `status` and the web UI's error body (`{detail}`),
   * as when it refuses a request; later calls answer normally.
   */
  fail(status: number, detail: string): void
  /** How far the held image is, 0-1, for `GET /sdapi/v1/progress` (0 while none is held). */
  setProgress(fraction: number): void
  /** `txt2img` calls received so far. */
  readonly received: number
  /** `txt2img` calls whose client went away before the answer (a cancelled job). */
  readonly abandoned: number
  /** Resolves once `txt2img` has been called `count` times in all. */
  waitForCalls(count: number, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** The checkpoint the fake lists. */
export const FAKE_A1111_MODEL = 'storyboard-sd15.safetensors [e2e]'

/** A PNG of one colour (8-bit RGB), built with Node's zlib: what the fake paints. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  const row = Buffer.alloc(1 + width * 3)
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3)
  const pixels = Buffer.concat(Array.from({ length: height }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** What the fake paints: small (the app resizes it to the asked size), a honey colour. */
const IMAGE_BASE64 = solidPng(16, 9, [230, 170, 40]).toString('base64')

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
export async function startFakeA1111(): Promise<FakeA1111> {
  let holding = false
  let progress = 0
  let received = 0
  let abandoned = 0
  /** Each held call's answer: an image, or an error when given one. */
  const held = new Set<(error?: { status: number; detail: string }) => void>()
  const waiters = new Set<() => void>()

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    if (req.method === 'GET' && path === '/sdapi/v1/sd-models') {
      json(res, 200, [{ title: FAKE_A1111_MODEL, model_name: 'storyboard-sd15' }])
      return
    }
    if (req.method === 'GET' && path === '/sdapi/v1/progress') {
      json(res, 200, { progress: held.size > 0 ? progress : 0, eta_relative: 0, state: {} })
      return
    }
    if (req.method === 'POST' && path === '/sdapi/v1/txt2img') {
      void readBody(req).then(() => {
        received += 1
        for (const wake of waiters) wake()
        const answer = (error?: { status: number; detail: string }) => {
          held.delete(answer)
          if (res.writableEnded || res.destroyed) return
          if (error) json(res, error.status, { detail: error.detail })
          else json(res, 200, { images: [IMAGE_BASE64] })
        }
        // The caller gave up (its job was cancelled): nothing left to answer.
        res.on('close', () => {
          if (!res.writableEnded) {
            abandoned += 1
            held.delete(answer)
          }
        })
        if (holding) held.add(answer)
        else answer()
      })
      return
    }
    json(res, 404, { detail: 'Not Found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    model: FAKE_A1111_MODEL,
    hold: () => {
      holding = true
      progress = 0
    },
    setProgress: (fraction) => {
      progress = Math.min(1, Math.max(0, fraction))
    },
    release: () => {
      holding = false
      for (const answer of [...held]) answer()
    },
    fail: (status, detail) => {
      holding = false
      for (const answer of [...held]) answer({ status, detail })
    },
    get received() {
      return received
    },
    get abandoned() {
      return abandoned
    },
    async waitForCalls(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (received < count) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`txt2img was called ${received} times, not ${count}`)
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake)
            clearTimeout(timer)
            resolve()
          }
          const timer = setTimeout(wake, left)
          waiters.add(wake)
        })
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        holding = false
        for (const answer of [...held]) answer()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
