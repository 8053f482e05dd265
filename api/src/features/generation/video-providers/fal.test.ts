import { readFile, stat } from 'node:fs/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { abortingDuring } from '../providers/testing/http-server.ts'
import { describeImage, solidPng } from '../providers/testing/images.ts'
import { rejection } from '../providers/testing/rejection.ts'
import { createFalImageProvider, createFalVideoProvider, type FalSettings } from './fal.ts'
import { FAL_DEFAULT_MODELS } from './fal-models.ts'
import { SAFETY_REFUSAL } from './provider-http.ts'
import { clipFolder, TEST_POLL_MS, TEST_RETRY } from './testing/clip-folder.ts'
import { clipRequest, modelOf, progressLog, startImage } from './testing/clip-request.ts'
import { FAL_TEST_KEY, type FalFake, startFalFake } from './testing/fal-fake.ts'
import { fileReaches, largeClipBytes, resultFile, tinyMp4 } from './testing/result-file.ts'

const KLING = modelOf(
  FAL_DEFAULT_MODELS,
  'fal:fal-ai/kling-video/v2.5-turbo/standard/image-to-video',
)
const VEO = modelOf(FAL_DEFAULT_MODELS, 'fal:fal-ai/veo3/fast')
const FLUX = modelOf(FAL_DEFAULT_MODELS, 'fal:fal-ai/flux/dev')

let fake: FalFake
let settings: FalSettings
let clip: Uint8Array

const work = clipFolder('fal-test')

