import {
  type Handler,
  json,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from '../../providers/testing/http-server.ts'
import { type ResultFile, resultFile, serveResultFile } from './result-file.ts'

export const GEMINI_TEST_KEY = 'gemini-test-key'

/**
 * A local Gemini API for Veo (`https://generativelanguage.googleapis.com` as it behaves):
 * `POST /v1beta/models/{model}:predictLongRunning` answers an operation; `GET
 * /v1beta/{operation name}` is not done for `pendingPolls` polls, then done with the sample's
 * file URI (`/v1beta/files/{id}:download?alt=media`, which wants the key too), or a safety
 * block (`raiMediaFilteredReasons`), or an error. Every route wants `x-goog-api-key`.
 */
export interface GeminiFake {
  server: TestServer
  pendingPolls: number
  /** How the operation ends. */
  outcome:
    | { kind: 'video' }
    | { kind: 'filtered'; reasons: string[] }
    | { kind: 'error'; code: number; message: string }
  file: ResultFile
  /** The sample's video URI instead of the fake's own file (issue 40 item 1). */
  resultUri: string | undefined
  rateLimit: { count: number; retryAfter: string }
  /** Bodies of `predictLongRunning`, with the model. */
  submits: { model: string; body: Record<string, unknown>; at: number }[]
  protocol: Handler
  reset(file?: ResultFile): void
}

export async function startGeminiFake(clip: Uint8Array): Promise<GeminiFake> {
  const polls = new Map<string, number>()
  let nextId = 1
  const fake: GeminiFake = {
    server: undefined as unknown as TestServer,
    pendingPolls: 1,
    outcome: { kind: 'video' },
    file: resultFile(clip),
    resultUri: undefined,
    rateLimit: { count: 0, retryAfter: '0' },
    submits: [],
    protocol: () => undefined,
    reset(file = resultFile(clip)) {
      fake.pendingPolls = 1
      fake.outcome = { kind: 'video' }
      fake.file = file
      fake.resultUri = undefined
      fake.rateLimit = { count: 0, retryAfter: '0' }
      fake.submits.length = 0
      polls.clear()
      fake.server.requests.length = 0
      fake.server.handle(fake.protocol)
    },
  }
  const operation = (name: string, seen: number) => {
    if (seen <= fake.pendingPolls) {
      return {
        name,
        metadata: { progressPercent: Math.round((seen / (fake.pendingPolls + 1)) * 100) },
      }
    }
    if (fake.outcome.kind === 'error') {
      return { name, done: true, error: { code: fake.outcome.code, message: fake.outcome.message } }
    }
    const generateVideoResponse =
      fake.outcome.kind === 'filtered'
        ? { raiMediaFilteredCount: 1, raiMediaFilteredReasons: fake.outcome.reasons }
        : {
            generatedSamples: [
              {
                video: {
                  uri:
                    fake.resultUri ??
                    `${fake.server.url}/v1beta/files/${name.split('/').pop()}:download?alt=media`,
                },
              },
            ],
          }
    return {
      name,
      done: true,
      response: {
        '@type':
          'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse,
      },
    }
  }
  fake.protocol = async (req: RecordedRequest, res) => {
    if (req.headers['x-goog-api-key'] !== GEMINI_TEST_KEY) {
      return json(res, 400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
        },
      })
    }
    if (req.pathname.startsWith('/v1beta/files/')) return serveResultFile(res, fake.file)
    const submit = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(req.pathname)
    if (req.method === 'POST' && submit) {
      fake.submits.push({
        model: submit[1]!,
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
            error: {
              code: 429,
              message: 'Resource has been exhausted',
              status: 'RESOURCE_EXHAUSTED',
            },
          }),
        )
        return
      }
      const name = `models/${submit[1]}/operations/op${nextId++}`
      polls.set(name, 0)
      return json(res, 200, { name })
    }
    const poll = /^\/v1beta\/(models\/[^/]+\/operations\/[^/]+)$/.exec(req.pathname)
    if (req.method === 'GET' && poll) {
      const name = poll[1]!
      const seen = (polls.get(name) ?? 0) + 1
      polls.set(name, seen)
      return json(res, 200, operation(name, seen))
    }
    return json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } })
  }
  fake.server = await startTestServer(fake.protocol)
  fake.reset()
  return fake
}
