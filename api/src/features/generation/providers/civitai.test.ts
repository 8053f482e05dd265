import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCivitaiImageProvider, type CivitaiSettings } from './civitai.ts'
import { checkpointAir, civitaiOrchestrationUrl } from './civitai-protocol.ts'
import { CIVITAI_TEST_TOKEN, type CivitaiFake, startCivitaiFake } from './testing/civitai-server.ts'
import { json, never } from './testing/http-server.ts'
import { describeImage, solidPng } from './testing/images.ts'
import { rejection } from './testing/rejection.ts'

const SHORT_TIMEOUT_MS = 300
/** Quick polls keep the suite fast; production polls every 1.5 s. */
const TEST_POLL_MS = 10

let fake: CivitaiFake
let settings: CivitaiSettings
let png: Uint8Array

beforeAll(async () => {
  png = await solidPng(512, 512)
  fake = await startCivitaiFake(png)
  settings = {
    token: CIVITAI_TEST_TOKEN,
    baseUrl: fake.server.url,
    timeoutMs: 5_000,
    pollIntervalMs: TEST_POLL_MS,
  }
})
afterAll(() => fake.server.close())

const MODELS = [
  {
    id: 4201,
    name: 'Realistic Vision',
    type: 'Checkpoint',
    modelVersions: [
      { id: 130072, name: 'V6.0', baseModel: 'SD 1.5' },
      { id: 130073, name: 'V5.1', baseModel: 'SD 1.5' },
    ],
  },
  { id: 5000, name: 'No versions yet', type: 'Checkpoint', modelVersions: [] },
  {
    id: 101055,
    name: 'SDXL base',
    type: 'Checkpoint',
    modelVersions: [{ id: 128078, name: 'v1.0', baseModel: 'SDXL 1.0' }],
  },
]

beforeEach(() => {
  fake.server.handle(fake.protocol)
  fake.models = structuredClone(MODELS)
  fake.pollsUntilReady = 2
  fake.image = png
  fake.jobs.length = 0
  fake.unscheduled = false
  fake.server.requests.length = 0
})

const signal = () => new AbortController().signal

const request = {
  projectId: 1,
  modelVersionId: '130072',
  prompt: 'a red fox in snow',
  negativePrompt: 'blurry',
  width: 768,
  height: 512,
  numInferenceSteps: 25,
  guidanceScale: 7.5,
  seed: 1234,
}

