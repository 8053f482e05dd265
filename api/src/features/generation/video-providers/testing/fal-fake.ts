import {
  type Handler,
  json,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from '../../providers/testing/http-server.ts'
import { type ResultFile, resultFile, serveResultFile } from './result-file.ts'

export const FAL_TEST_KEY = 'fal-test-key'

/**
 * A local fal.ai queue (`https://queue.fal.run` as it behaves), for tests and for browser
 * tests and benchmarks that need a video provider answering at once: `POST /{model id}` answers
 * the request's URLs, shortened to the model's first two segments as fal does, so a client that
 * builds them from the model id gets 404s; `GET status_url` walks through `IN_QUEUE` (its
 * positions), `IN_PROGRESS` (its logs) to `COMPLETED`; `GET response_url` answers the result;
 * `PUT cancel_url` cancels. The result's media is served at `/files/clip.mp4` (no key needed,
 * as fal's media URLs). Every queue route wants `Authorization: Key FAL_TEST_KEY`.
 */
export interface FalFake {
  server: TestServer
  /** The queue positions fal reports, poll by poll, before the request runs (0 = next). */
  queuePositions: number[]
  /** The logs of each `IN_PROGRESS` poll, before `COMPLETED`. */
  progressLogs: string[][]
  /** What `response_url` answers; default a video result pointing at the media file. */
  response: { status: number; body: unknown } | undefined
  /** `error` (and `error_type`) on the `COMPLETED` status, as fal reports a failed request. */
  completedError: { error: string; error_type?: string } | undefined
  /** The media file (`/files/clip.mp4`). */
  file: ResultFile
  /** Answer the next `count` submits 429 with this `Retry-After`. */
  rateLimit: { count: number; retryAfter: string }
  /** Submits received (model path and input). */
  submits: { model: string; input: Record<string, unknown>; at: number }[]
  /** Request ids cancelled with `PUT cancel_url`. */
  cancelled: string[]
  /**
   * Another origin for the URLs a submit answers (a proxy or DNS answering instead of fal);
   * default the fake's own (issue 40 item 2).
   */
  origins: { status?: string; response?: string; cancel?: string }
  /** The protocol handler, to restore after a test swapped in another. */
  protocol: Handler
  /** Back to the defaults (queue of one poll, one progress poll, a video result). */
  reset(file?: ResultFile): void
}

/** A video result as fal's video models answer it. */
export function falVideoResult(url: string) {
  return { video: { url, content_type: 'video/mp4', file_name: 'output.mp4' }, seed: 42 }
}

export async function startFalFake(clip: Uint8Array): Promise<FalFake> {
  const polls = new Map<string, number>()
  let nextId = 1
  const fake: FalFake = {
    server: undefined as unknown as TestServer,
    queuePositions: [],
    progressLogs: [],
    response: undefined,
    completedError: undefined,
    file: resultFile(clip),
    rateLimit: { count: 0, retryAfter: '0' },
    submits: [],
    cancelled: [],
    origins: {},
    protocol: () => undefined,
    reset(file = resultFile(clip)) {
      fake.queuePositions = [0]
      fake.progressLogs = [['Starting', 'Progress: 40%']]
      fake.response = undefined
      fake.completedError = undefined
      fake.file = file
      fake.rateLimit = { count: 0, retryAfter: '0' }
      fake.submits.length = 0
      fake.cancelled.length = 0
      fake.origins = {}
      polls.clear()
      fake.server.requests.length = 0
      fake.server.handle(fake.protocol)
    },
  }

  const status = (id: string) => {
    const seen = polls.get(id) ?? 0
    polls.set(id, seen + 1)
    const base = `${fake.server.url}/${appOf.get(id)}/requests/${id}`
    if (seen < fake.queuePositions.length) {
      return { status: 'IN_QUEUE', queue_position: fake.queuePositions[seen], response_url: base }
    }
    const progress = seen - fake.queuePositions.length
    if (progress < fake.progressLogs.length) {
      return {
        status: 'IN_PROGRESS',
        response_url: base,
        logs: fake.progressLogs[progress]!.map((message) => ({
          message,
          level: 'INFO',
          source: 'user',
          timestamp: '2026-11-26T12:00:00Z',
        })),
      }
    }
    return { status: 'COMPLETED', response_url: base, logs: [], ...fake.completedError }
  }

  const appOf = new Map<string, string>()
  fake.protocol = async (req: RecordedRequest, res) => {
    if (req.pathname.startsWith('/files/')) return serveResultFile(res, fake.file)
    if (req.headers.authorization !== `Key ${FAL_TEST_KEY}`) {
      return json(res, 401, { detail: 'Invalid key' })
    }
    const match = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(req.pathname)
    if (match) {
      const [, app, id, action] = match as unknown as [string, string, string, string | undefined]
      if (appOf.get(id) !== app) return json(res, 404, { detail: 'Request not found' })
      if (req.method === 'GET' && action === '/status') return json(res, 200, status(id))
      if (req.method === 'PUT' && action === '/cancel') {
        fake.cancelled.push(id)
        return json(res, 202, { status: 'CANCELLATION_REQUESTED' })
      }
      if (req.method === 'GET' && action === undefined) {
        const answer = fake.response ?? {
          status: 200,
          body: falVideoResult(`${fake.server.url}/files/clip.mp4`),
        }
        return json(res, answer.status, answer.body)
      }
      return json(res, 405, { detail: 'Method not allowed' })
    }
    if (req.method !== 'POST') return json(res, 404, { detail: 'Not found' })
    if (fake.rateLimit.count > 0) {
      fake.rateLimit.count -= 1
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': fake.rateLimit.retryAfter,
      })
      res.end(JSON.stringify({ detail: 'Too many requests' }))
      fake.submits.push({ model: req.pathname.slice(1), input: {}, at: Date.now() })
      return
    }
    const model = req.pathname.slice(1)
    fake.submits.push({ model, input: req.body as Record<string, unknown>, at: Date.now() })
    const id = `req-${nextId++}`
    // fal answers URLs under the model's first two segments: `fal-ai/kling-video/requests/…`.
    const app = model.split('/').slice(0, 2).join('/')
    appOf.set(id, app)
    const path = `/${app}/requests/${id}`
    const { origins } = fake
    return json(res, 200, {
      request_id: id,
      response_url: `${origins.response ?? fake.server.url}${path}`,
      status_url: `${origins.status ?? fake.server.url}${path}/status`,
      cancel_url: `${origins.cancel ?? fake.server.url}${path}/cancel`,
      queue_position: fake.queuePositions[0] ?? 0,
    })
  }
  fake.server = await startTestServer(fake.protocol)
  fake.reset()
  return fake
}
