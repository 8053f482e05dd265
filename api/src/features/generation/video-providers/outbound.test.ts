import { copyFile, mkdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json } from '../providers/testing/http-server.ts'
import { solidPng } from '../providers/testing/images.ts'
import { rejection } from '../providers/testing/rejection.ts'
import { createComfyuiVideoProvider, type ComfyuiSettings } from './comfyui.ts'
import { type ComfyuiModel, loadComfyuiWorkflows } from './comfyui-workflows.ts'
import { createFalImageProvider, createFalVideoProvider, type FalSettings } from './fal.ts'
import { FAL_DEFAULT_MODELS } from './fal-models.ts'
import { createGeminiVideoProvider, GEMINI_DEFAULT_MODELS, type GeminiSettings } from './gemini.ts'
import { createReplicateVideoProvider, type ReplicateSettings } from './replicate.ts'
import { REPLICATE_DEFAULT_MODELS } from './replicate-models.ts'
import { clipFolder, TEST_POLL_MS, TEST_RETRY } from './testing/clip-folder.ts'
import { clipRequest, modelOf, startImage } from './testing/clip-request.ts'
import { type ComfyuiFake, startComfyuiFake } from './testing/comfyui-fake.ts'
import { FAL_TEST_KEY, type FalFake, falVideoResult, startFalFake } from './testing/fal-fake.ts'
import { GEMINI_TEST_KEY, type GeminiFake, startGeminiFake } from './testing/gemini-fake.ts'
import {
  endlessBody,
  type OutboundStandIns,
  refusedWords,
  startOutboundStandIns,
  withPath,
} from './testing/outbound-stand-ins.ts'
import {
  REPLICATE_TEST_TOKEN,
  type ReplicateFake,
  startReplicateFake,
} from './testing/replicate-fake.ts'
import { resultFile, tinyMp4 } from './testing/result-file.ts'

/**
 * Untrusted answers (issue 40 items 1-3), against local stand-ins speaking each provider's
 * protocol: a result, status or cancel URL that points inside (127.0.0.1 on another listener,
 * 10.x, 169.254.169.254, [::1], a name resolving to 127.0.0.1, a redirect from an allowed host)
 * fails in words and the internal listener sees no request; the key goes only to the
 * provider's configured origin; a body that never ends stops at its limit and leaves no file.
 */

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '../../../../../docs/comfyui')
const FAL_VEO = modelOf(FAL_DEFAULT_MODELS, 'fal:fal-ai/veo3/fast')
const FLUX = modelOf(FAL_DEFAULT_MODELS, 'fal:fal-ai/flux/dev')
const SEEDANCE = modelOf(REPLICATE_DEFAULT_MODELS, 'replicate:bytedance/seedance-1-pro')
const VEO = modelOf(GEMINI_DEFAULT_MODELS, 'gemini:veo-3.1-fast-generate-preview')
/** The clip limit the endless streams meet (the job passes CLIP_MAX_BYTES). */
const LIMIT = 256 * 1024
const TOO_LARGE =
  /sent a result larger than the 256 KB allowed \(CLIP_MAX_BYTES\); nothing of it was kept\.$/

let clip: Uint8Array
let stand: OutboundStandIns
const work = clipFolder('outbound-test')
const signal = () => new AbortController().signal

beforeAll(async () => {
  clip = await tinyMp4()
  stand = await startOutboundStandIns(clip)
})
afterAll(async () => {
  await stand.close()
})
beforeEach(() => {
  stand.internal.requests.length = 0
  stand.relay.requests.length = 0
})

/** Nothing reached the internal service: no request, so no key either. */
const internalUntouched = () => expect(stand.internal.requests).toEqual([])