describe('civitai image provider (local server speaking the REST and orchestration protocol)', () => {
  it('lists checkpoints in the items[].modelVersions[] shape, dropping models without versions', async () => {
    const provider = createCivitaiImageProvider(settings)
    const models = await provider.listModels(10, signal())
    expect(models).toEqual([
      {
        id: 4201,
        name: 'Realistic Vision',
        modelVersions: [
          { id: 130072, name: 'V6.0' },
          { id: 130073, name: 'V5.1' },
        ],
      },
      { id: 101055, name: 'SDXL base', modelVersions: [{ id: 128078, name: 'v1.0' }] },
    ])
    const [req] = fake.server.requests
    expect(req!.query.get('limit')).toBe('10')
    expect(req!.query.get('types')).toBe('Checkpoint')
    expect(req!.query.get('nsfw')).toBe('false')
    expect(req!.headers.authorization).toBe(`Bearer ${CIVITAI_TEST_TOKEN}`)
  })

  it('submits a textToImage job for the model AIR, polls until the blob is ready, downloads it at the asked size', async () => {
    const provider = createCivitaiImageProvider(settings)
    await provider.listModels(10, signal())
    const image = await provider.generateImage(request, signal())
    expect(await describeImage(image.bytes)).toEqual({ width: 768, height: 512, format: 'png' })
    expect(fake.jobs).toEqual([
      {
        $type: 'textToImage',
        baseModel: 'SD_1_5',
        model: 'urn:air:sd1:checkpoint:civitai:4201@130072',
        params: {
          prompt: 'a red fox in snow',
          negativePrompt: 'blurry',
          scheduler: 'EulerA',
          steps: 25,
          cfgScale: 7.5,
          width: 768,
          height: 512,
          seed: 1234,
          clipSkip: 2,
        },
        quantity: 1,
      },
    ])
    const polls = fake.server.requests.filter(
      (r) => r.method === 'GET' && r.pathname === '/v1/consumer/jobs',
    )
    expect(polls).toHaveLength(2)
    expect(polls[0]!.query.get('token')).toBe('t1')
    // The pre-signed blob URL gets no token.
    const download = fake.server.requests.find((r) => r.pathname.startsWith('/blobs/'))
    expect(download!.headers.authorization).toBeUndefined()
  })

  it('looks the version up when it was not listed first, and accepts an AIR as is', async () => {
    const provider = createCivitaiImageProvider(settings)
    await provider.generateImage({ ...request, modelVersionId: '128078' }, signal())
    await provider.generateImage(
      { ...request, modelVersionId: checkpointAir(1, 2, 'Flux.1 D') },
      signal(),
    )
    expect(fake.jobs.map((j) => (j as { model: string; baseModel: string }).model)).toEqual([
      'urn:air:sdxl:checkpoint:civitai:999@128078',
      'urn:air:flux1:checkpoint:civitai:1@2',
    ])
    expect(fake.jobs.map((j) => (j as { baseModel: string }).baseModel)).toEqual(['SDXL', 'Flux1'])
  })

  it('times out when the job never finishes within the configured timeout', async () => {
    fake.pollsUntilReady = Infinity
    const provider = createCivitaiImageProvider({ ...settings, timeoutMs: SHORT_TIMEOUT_MS })
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('timeout')
  })

  it('times out when the server never answers', async () => {
    fake.server.handle(never)
    const provider = createCivitaiImageProvider(settings)
    const error = await rejection(provider.listModels(10, AbortSignal.timeout(SHORT_TIMEOUT_MS)))
    expect(error.kind).toBe('timeout')
  })

  it('reports a job that is no longer scheduled as an upstream error', async () => {
    fake.pollsUntilReady = Infinity
    fake.unscheduled = true
    const provider = createCivitaiImageProvider(settings)
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('upstream')
  })

  it('turns a wrong token (401) into an upstream error that names the key', async () => {
    const provider = createCivitaiImageProvider({ ...settings, token: 'wrong' })
    const error = await rejection(provider.listModels(10, signal()))
    expect(error.kind).toBe('upstream')
    expect(error.message).toMatch(/token/)
  })

  it('treats a blob that is not an image as malformed', async () => {
    fake.image = new TextEncoder().encode('<html>not an image</html>')
    const provider = createCivitaiImageProvider(settings)
    const error = await rejection(provider.generateImage(request, signal()))
    expect(error.kind).toBe('malformed')
  })
})

describe('civitai errors from a misbehaving server', () => {
  const air = checkpointAir(1, 2)

  it('treats a model list of the wrong shape as malformed', async () => {
    fake.server.handle((_, res) => json(res, 200, { items: 'nope' }))
    const provider = createCivitaiImageProvider(settings)
    const error = await rejection(provider.listModels(10, signal()))
    expect(error.kind).toBe('malformed')
  })

  it('treats a job answer without a token as malformed', async () => {
    fake.server.handle((_, res) => json(res, 200, { jobs: [] }))
    const provider = createCivitaiImageProvider(settings)
    const error = await rejection(
      provider.generateImage({ ...request, modelVersionId: air }, signal()),
    )
    expect(error.kind).toBe('malformed')
  })

  it('turns HTTP 500 into an upstream error', async () => {
    fake.server.handle((_, res) => json(res, 500, { title: 'Internal Server Error' }))
    const provider = createCivitaiImageProvider(settings)
    const error = await rejection(
      provider.generateImage({ ...request, modelVersionId: air }, signal()),
    )
    expect(error.kind).toBe('upstream')
  })
})

it('finds the orchestrator for the real site and uses the same origin elsewhere', () => {
  expect(civitaiOrchestrationUrl('https://civitai.com')).toBe('https://orchestration.civitai.com')
  expect(civitaiOrchestrationUrl('http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000')
})
