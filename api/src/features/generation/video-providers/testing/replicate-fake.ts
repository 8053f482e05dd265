import {
  type Handler,
  json,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from '../../providers/testing/http-server.ts'
import { type ResultFile, resultFile, serveResultFile } from './result-file.ts'

export const REPLICATE_TEST_TOKEN = 'r8_test_token'

/**
 * A local Replicate (`https://api.replicate.com` as it behaves): `POST
 * /v1/models/{owner}/{name}/predictions` and `POST /v1/predictions` (with a version) create a
 * prediction answering its `urls.get` and `urls.cancel`; `GET urls.get` walks it through
 * `starting`, `processing` (its logs) to `succeeded` with an output URI (or list, or a
 * failure); `POST urls.cancel` cancels; `POST /v1/files` takes an upload. Every API route
 * wants `Authorization: Bearer REPLICATE_TEST_TOKEN`; the output is served at
 * `/delivery/out.mp4` without one, as replicate.delivery.
 */
export interface ReplicateFake {
  server: TestServer
  /** Polls answered `starting`, then the logs of each `processing` poll, then the end. */
  startingPolls: number
  processingLogs: string[]
  /** How the prediction ends: its output (default the delivery URL), or a failure. */
  outcome: { status: 'succeeded'; output?: unknown } | { status: 'failed'; error: string }
  file: ResultFile
  /** Answer the next `count` creates 429 with this `Retry-After`. */
  rateLimit: { count: number; retryAfter: string }
  /** Predictions created: the path and body. */
  creates: { path: string; body: Record<string, unknown>; at: number }[]
  /** Prediction ids cancelled. */
  cancelled: string[]
  /** Another origin for a prediction's `urls.get` and `urls.cancel`; default the fake's own. */
  origins: { get?: string; cancel?: string }
  /** Files uploaded (their multipart bodies, as text). */
  uploads: string[]
  protocol: Handler
  reset(file?: ResultFile): void
}

export async function startReplicateFake(clip: Uint8Array): Promise<ReplicateFake> {
  const polls = new Map<string, number>()
  let nextId = 1
  const fake: ReplicateFake = {
    server: undefined as unknown as TestServer,
    startingPolls: 1,
    processingLogs: [],
    outcome: { status: 'succeeded' },
    file: resultFile(clip),
    rateLimit: { count: 0, retryAfter: '0' },
    creates: [],
    cancelled: [],
    origins: {},
    uploads: [],
    protocol: () => undefined,
    reset(file = resultFile(clip)) {
      fake.startingPolls = 1
      fake.processingLogs = ['  0%|          | 0/30', ' 50%|█████     | 15/30']
      fake.outcome = { status: 'succeeded' }
      fake.file = file
      fake.rateLimit = { count: 0, retryAfter: '0' }
      fake.creates.length = 0
      fake.cancelled.length = 0
      fake.origins = {}
      fake.uploads.length = 0
      polls.clear()
      fake.server.requests.length = 0
      fake.server.handle(fake.protocol)
    },
  }

  const prediction = (id: string, seen: number) => {
    const urls = {
      get: `${fake.origins.get ?? fake.server.url}/v1/predictions/${id}`,
      cancel: `${fake.origins.cancel ?? fake.server.url}/v1/predictions/${id}/cancel`,
    }
    if (fake.cancelled.includes(id))
      return { id, status: 'canceled', urls, output: null, error: null }
    if (seen < fake.startingPolls) return { id, status: 'starting', urls, logs: '', output: null }
    const processing = seen - fake.startingPolls
    if (processing < fake.processingLogs.length) {
      return {
        id,
        status: 'processing',
        urls,
        output: null,
        logs: fake.processingLogs.slice(0, processing + 1).join('\n'),
      }
    }
    if (fake.outcome.status === 'failed') {
      return { id, status: 'failed', urls, output: null, error: fake.outcome.error }
    }
    return {
      id,
      status: 'succeeded',
      urls,
      error: null,
      output:
        'output' in fake.outcome && fake.outcome.output !== undefined
          ? fake.outcome.output
          : `${fake.server.url}/delivery/out.mp4`,
    }
  }

  fake.protocol = async (req: RecordedRequest, res) => {
    if (req.pathname.startsWith('/delivery/')) return serveResultFile(res, fake.file)
    if (req.headers.authorization !== `Bearer ${REPLICATE_TEST_TOKEN}`) {
      return json(res, 401, {
        title: 'Unauthenticated',
        detail: 'You did not pass a valid authentication token',
        status: 401,
      })
    }
    if (req.method === 'POST' && req.pathname === '/v1/files') {
      fake.uploads.push(String(req.body))
      return json(res, 201, { id: 'file-1', urls: { get: `${fake.server.url}/v1/files/file-1` } })
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(req.pathname)
    if (req.method === 'GET' && get) {
      const id = get[1]!
      const seen = polls.get(id) ?? 0
      polls.set(id, seen + 1)
      return json(res, 200, prediction(id, seen + 1))
    }
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(req.pathname)
    if (req.method === 'POST' && cancel) {
      fake.cancelled.push(cancel[1]!)
      return json(res, 200, prediction(cancel[1]!, 0))
    }
    if (
      req.method === 'POST' &&
      (/^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(req.pathname) ||
        req.pathname === '/v1/predictions')
    ) {
      fake.creates.push({
        path: req.pathname,
        body: req.body as Record<string, unknown>,
        at: Date.now(),
      })
      if (fake.rateLimit.count > 0) {
        fake.rateLimit.count -= 1
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': fake.rateLimit.retryAfter,
        })
        res.end(
          JSON.stringify({
            title: 'Request was throttled',
            detail: 'Request was throttled.',
            status: 429,
          }),
        )
        return
      }
      const id = `pred${nextId++}`
      polls.set(id, 0)
      return json(res, 201, prediction(id, 0))
    }
    return json(res, 404, { title: 'Not found', detail: 'Not found', status: 404 })
  }
  fake.server = await startTestServer(fake.protocol)
  fake.reset()
  return fake
}
