import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rejection } from '../providers/testing/rejection.ts'
import { createGeminiVideoProvider, GEMINI_DEFAULT_MODELS, type GeminiSettings } from './gemini.ts'
import { SAFETY_REFUSAL } from './provider-http.ts'
import { clipFolder, TEST_POLL_MS, TEST_RETRY } from './testing/clip-folder.ts'
import { clipRequest, modelOf, progressLog, startImage } from './testing/clip-request.ts'
import { GEMINI_TEST_KEY, type GeminiFake, startGeminiFake } from './testing/gemini-fake.ts'
import { fileReaches, largeClipBytes, resultFile, tinyMp4 } from './testing/result-file.ts'

const VEO_FAST = modelOf(GEMINI_DEFAULT_MODELS, 'gemini:veo-3.1-fast-generate-preview')
const VEO_2 = modelOf(GEMINI_DEFAULT_MODELS, 'gemini:veo-2.0-generate-001')

let fake: GeminiFake
let settings: GeminiSettings
let clip: Uint8Array

const work = clipFolder('gemini-test')

beforeAll(async () => {
  clip = await tinyMp4()
  fake = await startGeminiFake(clip)
  settings = {
    key: GEMINI_TEST_KEY,
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

describe('Veo on the Gemini API (a local server speaking predictLongRunning)', () => {
  it('sends instances[0] and parameters, polls the operation until done, and fetches the video with the key', async () => {
    fake.pendingPolls = 2
    const image = await startImage()
    const last = await startImage(160, 90)
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    const { reports, onProgress } = progressLog()
    const generated = await provider.generateClip(
      clipRequest(VEO_FAST, {
        startImage: image,
        lastFrame: last,
        durationSeconds: 6,
        aspectRatio: '9:16',
        negativePrompt: 'text, watermark',
      }),
      { signal: signal(), onProgress },
    )
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(clip)
    expect(fake.submits).toEqual([
      {
        model: 'veo-3.1-fast-generate-preview',
        body: {
          instances: [
            {
              prompt: 'A lighthouse at dusk, waves rolling in',
              image: {
                bytesBase64Encoded: Buffer.from(image.bytes).toString('base64'),
                mimeType: 'image/png',
              },
              lastFrame: {
                bytesBase64Encoded: Buffer.from(last.bytes).toString('base64'),
                mimeType: 'image/png',
              },
            },
          ],
          parameters: {
            aspectRatio: '9:16',
            durationSeconds: 6,
            resolution: '720p',
            negativePrompt: 'text, watermark',
          },
        },
        at: expect.any(Number),
      },
    ])
    expect(reports).toEqual([
      { state: 'queued' },
      { state: 'running', percent: undefined },
      { state: 'running', percent: 33 },
      { state: 'running', percent: 67 },
    ])
    for (const request of fake.server.requests) {
      expect(request.headers['x-goog-api-key']).toBe(GEMINI_TEST_KEY)
    }
    // GET /v1beta/{operation name}: two pending, then done.
    const polls = fake.server.requests.filter((r) => r.pathname.includes('/operations/'))
    expect(polls).toHaveLength(3)
    for (const poll of polls) {
      expect(poll.method).toBe('GET')
      expect(poll.pathname).toMatch(
        /^\/v1beta\/models\/veo-3\.1-fast-generate-preview\/operations\/op\d+$/,
      )
    }
  })

  it('leaves out the last frame for a model that takes none', async () => {
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    await provider.generateClip(
      clipRequest(VEO_2, { startImage: await startImage(), lastFrame: await startImage() }),
      { signal: signal(), onProgress: () => {} },
    )
    const instance = (fake.submits[0]!.body.instances as Record<string, unknown>[])[0]!
    expect(Object.keys(instance).sort()).toEqual(['image', 'prompt'])
  })

  it('says the key was refused when Google answers "API key not valid"', async () => {
    const provider = createGeminiVideoProvider({ ...settings, key: 'wrong' }, GEMINI_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO_FAST), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe(
      'The Gemini API key was refused: check GEMINI_API_KEY on the server.',
    )
    expect(error.transient).toBe(false)
  })

  it('turns raiMediaFilteredReasons into the safety refusal with Google’s reason', async () => {
    fake.outcome = {
      kind: 'filtered',
      reasons: ['Your prompt may violate our policies about depicting real people.'],
    }
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO_FAST), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe(
      `${SAFETY_REFUSAL} Your prompt may violate our policies about depicting real people.`,
    )
    expect(error.transient).toBe(false)
  })

  it('turns an operation error into Veo’s own reason', async () => {
    fake.outcome = { kind: 'error', code: 3, message: 'Unsupported duration for this model.' }
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO_FAST), { signal: signal(), onProgress: () => {} }),
    )
    expect(error.message).toBe('Veo could not make it: Unsupported duration for this model.')
  })

  it('waits what Retry-After asks on 429', async () => {
    fake.rateLimit = { count: 1, retryAfter: '1' }
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    await provider.generateClip(clipRequest(VEO_FAST), { signal: signal(), onProgress: () => {} })
    expect(fake.submits).toHaveLength(2)
    expect(fake.submits[1]!.at - fake.submits[0]!.at).toBeGreaterThanOrEqual(950)
  })

  it('reads a video URI that answers only once once, streaming it to disk', async () => {
    const big = largeClipBytes(512 * 1024)
    const path = outPath()
    const file = resultFile(big)
    file.once = true
    file.beforeRest = () => fileReaches(path, big.byteLength / 2)
    fake.reset(file)
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO_FAST), {
      signal: signal(),
      onProgress: () => {},
    })
    await generated.saveTo(path, signal())
    expect(new Uint8Array(await readFile(path))).toEqual(big)
    expect(file.served).toBe(1)
  })

  it('stops following the operation when the signal aborts', async () => {
    fake.pendingPolls = 1000
    const controller = new AbortController()
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    const error = await rejection(
      provider.generateClip(clipRequest(VEO_FAST), {
        signal: controller.signal,
        onProgress: (report) => {
          if (report.state === 'running') controller.abort()
        },
      }),
    )
    expect(error.kind).toBe('unavailable')
    const count = fake.server.requests.length
    await new Promise((resolve) => setTimeout(resolve, 5 * TEST_POLL_MS))
    expect(fake.server.requests.length).toBe(count)
  })

  it('saves a file that is no video as it is (the clip job checks it)', async () => {
    fake.reset(resultFile(new TextEncoder().encode('<!doctype html><p>Quota page'), 'text/html'))
    const provider = createGeminiVideoProvider(settings, GEMINI_DEFAULT_MODELS)
    const generated = await provider.generateClip(clipRequest(VEO_FAST), {
      signal: signal(),
      onProgress: () => {},
    })
    const path = outPath()
    await generated.saveTo(path, signal())
    expect(await readFile(path, 'utf8')).toBe('<!doctype html><p>Quota page')
  })
})
