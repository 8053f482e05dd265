import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { abortingDuring, type RecordedRequest } from '../providers/testing/http-server.ts'
import { describeImage, solidPng } from '../providers/testing/images.ts'
import { rejection } from '../providers/testing/rejection.ts'
import { SAFETY_REFUSAL } from './provider-http.ts'
import {
  createReplicateImageProvider,
  createReplicateVideoProvider,
  type ReplicateSettings,
} from './replicate.ts'
import { REPLICATE_DEFAULT_MODELS } from './replicate-models.ts'
import { clipFolder, TEST_POLL_MS, TEST_RETRY } from './testing/clip-folder.ts'
import { clipRequest, modelOf, progressLog, startImage } from './testing/clip-request.ts'
import {
  REPLICATE_TEST_TOKEN,
  type ReplicateFake,
  startReplicateFake,
} from './testing/replicate-fake.ts'
import { fileReaches, largeClipBytes, resultFile, tinyMp4 } from './testing/result-file.ts'

const SEEDANCE = modelOf(REPLICATE_DEFAULT_MODELS, 'replicate:bytedance/seedance-1-pro')
const WAN = modelOf(REPLICATE_DEFAULT_MODELS, 'replicate:wan-video/wan-2.2-i2v-fast')
const SCHNELL = modelOf(REPLICATE_DEFAULT_MODELS, 'replicate:black-forest-labs/flux-schnell')

let fake: ReplicateFake
let settings: ReplicateSettings
let clip: Uint8Array

const work = clipFolder('replicate-test')

beforeAll(async () => {
  clip = await tinyMp4()
  fake = await startReplicateFake(clip)
  settings = {
    token: REPLICATE_TEST_TOKEN,
    baseUrl: fake.server.url,
    pollIntervalMs: TEST_POLL_MS,
    retry: TEST_RETRY,
  }
})
afterAll(async () => {
  await fake.server.close()
})
beforeEach(() => fake.reset())

const signal = () => new AbortController().signal
const { outPath } = work

