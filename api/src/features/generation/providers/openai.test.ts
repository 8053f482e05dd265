import { narrationBudget } from '@reelgraph/shared'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createOpenAiImageProvider,
  createOpenAiTextProvider,
  nearestImageSize,
  type OpenAiSettings,
} from './openai.ts'
import {
  json,
  never,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from './testing/http-server.ts'
import { describeImage, solidPng } from './testing/images.ts'
import { chatCompletion } from './testing/openai-answers.ts'
import { rejection } from './testing/rejection.ts'

/** Short enough to keep the suite quick, long enough for a local answer. */
const SHORT_TIMEOUT_MS = 300

let server: TestServer
let settings: OpenAiSettings

beforeAll(async () => {
  server = await startTestServer()
  settings = {
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    model: 'test-chat',
    imageModel: 'gpt-image-1',
    textTimeoutMs: 5_000,
    imageTimeoutMs: 5_000,
  }
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
})

const signal = () => new AbortController().signal

/** Answers chat completions from a list, one per call. */
function chatAnswers(...contents: string[]) {
  let call = 0
  server.handle((req, res) => {
    if (req.method !== 'POST' || req.pathname !== '/v1/chat/completions') {
      json(res, 404, { error: { message: 'not found' } })
      return
    }
    json(res, 200, chatCompletion(contents[Math.min(call++, contents.length - 1)]!))
  })
}

const scenesJson = (n: number) =>
  JSON.stringify({
    scenes: Array.from({ length: n }, (_, i) => ({
      narration: `Line ${i + 1}.`,
      visuals: `Wide shot ${i + 1}`,
    })),
  })

function body(req: RecordedRequest) {
  return req.body as Record<string, unknown> & { messages: { role: string; content: string }[] }
}

describe('openai text provider (real SDK against a local server)', () => {
  it('writes a script with a system prompt and the topic, style, tone and format', async () => {
    chatAnswers('  Title\n\nA fine script.  ')
    const provider = createOpenAiTextProvider(settings)
    const script = await provider.generateScript(
      { topic: 'tides', style: 'Casual', tone: 'Enthusiastic', format: 'Story' },
      signal(),
    )
    expect(script).toBe('Title\n\nA fine script.')
    const [req] = server.requests
    expect(req!.headers.authorization).toBe('Bearer sk-test')
    expect(body(req!).model).toBe('test-chat')
    expect(body(req!).messages[0]!.role).toBe('system')
    expect(body(req!).messages[1]!.content).toContain('tides')
    expect(body(req!).messages[1]!.content).toContain('Story')
    expect(provider.info).toEqual({
      id: 'openai',
      name: 'OpenAI-compatible (test-chat)',
      offline: false,
    })
  })

  it('asks for the target length in words of narration (issue 42 item 1)', async () => {
    chatAnswers('Title\n\nA short script.')
    const provider = createOpenAiTextProvider(settings)
    const ask = async (targetSeconds: number | undefined, sceneCount: number | undefined) => {
      server.requests.length = 0
      await provider.generateScript(
        {
          topic: 'tides',
          style: 'Casual',
          tone: 'Enthusiastic',
          format: 'Story',
          targetSeconds,
          sceneCount,
        },
        signal(),
      )
      return body(server.requests[0]!).messages[1]!.content
    }
    const words = (prompt: string) => Number(/about (\d+) words/.exec(prompt)?.[1])
    const short = await ask(30, 1)
    expect(short).toContain('a 30 s video in 1 scene')
    expect(words(short)).toBe(narrationBudget({ targetSeconds: 30, sceneCount: 1 }).words)
    const long = await ask(600, 6)
    expect(long).toContain('a 10 min video in 6 scenes')
    expect(words(long)).toBeGreaterThan(15 * words(short))
    // The pauses around more scenes come off the words; without a length, a minute.
    expect(words(await ask(30, 6))).toBeLessThan(words(short))
    expect(await ask(undefined, undefined)).toContain('a 1 min video in 6 scenes')
  })

  it('asks for scenes through a JSON schema response format and returns exactly sceneCount', async () => {
    chatAnswers(scenesJson(3))
    const provider = createOpenAiTextProvider(settings)
    const scenes = await provider.generateScenes({ script: 'A. B. C.', sceneCount: 3 }, signal())
    expect(scenes).toEqual([
      { narration: 'Line 1.', visuals: 'Wide shot 1' },
      { narration: 'Line 2.', visuals: 'Wide shot 2' },
      { narration: 'Line 3.', visuals: 'Wide shot 3' },
    ])
    const format = body(server.requests[0]!).response_format as {
      type: string
      json_schema: { name: string; schema: { properties: Record<string, unknown> } }
    }
    expect(format.type).toBe('json_schema')
    expect(format.json_schema.name).toBe('scenes')
    expect(format.json_schema.schema.properties).toHaveProperty('scenes')
  })

  it('retries once when the first scenes answer is invalid, and succeeds on a valid second', async () => {
    chatAnswers(scenesJson(2), scenesJson(4))
    const provider = createOpenAiTextProvider(settings)
    const scenes = await provider.generateScenes({ script: 'A. B. C. D.', sceneCount: 4 }, signal())
    expect(scenes).toHaveLength(4)
    expect(server.requests).toHaveLength(2)
    const retry = body(server.requests[1]!).messages
    expect(retry.at(-1)!.content).toContain('exactly 4 scenes')
  })

  it('gives up as malformed when both scenes answers are invalid', async () => {
    chatAnswers('not json at all', JSON.stringify({ scenes: [{ narration: '', visuals: 'x' }] }))
    const provider = createOpenAiTextProvider(settings)
    const error = await rejection(
      provider.generateScenes({ script: 'A.', sceneCount: 1 }, signal()),
    )
    expect(error.kind).toBe('malformed')
    expect(server.requests).toHaveLength(2)
  })

  it('treats a reply without a message as malformed', async () => {
    server.handle((_, res) => json(res, 200, { choices: [] }))
    const provider = createOpenAiTextProvider(settings)
    const error = await rejection(
      provider.generateScript(
        { topic: 't', style: 'Casual', tone: 'Conversational', format: 'Story' },
        signal(),
      ),
    )
    expect(error.kind).toBe('malformed')
  })

  it('treats a 200 that is not JSON as malformed', async () => {
    server.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"choices": [')
    })
    const provider = createOpenAiTextProvider(settings)
    const error = await rejection(
      provider.generateScenes({ script: 'A.', sceneCount: 1 }, signal()),
    )
    expect(error.kind).toBe('malformed')
  })

  it('times out within the configured timeout when the server never answers', async () => {
    server.handle(never)
    const provider = createOpenAiTextProvider({ ...settings, textTimeoutMs: SHORT_TIMEOUT_MS })
    const error = await rejection(
      provider.generateScript(
        { topic: 't', style: 'Casual', tone: 'Conversational', format: 'Story' },
        signal(),
      ),
    )
    expect(error.kind).toBe('timeout')
    expect(error.message).toMatch(/in time/)
  })

  it("respects the caller's signal", async () => {
    server.handle(never)
    const provider = createOpenAiTextProvider(settings)
    const error = await rejection(
      provider.generateScenes(
        { script: 'A.', sceneCount: 1 },
        AbortSignal.timeout(SHORT_TIMEOUT_MS),
      ),
    )
    expect(error.kind).toBe('timeout')
  })

  it.each([401, 500])('turns HTTP %i into an upstream error without the body', async (status) => {
    server.handle((_, res) => json(res, status, { error: { message: 'secret upstream detail' } }))
    const provider = createOpenAiTextProvider(settings)
    const error = await rejection(
      provider.generateScenes({ script: 'A.', sceneCount: 1 }, signal()),
    )
    expect(error.kind).toBe('upstream')
    expect(error.message).not.toContain('secret upstream detail')
    if (status === 401) expect(error.message).toMatch(/API key/)
  })

  it('turns a refused connection into an upstream error', async () => {
    const closed = await startTestServer()
    await closed.close()
    const provider = createOpenAiTextProvider({ ...settings, baseURL: `${closed.url}/v1` })
    const error = await rejection(
      provider.generateScenes({ script: 'A.', sceneCount: 1 }, signal()),
    )
    expect(error.kind).toBe('upstream')
  })
})