describe('fal.ai', () => {
  let fake: FalFake
  let settings: FalSettings
  beforeAll(async () => {
    fake = await startFalFake(clip)
    settings = {
      key: FAL_TEST_KEY,
      queueUrl: fake.server.url,
      pollIntervalMs: TEST_POLL_MS,
      retry: TEST_RETRY,
      outbound: stand.outbound,
      imageMaxBytes: LIMIT,
    }
  })
  afterAll(() => fake.server.close())
  beforeEach(() => fake.reset())

  const generate = () =>
    createFalVideoProvider(settings, FAL_DEFAULT_MODELS).generateClip(clipRequest(FAL_VEO), {
      signal: signal(),
      onProgress: () => {},
    })

  it.each(['127.0.0.1', '10.0.0.1', '169.254', '[::1]', 'localhost', 'redirect'])(
    'refuses a result URL inside (%s) in words, fetching nothing there',
    async (which) => {
      const hostile = stand
        .hostileUrls('/clip.mp4')
        .find((u) => (which === 'redirect' ? u.redirect : u.url.includes(which)))!
      fake.response = { status: 200, body: falVideoResult(hostile.url) }
      const generated = await generate()
      const path = work.outPath()
      const error = await rejection(generated.saveTo(path, signal(), LIMIT))
      expect(error.message).toMatch(refusedWords('fal.ai', hostile))
      expect(error.transient).toBe(false)
      expect(existsSync(path)).toBe(false)
      internalUntouched()
      if (hostile.redirect) expect(stand.relay.requests).toHaveLength(1)
    },
  )

  it('does not follow a status URL on another origin than FAL_QUEUE_URL: the key never goes there', async () => {
    fake.origins.status = stand.internal.url
    const error = await rejection(generate())
    expect(error.message).toBe(
      `fal.ai sent a status URL on another address (${stand.internal.url}) than FAL_QUEUE_URL: its key goes only to FAL_QUEUE_URL, so Reelgraph does not follow it.`,
    )
    internalUntouched()
  })

  it('does not follow a response URL on another origin', async () => {
    fake.origins.response = stand.internal.url
    const error = await rejection(generate())
    expect(error.message).toMatch(/^fal\.ai sent a response URL on another address/)
    internalUntouched()
  })

  it('does not send a cancel to a cancel URL on another origin: the key never goes there', async () => {
    fake.origins.cancel = stand.internal.url
    fake.queuePositions = Array.from({ length: 500 }, () => 0)
    const controller = new AbortController()
    const running = createFalVideoProvider(settings, FAL_DEFAULT_MODELS).generateClip(
      clipRequest(FAL_VEO),
      { signal: controller.signal, onProgress: () => {} },
    )
    while (fake.server.requests.length < 3) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
    expect((await rejection(running)).message).toBe('The fal.ai generation was cancelled.')
    await new Promise((r) => setTimeout(r, 100))
    internalUntouched()
  })

  it('stops an endless result at CLIP_MAX_BYTES as it arrives, and leaves no file', async () => {
    const sent = { bytes: 0 }
    fake.server.handle(
      withPath(fake.protocol, '/files/endless', (_, res) => endlessBody(res, sent)),
    )
    fake.response = { status: 200, body: falVideoResult(`${fake.server.url}/files/endless`) }
    const generated = await generate()
    const path = work.outPath()
    const error = await rejection(generated.saveTo(path, signal(), LIMIT))
    expect(error.message).toMatch(new RegExp(`^fal\\.ai ${TOO_LARGE.source}`))
    expect(error.transient).toBe(false)
    expect(existsSync(path)).toBe(false)
  })

  it('refuses a result whose Content-Length is over the limit before reading it', async () => {
    fake.reset(resultFile(new Uint8Array(LIMIT * 2)))
    const generated = await generate()
    const path = work.outPath()
    const error = await rejection(generated.saveTo(path, signal(), LIMIT))
    expect(error.message).toBe(
      'fal.ai sent a result of 512 KB, more than the 256 KB allowed (CLIP_MAX_BYTES); nothing of it was kept.',
    )
    expect(existsSync(path)).toBe(false)
  })

  describe('image results', () => {
    const draw = () =>
      createFalImageProvider(settings, FLUX).generateImage(
        {
          projectId: 1,
          modelVersionId: FLUX.model.id,
          prompt: 'a red fox',
          negativePrompt: '',
          width: 64,
          height: 64,
          numInferenceSteps: 28,
          guidanceScale: 3.5,
          seed: 7,
        },
        signal(),
      )
    const answerImage = (url: string) => {
      fake.response = { status: 200, body: { images: [{ url }], has_nsfw_concepts: [false] } }
    }

    it('refuses an image result inside, fetching nothing there', async () => {
      const [hostile] = stand.hostileUrls('/image.png')
      answerImage(hostile!.url)
      expect((await rejection(draw())).message).toMatch(refusedWords('fal.ai', hostile!))
      internalUntouched()
    })

    it('reads an endless image only up to IMAGE_RESULT_MAX_BYTES', async () => {
      fake.server.handle(
        withPath(fake.protocol, '/files/endless.png', (_, res) =>
          endlessBody(res, undefined, 'image/png'),
        ),
      )
      answerImage(`${fake.server.url}/files/endless.png`)
      expect((await rejection(draw())).message).toBe(
        'fal.ai sent a result larger than the 256 KB allowed (IMAGE_RESULT_MAX_BYTES); nothing of it was kept.',
      )
    })

    it('refuses an SVG (or any picture not PNG, JPEG or WebP) in words', async () => {
      const svg = new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><image href="file:///etc/passwd"/></svg>',
      )
      fake.reset(resultFile(svg, 'image/svg+xml'))
      answerImage(`${fake.server.url}/files/image.svg`)
      expect((await rejection(draw())).message).toBe(
        'fal.ai sent a picture as SVG, which Reelgraph does not take: only PNG, JPEG and WebP are.',
      )
      const gif = await sharp(await solidPng(64, 64))
        .gif()
        .toBuffer()
      fake.reset(resultFile(new Uint8Array(gif), 'image/gif'))
      answerImage(`${fake.server.url}/files/image.gif`)
      expect((await rejection(draw())).message).toMatch(/as GIF, which Reelgraph does not take/)
    })
  })
})