describe('Replicate video provider (a local server speaking the predictions API)', () => {
  it('creates a prediction with the mapped input, follows urls.get from starting to succeeded, and saves the output', async () => {
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const [first, last] = [await startImage(), await startImage(200, 200)]
    const { reports, onProgress } = progressLog()
    const generated = await provider.generateClip(
      clipRequest(SEEDANCE, {
        startImage: first,
        lastFrame: last,
        durationSeconds: 6,
        aspectRatio: '9:16',
      }),
      { signal: signal(), onProgress },
    )
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(clip)
    expect(fake.creates).toEqual([
      {
        path: '/v1/models/bytedance/seedance-1-pro/predictions',
        body: {
          input: {
            prompt: 'A lighthouse at dusk, waves rolling in',
            image: `data:image/png;base64,${Buffer.from(first.bytes).toString('base64')}`,
            last_frame_image: `data:image/png;base64,${Buffer.from(last.bytes).toString('base64')}`,
            seed: 1234,
            duration: 6,
            aspect_ratio: '9:16',
            resolution: '1080p',
          },
        },
        at: expect.any(Number),
      },
    ])
    expect(reports).toEqual([
      { state: 'queued' },
      { state: 'queued' },
      { state: 'running', percent: 0 },
      { state: 'running', percent: 50 },
    ])
    const polls = fake.server.requests.filter(
      (r) => r.method === 'GET' && r.pathname.startsWith('/v1/'),
    )
    expect(polls.length).toBe(3)
  })

  it('sends the Bearer token to the API and none to the delivery URL', async () => {
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(SEEDANCE), {
      signal: signal(),
      onProgress: () => {},
    })
    await generated.saveTo(outPath(), signal())
    for (const request of fake.server.requests.filter((r) => r.pathname.startsWith('/v1/'))) {
      expect(request.headers.authorization).toBe(`Bearer ${REPLICATE_TEST_TOKEN}`)
    }
    const delivery = fake.server.requests.filter((r) => r.pathname.startsWith('/delivery/'))
    expect(delivery).toHaveLength(1)
    expect(delivery[0]!.headers.authorization).toBeUndefined()
  })

  it('uploads a start image over 1 MB through Replicate’s files API, never as a link into Reelgraph', async () => {
    const big = { bytes: new Uint8Array(1_200_000).fill(7), mimeType: 'image/png' }
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    await provider.generateClip(clipRequest(WAN, { startImage: big }), {
      signal: signal(),
      onProgress: () => {},
    })
    expect(fake.uploads).toHaveLength(1)
    expect(fake.uploads[0]).toMatch(/name="content"; filename="start\.png"/)
    expect(fake.creates[0]!.body.input).toMatchObject({
      image: `${fake.server.url}/v1/files/file-1`,
      num_frames: 81,
      frames_per_second: 16,
    })
  })

  it('says the token was refused on 401', async () => {
    const provider = createReplicateVideoProvider(
      { ...settings, token: 'wrong' },
      REPLICATE_DEFAULT_MODELS,
    )
    const error = await rejection(
      provider.generateClip(clipRequest(SEEDANCE), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe(
      'The Replicate token was refused: check REPLICATE_API_TOKEN on the server.',
    )
  })

  it('turns a failed prediction into Replicate’s own reason, final', async () => {
    fake.outcome = { status: 'failed', error: 'CUDA out of memory' }
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(SEEDANCE), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe('Replicate could not make it: CUDA out of memory')
    expect(error.transient).toBe(false)
  })

  it('turns a prediction flagged as sensitive into the safety refusal', async () => {
    fake.outcome = {
      status: 'failed',
      error:
        'The input or output was flagged as sensitive. Please try again with different inputs. (E005)',
    }
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(SEEDANCE), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe(SAFETY_REFUSAL)
  })

  it('waits what Retry-After asks on 429', async () => {
    fake.rateLimit = { count: 1, retryAfter: '1' }
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    await provider.generateClip(clipRequest(SEEDANCE), { signal: signal(), onProgress: () => {} })
    expect(fake.creates).toHaveLength(2)
    expect(fake.creates[1]!.at - fake.creates[0]!.at).toBeGreaterThanOrEqual(950)
  })

  it('reads an output that answers only once once, streaming it to disk', async () => {
    const big = largeClipBytes(512 * 1024)
    const path = outPath()
    const file = resultFile(big)
    file.once = true
    file.beforeRest = () => fileReaches(path, big.byteLength / 2)
    fake.reset(file)
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(SEEDANCE), {
      signal: signal(),
      onProgress: () => {},
    })
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(big)
    expect(file.served).toBe(1)
  })

  it('cancels the prediction (urls.cancel) when the signal aborts', async () => {
    fake.processingLogs = Array.from({ length: 1000 }, (_, i) => `step ${i}`)
    const controller = new AbortController()
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(SEEDANCE), {
        signal: controller.signal,
        onProgress: (report) => {
          if (report.state === 'running') controller.abort()
        },
      }),
    )
    expect(error.kind).toBe('unavailable')
    expect(fake.cancelled).toHaveLength(1)
    const cancel = fake.server.requests.find((r) => r.pathname.endsWith('/cancel'))!
    expect(cancel.method).toBe('POST')
    expect(cancel.headers.authorization).toBe(`Bearer ${REPLICATE_TEST_TOKEN}`)
  })

  it('cancels a prediction whose creation the job was cancelled during: the create ends, then urls.cancel', async () => {
    fake.processingLogs = Array.from({ length: 1000 }, (_, i) => `step ${i}`)
    const controller = new AbortController()
    const creating = (req: RecordedRequest) =>
      req.method === 'POST' && req.pathname.endsWith('/predictions')
    fake.server.handle(abortingDuring(controller, creating, fake.protocol))
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(SEEDANCE), {
        signal: controller.signal,
        onProgress: () => {},
      }),
    )
    expect(error.kind).toBe('unavailable')
    expect(fake.cancelled).toHaveLength(1)
    // Not followed once cancelled: the create and the cancel, nothing else of the prediction.
    expect(fake.server.requests.filter((r) => r.method === 'GET')).toEqual([])
  })

  it('saves an output that is no video as it is (the clip job checks it)', async () => {
    fake.reset(resultFile(await solidPng(64, 64), 'image/png'))
    const provider = createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(SEEDANCE), {
      signal: signal(),
      onProgress: () => {},
    })
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(await solidPng(64, 64))
  })

  it('runs an owner/name:version model through POST /v1/predictions', async () => {
    const pinned = {
      ...SEEDANCE,
      model: { ...SEEDANCE.model, id: 'replicate:bytedance/seedance-1-pro:a5fd5508' },
    }
    const provider = createReplicateVideoProvider(settings, [pinned])
    await provider.generateClip(clipRequest(pinned), { signal: signal(), onProgress: () => {} })
    expect(fake.creates[0]!.path).toBe('/v1/predictions')
    expect(fake.creates[0]!.body.version).toBe('a5fd5508')
  })
})

describe('Replicate image provider', () => {
  it('draws FLUX schnell at the nearest aspect ratio and crops to the asked size', async () => {
    fake.reset(resultFile(await solidPng(1344, 768), 'image/png'))
    fake.outcome = { status: 'succeeded', output: [`${fake.server.url}/delivery/out-0.png`] }
    const provider = createReplicateImageProvider(settings, SCHNELL)
    const image = await provider.generateImage(
      {
        projectId: 1,
        modelVersionId: SCHNELL.model.id,
        prompt: 'a red fox',
        negativePrompt: '',
        width: 1280,
        height: 720,
        numInferenceSteps: 4,
        guidanceScale: 3.5,
        seed: 7,
      },
      signal(),
    )
    expect(await describeImage(image.bytes)).toEqual({ width: 1280, height: 720, format: 'png' })
    expect(fake.creates[0]!.body.input).toEqual({
      prompt: 'a red fox',
      seed: 7,
      aspect_ratio: '16:9',
      output_format: 'png',
      num_outputs: 1,
    })
  })
})
