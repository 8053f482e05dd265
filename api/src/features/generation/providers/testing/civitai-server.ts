import {
  civitaiJobStatusCollection,
  civitaiTextToImageJob,
  type CivitaiJobStatusCollection,
  type CivitaiModelsResponse,
} from '../civitai-protocol.ts'
import { bytes, type Handler, json, startTestServer, type TestServer } from './http-server.ts'

export const CIVITAI_TEST_TOKEN = 'civitai-test-token'

export interface CivitaiFake {
  server: TestServer
  /** The models `GET /api/v1/models` answers. */
  models: CivitaiModelsResponse['items']
  /** Polls before the job's image is ready; `Infinity` never finishes. */
  pollsUntilReady: number
  /** The finished image's bytes. */
  image: Uint8Array
  /** The job bodies received, as parsed by the protocol schema. */
  jobs: unknown[]
  /** Answer the job as no longer scheduled (a failed job). */
  unscheduled: boolean
  /** The protocol handler, to restore after a test swapped in another. */
  protocol: Handler
}

/**
 * A local Civitai: the public REST model list and version lookup, and the orchestration
 * jobs API (`POST /v1/consumer/jobs`, `GET /v1/consumer/jobs?token=`), on one origin,
 * requiring the Bearer token. The blob is served at `/blobs/<token>.png`.
 */
export async function startCivitaiFake(image: Uint8Array): Promise<CivitaiFake> {
  const fake: CivitaiFake = {
    server: undefined as unknown as TestServer,
    models: [],
    pollsUntilReady: 1,
    image,
    jobs: [],
    unscheduled: false,
    protocol: () => undefined,
  }
  const polls = new Map<string, number>()
  let nextToken = 1

  const status = (token: string): CivitaiJobStatusCollection => {
    const seen = polls.get(token) ?? 0
    const ready = seen >= fake.pollsUntilReady
    return civitaiJobStatusCollection.parse({
      token,
      jobs: [
        {
          jobId: `job-${token}`,
          cost: 1,
          scheduled: !fake.unscheduled,
          result: ready
            ? { blobKey: token, available: true, blobUrl: `${fake.server.url}/blobs/${token}.png` }
            : { blobKey: token, available: false, blobUrl: null },
        },
      ],
    })
  }

  fake.protocol = (req, res) => {
    if (req.pathname.startsWith('/blobs/')) {
      bytes(res, 'image/png', fake.image)
      return
    }
    if (req.headers.authorization !== `Bearer ${CIVITAI_TEST_TOKEN}`) {
      json(res, 401, { error: 'Unauthorized' })
      return
    }
    if (req.method === 'GET' && req.pathname === '/api/v1/models') {
      const limit = Number(req.query.get('limit') ?? '100')
      json(res, 200, {
        items: fake.models.slice(0, limit),
        metadata: { totalItems: fake.models.length },
      })
      return
    }
    const version = /^\/api\/v1\/model-versions\/(\d+)$/.exec(req.pathname)
    if (req.method === 'GET' && version) {
      json(res, 200, { id: Number(version[1]), modelId: 999, name: 'v1', baseModel: 'SDXL 1.0' })
      return
    }
    if (req.method === 'POST' && req.pathname === '/v1/consumer/jobs') {
      const job = civitaiTextToImageJob.safeParse(req.body)
      if (!job.success) {
        json(res, 400, { title: 'Bad Request', errors: job.error.issues })
        return
      }
      fake.jobs.push(job.data)
      const token = `t${nextToken++}`
      polls.set(token, 0)
      json(res, 200, status(token))
      return
    }
    if (req.method === 'GET' && req.pathname === '/v1/consumer/jobs') {
      const token = req.query.get('token') ?? ''
      if (!polls.has(token)) {
        json(res, 404, { title: 'Not Found' })
        return
      }
      polls.set(token, polls.get(token)! + 1)
      json(res, 200, status(token))
      return
    }
    json(res, 404, { title: 'Not Found' })
  }
  fake.server = await startTestServer(fake.protocol)
  return fake
}
