import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { a1111Protocol, createAutomatic1111ImageProvider } from './automatic1111.ts'
import {
  type Handler,
  json,
  never,
  startTestServer,
  type TestServer,
} from './testing/http-server.ts'
import { describeImage, solidPng } from './testing/images.ts'
import { rejection } from './testing/rejection.ts'

const SHORT_TIMEOUT_MS = 300

let server: TestServer
let png: Uint8Array
/** A local AUTOMATIC1111 web UI API: the model list and txt2img answering `png`. */
let protocol: Handler

beforeAll(async () => {
  png = await solidPng(640, 384)
  protocol = (req, res) => {
    if (req.method === 'GET' && req.pathname === '/sdapi/v1/sd-models') {
      json(res, 200, [
        {
          title: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
          model_name: 'v1-5-pruned-emaonly',
          hash: '6ce0161689',
          filename: '/models/v1-5.safetensors',
          config: null,
        },
        {
          title: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
          model_name: 'sd_xl_base_1.0',
          hash: '31e35c80fc',
          filename: '/models/sdxl.safetensors',
          config: null,
        },
      ])
      return
    }
    if (req.method === 'POST' && req.pathname === '/sdapi/v1/txt2img') {
      const body = a1111Protocol.txt2imgRequest.safeParse(req.body)
      if (!body.success) {
        json(res, 422, { detail: body.error.issues })
        return
      }
      json(res, 200, {
        images: [Buffer.from(png).toString('base64')],
        parameters: body.data,
        info: '{}',
      })
      return
    }
    json(res, 404, { detail: 'Not Found' })
  }
  server = await startTestServer(protocol)
})
afterAll(() => server.close())
beforeEach(() => {
  server.handle(protocol)
  server.requests.length = 0
})

const settings = () => ({ url: `${server.url}/`, timeoutMs: 5_000 })
const signal = () => new AbortController().signal
const request = {
  projectId: 1,
  modelVersionId: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
  prompt: 'a castle on a hill',
  negativePrompt: 'fog',
  width: 640,
  height: 384,
  numInferenceSteps: 30,
  guidanceScale: 6.5,
  seed: 77,
}

describe('automatic1111 image provider (local server speaking the web UI API)', () => {
  it('lists each checkpoint as a model with one version named by its title', async () => {
    const provider = createAutomatic1111ImageProvider(settings())
    expect(await provider.listModels(1, signal())).toEqual([
      {
        id: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
        name: 'v1-5-pruned-emaonly',
        modelVersions: [
          {
            id: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
            name: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
          },
        ],
      },
    ])
  })

  it('sends the spec parameters to txt2img with the checkpoint override and returns the PNG', async () => {
    const provider = createAutomatic1111ImageProvider(settings())
    const image = await provider.generateImage(request, signal())
    expect(image.mimeType).toBe('image/png')
    expect(Buffer.from(image.bytes).equals(Buffer.from(png))).toBe(true)
    expect(server.requests[0]!.body).toEqual({
      prompt: 'a castle on a hill',
      negative_prompt: 'fog',
      width: 640,
      height: 384,
      steps: 30,
      cfg_scale: 6.5,
      seed: 77,
      batch_size: 1,
      n_iter: 1,
      override_settings: { sd_model_checkpoint: 'sd_xl_base_1.0.safetensors [31e35c80fc]' },
    })
  })

  it('reports the web UI progress while the image is made (issue 12)', async () => {
    let answer: (() => void) | undefined
    server.handle((req, res) => {
      if (req.pathname === '/sdapi/v1/progress') {
        json(res, 200, { progress: 0.42, eta_relative: 3, state: {}, current_image: null })
        return
      }
      if (req.pathname === '/sdapi/v1/txt2img') {
        answer = () => void protocol(req, res)
        return
      }
      protocol(req, res)
    })
    const provider = createAutomatic1111ImageProvider(settings())
    const seen: number[] = []
    const image = provider.generateImage(request, signal(), (percent) => {
      seen.push(percent)
      answer?.()
    })
    expect((await image).mimeType).toBe('image/png')
    expect(seen).toEqual([42])
    const polls = server.requests.filter((r) => r.pathname === '/sdapi/v1/progress')
    expect(polls[0]!.query.get('skip_current_image')).toBe('true')
  })

  it('resizes an image of another size to exactly the asked size', async () => {
    const provider = createAutomatic1111ImageProvider(settings())
    const image = await provider.generateImage({ ...request, width: 320, height: 320 }, signal())
    expect(await describeImage(image.bytes)).toEqual({ width: 320, height: 320, format: 'png' })
  })

  it('times out within the configured timeout when the server never answers', async () => {
    server.handle(never)
    const provider = createAutomatic1111ImageProvider({
      ...settings(),
      timeoutMs: SHORT_TIMEOUT_MS,
    })
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('timeout')
  })

  it("respects the caller's signal", async () => {
    server.handle(never)
    const provider = createAutomatic1111ImageProvider(settings())
    const error = await rejection(provider.listModels(10, AbortSignal.timeout(SHORT_TIMEOUT_MS)))
    expect(error.kind).toBe('timeout')
  })

  it.each([
    ['no images', { images: [] }],
    ['text that is not base64', { images: ['%%% not base64 %%%'] }],
    ['base64 that is not an image', { images: [Buffer.from('hello').toString('base64')] }],
    ['a different shape', { detail: 'ok' }],
  ])('treats %s as malformed', async (_, answer) => {
    server.handle((_, res) => json(res, 200, answer))
    const provider = createAutomatic1111ImageProvider(settings())
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('malformed')
  })

  it('treats a body that is not JSON as malformed', async () => {
    server.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>Gradio</html>')
    })
    const provider = createAutomatic1111ImageProvider(settings())
    const error = await rejection(provider.listModels(10, signal()))
    expect(error.kind).toBe('malformed')
  })

  it.each([401, 500])('turns HTTP %i into an upstream error', async (status) => {
    server.handle((_, res) => json(res, status, { detail: 'internal detail' }))
    const provider = createAutomatic1111ImageProvider(settings())
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('upstream')
    expect(error.message).not.toContain('internal detail')
  })
})