describe('openai image provider (real SDK against a local server)', () => {
  const request = {
    projectId: 1,
    modelVersionId: 'gpt-image-1',
    prompt: 'a lighthouse at dusk',
    negativePrompt: 'people',
    width: 1280,
    height: 720,
    numInferenceSteps: 25,
    guidanceScale: 7.5,
    seed: 42,
  }

  it('lists the configured model', async () => {
    const provider = createOpenAiImageProvider(settings)
    expect(await provider.listModels(10, signal())).toEqual([
      {
        id: 'gpt-image-1',
        name: 'gpt-image-1',
        modelVersions: [{ id: 'gpt-image-1', name: 'gpt-image-1' }],
      },
    ])
  })

  it('asks for the nearest supported size and resizes to exactly the asked size', async () => {
    const png = await solidPng(1536, 1024)
    server.handle((req, res) => {
      if (req.pathname !== '/v1/images/generations') return json(res, 404, {})
      json(res, 200, { created: 1, data: [{ b64_json: Buffer.from(png).toString('base64') }] })
    })
    const provider = createOpenAiImageProvider(settings)
    const image = await provider.generateImage(request, signal())
    expect(image.mimeType).toBe('image/png')
    expect(await describeImage(image.bytes)).toEqual({ width: 1280, height: 720, format: 'png' })
    const sent = server.requests[0]!.body as Record<string, unknown>
    expect(sent).toMatchObject({ model: 'gpt-image-1', size: '1536x1024', n: 1 })
    expect(sent.prompt).toContain('a lighthouse at dusk')
    expect(sent.prompt).toContain('Avoid: people')
    expect(sent).not.toHaveProperty('response_format')
  })

  it('picks sizes by aspect ratio per model family', () => {
    expect(nearestImageSize('gpt-image-1', 720, 1280)).toBe('1024x1536')
    expect(nearestImageSize('gpt-image-1', 512, 512)).toBe('1024x1024')
    expect(nearestImageSize('dall-e-3', 1280, 720)).toBe('1792x1024')
    expect(nearestImageSize('dall-e-2', 1280, 720)).toBe('1024x1024')
  })

  it.each([
    ['no images', { created: 1, data: [] }],
    ['bytes that are not an image', { created: 1, data: [{ b64_json: 'aGVsbG8gd29ybGQ=' }] }],
    ['neither base64 nor a URL', { created: 1, data: [{}] }],
    ['a different shape', { images: ['x'] }],
  ])('treats %s as malformed', async (_, answer) => {
    server.handle((_, res) => json(res, 200, answer))
    const provider = createOpenAiImageProvider(settings)
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('malformed')
  })

  it('times out when the server never answers', async () => {
    server.handle(never)
    const provider = createOpenAiImageProvider({ ...settings, imageTimeoutMs: SHORT_TIMEOUT_MS })
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('timeout')
  })

  it('turns HTTP 500 into an upstream error', async () => {
    server.handle((_, res) => json(res, 500, { error: { message: 'boom' } }))
    const provider = createOpenAiImageProvider(settings)
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('upstream')
  })
})

it('the SDK error classes we map are the ones it throws', () => {
  expect(OpenAI.APIConnectionTimeoutError.name).toBe('APIConnectionTimeoutError')
  expect(OpenAI.APIUserAbortError.name).toBe('APIUserAbortError')
})