beforeAll(async () => {
  clip = await tinyMp4()
  fake = await startFalFake(clip)
  settings = {
    key: FAL_TEST_KEY,
    queueUrl: fake.server.url,
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

describe('fal video provider (a local server speaking fal’s queue protocol)', () => {
  it('submits the mapped input, follows the status URL fal returns from queued to completed, and saves the clip', async () => {
    fake.queuePositions = [2, 0]
    fake.progressLogs = [['Loading model'], ['Progress: 40%']]
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const image = await startImage()
    const { reports, onProgress } = progressLog()
    const generated = await provider.generateClip(
      clipRequest(KLING, { startImage: image, durationSeconds: 10, negativePrompt: 'blur' }),
      { signal: signal(), onProgress },
    )
    const path = outPath()
    await generated.saveTo(path, signal())

    expect(new Uint8Array(await readFile(path))).toEqual(clip)
    expect(fake.submits).toEqual([
      {
        model: 'fal-ai/kling-video/v2.5-turbo/standard/image-to-video',
        input: {
          prompt: 'A lighthouse at dusk, waves rolling in',
          image_url: `data:image/png;base64,${Buffer.from(image.bytes).toString('base64')}`,
          negative_prompt: 'blur',
          duration: '10',
        },
        at: expect.any(Number),
      },
    ])
    // fal counts its queue from 0; Reelgraph from 1 (next).
    expect(reports).toEqual([
      { state: 'queued' },
      { state: 'queued', queuePosition: 3 },
      { state: 'queued', queuePosition: 1 },
      { state: 'running', percent: undefined },
      { state: 'running', percent: 40 },
    ])
    // The shortened URLs fal answered, with the logs asked for; never the model's full path.
    const statusPolls = fake.server.requests.filter((r) => r.pathname.endsWith('/status'))
    expect(statusPolls.length).toBe(5)
    for (const poll of statusPolls) {
      expect(poll.pathname).toMatch(/^\/fal-ai\/kling-video\/requests\/req-\d+\/status$/)
      expect(poll.query.get('logs')).toBe('1')
    }
  })

  it('sends `Authorization: Key …` to the queue and no key to the media URL', async () => {
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO), {
      signal: signal(),
      onProgress: () => {},
    })
    await generated.saveTo(outPath(), signal())
    const queue = fake.server.requests.filter((r) => !r.pathname.startsWith('/files/'))
    // Submit, three polls (queued, running, completed), the result.
    expect(queue.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET', 'GET'])
    for (const request of queue) expect(request.headers.authorization).toBe(`Key ${FAL_TEST_KEY}`)
    const media = fake.server.requests.filter((r) => r.pathname.startsWith('/files/'))
    expect(media).toHaveLength(1)
    expect(media[0]!.headers.authorization).toBeUndefined()
    // A text-to-video model: duration in fal's words ("4s"), no image.
    expect(fake.submits[0]!.input).toEqual({
      prompt: 'A lighthouse at dusk, waves rolling in',
      seed: 1234,
      duration: '4s',
      aspect_ratio: '16:9',
      resolution: '720p',
      generate_audio: false,
    })
  })

  it('says the key was refused on 401', async () => {
    const provider = createFalVideoProvider({ ...settings, key: 'wrong' }, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe('The fal key was refused: check FAL_KEY on the server.')
    expect(error.transient).toBe(false)
  })

  it('turns a failed request into fal’s own reason, final', async () => {
    fake.response = {
      status: 422,
      body: {
        detail: [{ loc: ['body', 'image_url'], msg: 'Image is too small', type: 'value_error' }],
      },
    }
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(KLING, { startImage: await startImage() }), {
        signal: signal(),
        onProgress: () => {},
      }),
    )
    expect(error.kind).toBe('refused')
    expect(error.message).toBe('fal.ai refused the request: Image is too small')
    expect(error.transient).toBe(false)
  })

  it('turns a content policy violation into the safety refusal', async () => {
    fake.response = {
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'prompt'],
            msg: 'The content could not be processed because it contained material flagged by a content checker.',
            type: 'content_policy_violation',
          },
        ],
      },
    }
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe(SAFETY_REFUSAL)
    expect(error.transient).toBe(false)
  })

  it('reads a failure fal reports on the COMPLETED status', async () => {
    fake.completedError = { error: 'Internal error while generating', error_type: 'runner_error' }
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe('fal.ai could not make it: Internal error while generating')
    // The result was not asked for.
    expect(fake.server.requests.filter((r) => /requests\/[^/]+$/.test(r.pathname))).toEqual([])
  })

  it('waits what Retry-After asks on 429, then goes on', async () => {
    fake.rateLimit = { count: 1, retryAfter: '1' }
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO), {
      signal: signal(),
      onProgress: () => {},
    })
    await generated.saveTo(outPath(), signal())
    expect(fake.submits).toHaveLength(2)
    // Retry-After: 1 is one second; the policy's own backoff would be 10 ms.
    expect(fake.submits[1]!.at - fake.submits[0]!.at).toBeGreaterThanOrEqual(950)
  })

  it('hands a provider that stays busy to the job queue as transient after its attempts', async () => {
    fake.rateLimit = { count: 10, retryAfter: '0' }
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO), { signal: signal(), onProgress: () => {} }),
    )
    expect(fake.submits).toHaveLength(3)
    expect(error.status).toBe(429)
    expect(error.transient).toBe(true)
  })

  it('reads a result URL that answers only once once, streaming it to disk', async () => {
    const big = largeClipBytes(512 * 1024)
    const path = outPath()
    const file = resultFile(big)
    file.once = true
    // The second half is sent only once the first is in the file: a client that held the
    // body in memory before writing it would never get there.
    file.beforeRest = () => fileReaches(path, big.byteLength / 2)
    fake.reset(file)
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO), {
      signal: signal(),
      onProgress: () => {},
    })
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(big)
    expect(file.served).toBe(1)
  })

  it('cancels at fal (PUT cancel_url) when the signal aborts', async () => {
    fake.progressLogs = Array.from({ length: 1000 }, () => ['Still working'])
    const controller = new AbortController()
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const generating = provider.generateClip(clipRequest(VEO), {
      signal: controller.signal,
      onProgress: (report) => {
        if (report.state === 'running') controller.abort()
      },
    })
    const error = await rejection(generating)
    expect(error.kind).toBe('unavailable')
    const poll = fake.server.requests.find((r) => r.pathname.endsWith('/status'))!
    const requestId = /requests\/([^/]+)\//.exec(poll.pathname)![1]
    expect(fake.cancelled).toEqual([requestId])
    const cancel = fake.server.requests.find((r) => r.method === 'PUT')
    expect(cancel!.pathname).toBe(`/fal-ai/veo3/requests/${requestId}/cancel`)
    expect(cancel!.headers.authorization).toBe(`Key ${FAL_TEST_KEY}`)
  })

  it('cancels at fal a request whose submit the job was cancelled during: the submit ends, then PUT cancel_url', async () => {
    const controller = new AbortController()
    fake.server.handle(abortingDuring(controller, (req) => req.method === 'POST', fake.protocol))
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO), {
        signal: controller.signal,
        onProgress: () => {},
      }),
    )
    expect(error.kind).toBe('unavailable')
    expect(fake.submits).toHaveLength(1)
    expect(fake.cancelled).toHaveLength(1)
    // Not followed once cancelled.
    expect(fake.server.requests.filter((r) => r.pathname.endsWith('/status'))).toEqual([])
  })

  it('submits nothing for a job cancelled before its turn', async () => {
    const controller = new AbortController()
    controller.abort()
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO), { signal: controller.signal, onProgress: () => {} }),
    )
    expect(error.kind).toBe('unavailable')
    expect(fake.server.requests.filter((r) => r.method === 'POST')).toEqual([])
  })

  it('saves whatever the result URL answers, even a page that is no video (the clip job checks)', async () => {
    const page = new TextEncoder().encode('<html><body>Not found</body></html>')
    fake.reset(resultFile(page, 'text/html'))
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO), {
      signal: signal(),
      onProgress: () => {},
    })
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(await readFile(path, 'utf8')).toBe('<html><body>Not found</body></html>')
  })

  it('leaves no file when the download fails', async () => {
    const file = resultFile(clip)
    file.once = true
    file.served = 1 // already read once: it answers 404
    fake.reset(file)
    const provider = createFalVideoProvider(settings, FAL_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO), {
      signal: signal(),
      onProgress: () => {},
    })
    const path = outPath()
    await rejection(generated.saveTo(path, signal()))
    await expect(stat(path)).rejects.toThrow()
  })
})