describe('Replicate', () => {
  let fake: ReplicateFake
  let settings: ReplicateSettings
  beforeAll(async () => {
    fake = await startReplicateFake(clip)
    settings = {
      token: REPLICATE_TEST_TOKEN,
      baseUrl: fake.server.url,
      pollIntervalMs: TEST_POLL_MS,
      retry: TEST_RETRY,
      outbound: stand.outbound,
    }
  })
  afterAll(() => fake.server.close())
  beforeEach(() => fake.reset())

  const generate = (s = signal()) =>
    createReplicateVideoProvider(settings, REPLICATE_DEFAULT_MODELS).generateClip(
      clipRequest(SEEDANCE),
      { signal: s, onProgress: () => {} },
    )

  it.each(['127.0.0.1', '10.0.0.1', '169.254', '[::1]', 'localhost', 'redirect'])(
    'refuses an output URL inside (%s) in words, fetching nothing there',
    async (which) => {
      const hostile = stand
        .hostileUrls('/out.mp4')
        .find((u) => (which === 'redirect' ? u.redirect : u.url.includes(which)))!
      fake.outcome = { status: 'succeeded', output: hostile.url }
      const generated = await generate()
      const path = work.outPath()
      const error = await rejection(generated.saveTo(path, signal(), LIMIT))
      expect(error.message).toMatch(refusedWords('Replicate', hostile))
      expect(existsSync(path)).toBe(false)
      internalUntouched()
    },
  )

  it('does not poll a urls.get on another origin than REPLICATE_BASE_URL: the token never goes there', async () => {
    fake.origins.get = stand.internal.url
    const error = await rejection(generate())
    expect(error.message).toBe(
      `Replicate sent a prediction URL on another address (${stand.internal.url}) than REPLICATE_BASE_URL: its key goes only to REPLICATE_BASE_URL, so Reelgraph does not follow it.`,
    )
    internalUntouched()
  })

  it('does not send a cancel to a urls.cancel on another origin', async () => {
    fake.origins.cancel = stand.internal.url
    fake.startingPolls = 500
    const controller = new AbortController()
    const running = generate(controller.signal)
    while (fake.server.requests.length < 3) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
    expect((await rejection(running)).message).toBe('The Replicate generation was cancelled.')
    await new Promise((r) => setTimeout(r, 100))
    internalUntouched()
  })

  it('stops an endless output at CLIP_MAX_BYTES, and leaves no file', async () => {
    fake.server.handle(
      withPath(fake.protocol, '/delivery/endless.mp4', (_, res) => endlessBody(res)),
    )
    fake.outcome = { status: 'succeeded', output: `${fake.server.url}/delivery/endless.mp4` }
    const generated = await generate()
    const path = work.outPath()
    const error = await rejection(generated.saveTo(path, signal(), LIMIT))
    expect(error.message).toMatch(new RegExp(`^Replicate ${TOO_LARGE.source}`))
    expect(existsSync(path)).toBe(false)
  })
})

