import {
  type Handler,
  json,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from '../../providers/testing/http-server.ts'
import { type ResultFile, resultFile, serveResultFile } from './result-file.ts'

/**
 * A local ComfyUI server (its HTTP routes as ComfyUI serves them): `POST /upload/image`
 * (multipart), `POST /prompt` (a 400 with `node_errors` when asked), `GET /queue` (the prompt
 * waits behind `ahead` others for `pendingPolls` polls, then runs), `GET /history/{id}` (`{}`
 * until done, then its outputs or an execution error), `GET /view`, `POST /interrupt`,
 * `POST /queue` `{ delete }`. The output is a SaveVideo node's mp4 (or an image).
 */
export interface ComfyuiFake {
  server: TestServer
  /** Prompts queued before ours. */
  ahead: number
  /** History polls while ours waits in the queue, then while it runs. */
  pendingPolls: number
  runningPolls: number
  /** How it ends. */
  outcome:
    | {
        kind: 'output'
        node: string
        files: { filename: string; subfolder: string; type: string }[]
      }
    | { kind: 'error'; nodeType: string; message: string }
  /** Answer `POST /prompt` 400 as ComfyUI does for a workflow it cannot run. */
  rejectPrompt: boolean
  rateLimit: { count: number; retryAfter: string }
  file: ResultFile
  /** The prompts queued (the workflows as sent). */
  prompts: {
    prompt: Record<string, { inputs: Record<string, unknown> }>
    client_id: string
    at: number
  }[]
  /** Multipart bodies of uploads (as text) and the names given. */
  uploads: { body: string; name: string }[]
  interrupts: unknown[]
  deletes: unknown[]
  protocol: Handler
  reset(file?: ResultFile): void
}

/** The history outputs of a SaveVideo node writing `video/ComfyUI_00001_.mp4`. */
export const SAVED_VIDEO = {
  kind: 'output' as const,
  node: '58',
  files: [{ filename: 'ComfyUI_00001_.mp4', subfolder: 'video', type: 'output' }],
}

export async function startComfyuiFake(clip: Uint8Array): Promise<ComfyuiFake> {
  const polls = new Map<string, number>()
  let nextId = 1
  const fake: ComfyuiFake = {
    server: undefined as unknown as TestServer,
    ahead: 0,
    pendingPolls: 0,
    runningPolls: 1,
    outcome: SAVED_VIDEO,
    rejectPrompt: false,
    rateLimit: { count: 0, retryAfter: '0' },
    file: resultFile(clip),
    prompts: [],
    uploads: [],
    interrupts: [],
    deletes: [],
    protocol: () => undefined,
    reset(file = resultFile(clip)) {
      fake.ahead = 0
      fake.pendingPolls = 0
      fake.runningPolls = 1
      fake.outcome = SAVED_VIDEO
      fake.rejectPrompt = false
      fake.rateLimit = { count: 0, retryAfter: '0' }
      fake.file = file
      fake.prompts.length = 0
      fake.uploads.length = 0
      fake.interrupts.length = 0
      fake.deletes.length = 0
      polls.clear()
      fake.server.requests.length = 0
      fake.server.handle(fake.protocol)
    },
  }
  const stateOf = (id: string) => {
    const seen = polls.get(id) ?? 0
    if (fake.deletes.length > 0 || fake.interrupts.length > 0) return 'stopped'
    if (seen <= fake.pendingPolls) return 'pending'
    if (seen <= fake.pendingPolls + fake.runningPolls) return 'running'
    return 'done'
  }
  fake.protocol = async (req: RecordedRequest, res) => {
    if (req.method === 'POST' && req.pathname === '/upload/image') {
      const body = String(req.body)
      const name = /name="image"; filename="([^"]+)"/.exec(body)?.[1] ?? 'missing'
      fake.uploads.push({ body, name })
      return json(res, 200, { name, subfolder: '', type: 'input' })
    }
    if (req.method === 'POST' && req.pathname === '/prompt') {
      if (fake.rateLimit.count > 0) {
        fake.rateLimit.count -= 1
        fake.prompts.push({ ...(req.body as ComfyuiFake['prompts'][number]), at: Date.now() })
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': fake.rateLimit.retryAfter,
        })
        res.end(JSON.stringify({ error: 'busy' }))
        return
      }
      fake.prompts.push({ ...(req.body as ComfyuiFake['prompts'][number]), at: Date.now() })
      if (fake.rejectPrompt) {
        return json(res, 400, {
          error: {
            type: 'prompt_outputs_failed_validation',
            message: 'Prompt outputs failed validation',
            details: '',
            extra_info: {},
          },
          node_errors: {
            '37': {
              errors: [
                {
                  type: 'value_not_in_list',
                  message: 'Value not in list',
                  details: "unet_name: 'wan2.2_ti2v_5B_fp16.safetensors' not in []",
                },
              ],
              class_type: 'UNETLoader',
            },
          },
        })
      }
      const id = `prompt-${nextId++}`
      polls.set(id, 0)
      return json(res, 200, { prompt_id: id, number: 100 + nextId, node_errors: {} })
    }
    if (req.method === 'GET' && req.pathname === '/queue') {
      const ours = [...polls.keys()].filter(
        (id) => stateOf(id) !== 'done' && stateOf(id) !== 'stopped',
      )
      const others = Array.from({ length: fake.ahead }, (_, i) => [i, `other-${i}`, {}, {}, []])
      const running = ours
        .filter((id) => stateOf(id) === 'running')
        .map((id) => [200, id, {}, {}, []])
      const pending = ours
        .filter((id) => stateOf(id) === 'pending')
        .map((id) => [300, id, {}, {}, []])
      return json(res, 200, {
        queue_running: running.length > 0 ? running : others.slice(0, 1),
        queue_pending: [...(running.length > 0 ? others : others.slice(1)), ...pending],
      })
    }
    const history = /^\/history\/([^/]+)$/.exec(req.pathname)
    if (req.method === 'GET' && history) {
      const id = decodeURIComponent(history[1]!)
      if (!polls.has(id)) return json(res, 200, {})
      polls.set(id, polls.get(id)! + 1)
      if (stateOf(id) !== 'done') return json(res, 200, {})
      const outcome = fake.outcome
      if (outcome.kind === 'error') {
        return json(res, 200, {
          [id]: {
            prompt: [],
            outputs: {},
            status: {
              status_str: 'error',
              completed: false,
              messages: [
                ['execution_start', { prompt_id: id }],
                [
                  'execution_error',
                  {
                    prompt_id: id,
                    node_id: '3',
                    node_type: outcome.nodeType,
                    exception_message: outcome.message,
                  },
                ],
              ],
            },
          },
        })
      }
      return json(res, 200, {
        [id]: {
          prompt: [],
          outputs: { [outcome.node]: { images: outcome.files, animated: [true] } },
          status: {
            status_str: 'success',
            completed: true,
            messages: [['execution_success', { prompt_id: id }]],
          },
        },
      })
    }
    if (req.method === 'GET' && req.pathname === '/view') return serveResultFile(res, fake.file)
    if (req.method === 'POST' && req.pathname === '/interrupt') {
      fake.interrupts.push(req.body)
      return json(res, 200, {})
    }
    if (req.method === 'POST' && req.pathname === '/queue') {
      fake.deletes.push(req.body)
      return json(res, 200, {})
    }
    return json(res, 404, { error: 'not found' })
  }
  fake.server = await startTestServer(fake.protocol)
  fake.reset()
  return fake
}