describe('fal image provider', () => {
  it('draws FLUX through the queue at the asked size', async () => {
    const png = await solidPng(512, 512)
    fake.reset(resultFile(png, 'image/png'))
    fake.response = {
      status: 200,
      body: {
        images: [{ url: `${fake.server.url}/files/image.png`, width: 512, height: 512 }],
        has_nsfw_concepts: [false],
        seed: 7,
      },
    }
    const provider = createFalImageProvider(settings, FLUX)
    const image = await provider.generateImage(
      {
        projectId: 1,
        modelVersionId: FLUX.model.id,
        prompt: 'a red fox',
        negativePrompt: '',
        width: 768,
        height: 512,
        numInferenceSteps: 28,
        guidanceScale: 3.5,
        seed: 7,
      },
      signal(),
    )
    expect(await describeImage(image.bytes)).toEqual({ width: 768, height: 512, format: 'png' })
    expect(fake.submits[0]).toMatchObject({
      model: 'fal-ai/flux/dev',
      input: {
        prompt: 'a red fox',
        seed: 7,
        num_inference_steps: 28,
        guidance_scale: 3.5,
        image_size: { width: 768, height: 512 },
        enable_safety_checker: true,
      },
    })
  })

  it('refuses an image fal flags as not safe', async () => {
    fake.response = {
      status: 200,
      body: { images: [{ url: `${fake.server.url}/files/image.png` }], has_nsfw_concepts: [true] },
    }
    const provider = createFalImageProvider(settings, FLUX)
    const error = await rejection(
      provider.generateImage(
        {
          projectId: 1,
          modelVersionId: FLUX.model.id,
          prompt: 'x',
          negativePrompt: '',
          width: 512,
          height: 512,
          numInferenceSteps: 28,
          guidanceScale: 3.5,
          seed: 1,
        },
        signal(),
      ),
    )
    expect(error.message).toBe(SAFETY_REFUSAL)
  })
})