describe('Veo on the Gemini API', () => {
  let fake: GeminiFake
  let settings: GeminiSettings
  beforeAll(async () => {
    fake = await startGeminiFake(clip)
    settings = {
      key: GEMINI_TEST_KEY,
      baseUrl: fake.server.url,
      pollIntervalMs: TEST_POLL_MS,
      retry: TEST_RETRY,
      outbound: stand.outbound,
    }
  })
  afterAll(() => fake.server.close())
  beforeEach(() => fake.reset())

  const generate = () =>
    createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS).generateClip(clipRequest(VEO), {
      signal: signal(),
      onProgress: () => {},
    })

  it.each(['127.0.0.1', '10.0.0.1', '169.254', '[::1]', 'localhost', 'redirect'])(
    'refuses a video URI inside (%s) in words, fetching nothing there',
    async (which) => {
      const hostile = stand
        .hostileUrls('/video.mp4')
        .find((u) => (which === 'redirect' ? u.redirect : u.url.includes(which)))!
      fake.resultUri = hostile.url
      const generated = await generate()
      const path = work.outPath()
      const error = await rejection(generated.saveTo(path, signal(), LIMIT))
      expect(error.message).toMatch(refusedWords('The Gemini API', hostile))
      expect(existsSync(path)).toBe(false)
      internalUntouched()
    },
  )

  it('fetches a video URI on another (allowed) origin without the key', async () => {
    stand.relay.handle((_, res) => json(res, 404, { error: 'gone' }))
    try {
      fake.resultUri = `${stand.relay.url}/video.mp4`
      const generated = await generate()
      await rejection(generated.saveTo(work.outPath(), signal(), LIMIT))
      expect(stand.relay.requests).toHaveLength(1)
      expect(stand.relay.requests[0]!.headers['x-goog-api-key']).toBeUndefined()
    } finally {
      stand.relay.handle((req, res) => {
        res.writeHead(302, { location: `${stand.internal.url}${req.url}` })
        res.end()
      })
    }
  })

  it('stops an endless video at CLIP_MAX_BYTES, and leaves no file', async () => {
    fake.server.handle(
      withPath(fake.protocol, '/v1beta/files/endless', (_, res) => endlessBody(res)),
    )
    fake.resultUri = `${fake.server.url}/v1beta/files/endless`
    const generated = await generate()
    const path = work.outPath()
    const error = await rejection(generated.saveTo(path, signal(), LIMIT))
    expect(error.message).toMatch(new RegExp(`^The Gemini API ${TOO_LARGE.source}`))
    expect(existsSync(path)).toBe(false)
  })
})

describe('ComfyUI (its configured base trusted, what it redirects to judged)', () => {
  let fake: ComfyuiFake
  let settings: ComfyuiSettings
  let wan: ComfyuiModel
  beforeAll(async () => {
    fake = await startComfyuiFake(clip)
    settings = {
      url: fake.server.url,
      pollIntervalMs: TEST_POLL_MS,
      retry: TEST_RETRY,
      outbound: stand.outbound,
    }
    const workflows = join(work.dir, 'workflows')
    await mkdir(workflows)
    for (const file of ['wan22-ti2v-5b.json', 'wan22-ti2v-5b.reelgraph.json']) {
      await copyFile(join(DOCS, file), join(workflows, file))
    }
    ;[wan] = loadComfyuiWorkflows(workflows) as [ComfyuiModel]
  })
  afterAll(() => fake.server.close())
  beforeEach(() => fake.reset())

  const generate = async () =>
    createComfyuiVideoProvider(settings, [wan]).generateClip(
      clipRequest(wan.definition, { startImage: await startImage(), durationSeconds: 5 }),
      { signal: signal(), onProgress: () => {} },
    )

  it.each(['127.0.0.1', '10.0.0.1', '169.254', '[::1]', 'localhost', 'redirect'])(
    'refuses a /view that redirects inside (%s), fetching nothing there',
    async (which) => {
      const hostile = stand
        .hostileUrls('/clip.mp4')
        .find((u) => (which === 'redirect' ? u.redirect : u.url.includes(which)))!
      fake.server.handle(
        withPath(fake.protocol, '/view', (_, res) => {
          res.writeHead(302, { location: hostile.url })
          res.end()
        }),
      )
      const generated = await generate()
      const path = work.outPath()
      const error = await rejection(generated.saveTo(path, signal(), LIMIT))
      expect(error.message).toMatch(refusedWords('ComfyUI', { ...hostile, redirect: true }))
      expect(existsSync(path)).toBe(false)
      internalUntouched()
    },
  )

  it('stops an endless /view at CLIP_MAX_BYTES, and leaves no file', async () => {
    const sent = { bytes: 0 }
    fake.server.handle(withPath(fake.protocol, '/view', (_, res) => endlessBody(res, sent)))
    const generated = await generate()
    const path = work.outPath()
    const error = await rejection(generated.saveTo(path, signal(), LIMIT))
    expect(error.message).toMatch(new RegExp(`^ComfyUI ${TOO_LARGE.source}`))
    expect(existsSync(path)).toBe(false)
  })
})
