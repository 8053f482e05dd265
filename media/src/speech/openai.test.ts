import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { splitWords } from '@reelgraph/shared'
import { SpeechError } from './errors.ts'
import { createOpenAiSpeechProvider, type OpenAiSpeechSettings } from './openai.ts'
import { decodeWav, encodeWav } from './pcm.ts'
import { toneBetweenSilences } from './testing/audio.ts'
import { bytes, json, startTestServer, type TestServer } from './testing/http-server.ts'

let server: TestServer
let settings: OpenAiSpeechSettings

beforeAll(async () => {
  server = await startTestServer()
  settings = {
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    model: 'gpt-4o-mini-tts',
    timeoutMs: 5_000,
  }
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
})

const signal = () => new AbortController().signal
const TEXT = 'The tide comes in twice a day, and goes out again.'

/** OpenAI's answer to `response_format: "wav"`: 24 kHz mono 16-bit, its sizes unknown. */
function streamedWav(silenceMs: number, speechMs: number): Buffer {
  const wav = Buffer.from(encodeWav(toneBetweenSilences(24_000, silenceMs, speechMs)))
  wav.writeUInt32LE(0xffffffff, 4)
  wav.writeUInt32LE(0xffffffff, 40)
  return wav
}

function speaks(wav: Uint8Array) {
  server.handle((req, res) => {
    if (req.method !== 'POST' || req.pathname !== '/v1/audio/speech') {
      json(res, 404, { error: { message: 'not found' } })
      return
    }
    bytes(res, 'audio/wav', wav)
  })
}

function fails(status: number, message: string) {
  server.handle((_, res) =>
    json(res, status, { error: { message, type: 'error', param: null, code: null } }),
  )
}

async function rejection(promise: Promise<unknown>): Promise<SpeechError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SpeechError)
  return error as SpeechError
}

describe('openai speech provider (real SDK against a local server)', () => {
  it('asks for the model, voice, text and a WAV, and returns the audio with estimated timings', async () => {
    speaks(streamedWav(300, 3_000))
    const provider = createOpenAiSpeechProvider(settings)
    const narration = await provider.synthesize({ text: TEXT, voice: 'coral' }, signal())

    expect(server.requests).toHaveLength(1)
    const [req] = server.requests
    expect(req!.headers.authorization).toBe('Bearer sk-test')
    expect(req!.body).toEqual({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: TEXT,
      response_format: 'wav',
    })

    expect(narration.sampleRate).toBe(24_000)
    expect(narration.durationMs).toBe(3_600)
    expect(narration.timing).toBe('estimated')
    const pcm = decodeWav(narration.wav)
    expect(pcm.samples.length).toBe(24_000 * 3.6)
    expect(narration.wav.readUInt32LE(40)).toBe(pcm.samples.length * 2)
    // Spread over where the audio is not silent.
    expect(narration.words.map((w) => w.text)).toEqual(splitWords(TEXT))
    expect(narration.words[0]!.startMs).toBeCloseTo(300, -1)
    expect(narration.words.at(-1)!.endMs).toBeCloseTo(3_300, -1)
  })

  it('uses alloy when no voice is named', async () => {
    speaks(streamedWav(0, 500))
    const provider = createOpenAiSpeechProvider(settings)
    expect(provider.defaultVoice).toBe('alloy')
    await provider.synthesize({ text: 'Hello.' }, signal())
    expect((server.requests[0]!.body as { voice: string }).voice).toBe('alloy')
  })

  it('calls nothing for blank text', async () => {
    const provider = createOpenAiSpeechProvider(settings)
    const narration = await provider.synthesize({ text: ' ' }, signal())
    expect(narration).toMatchObject({ durationMs: 0, words: [], timing: 'estimated' })
    expect(server.requests).toHaveLength(0)
  })

  it('lists the model’s built-in voices', async () => {
    const gpt = await createOpenAiSpeechProvider(settings).listVoices(signal())
    expect(gpt.map((v) => v.id)).toEqual(expect.arrayContaining(['alloy', 'coral', 'marin']))
    expect(gpt.find((v) => v.id === 'alloy')).toEqual({ id: 'alloy', name: 'Alloy' })
    const tts1 = await createOpenAiSpeechProvider({ ...settings, model: 'tts-1' }).listVoices(
      signal(),
    )
    expect(tts1.map((v) => v.id)).not.toContain('marin')
    expect(server.requests).toHaveLength(0)
  })

  it('reports 429 as a retryable upstream error', async () => {
    fails(429, 'Rate limit reached')
    const error = await rejection(
      createOpenAiSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, status: 429 })
    expect(error.message).toContain('429')
  })

  it('reports 401 as an upstream error not worth retrying, without the upstream text', async () => {
    fails(401, 'Incorrect API key provided: sk-test')
    const error = await rejection(
      createOpenAiSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: false, status: 401 })
    expect(error.message).toMatch(/API key/)
    expect(error.message).not.toContain('sk-test')
  })

  it('reports 500 as retryable', async () => {
    fails(500, 'The server had an error')
    const error = await rejection(
      createOpenAiSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, status: 500 })
  })

  it('reports an answer that is not a WAV as malformed', async () => {
    speaks(new TextEncoder().encode('ID3\u0004 an mp3, not a wave'))
    const error = await rejection(
      createOpenAiSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'malformed', retryable: false })
  })

  it('times out when the server does not answer', async () => {
    server.handle(() => undefined)
    const error = await rejection(
      createOpenAiSpeechProvider({ ...settings, timeoutMs: 200 }).synthesize(
        { text: TEXT },
        signal(),
      ),
    )
    expect(error).toMatchObject({ kind: 'timeout', retryable: true })
  })

  it('stops when the caller aborts', async () => {
    server.handle(() => undefined)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const error = await rejection(
      createOpenAiSpeechProvider(settings).synthesize({ text: TEXT }, controller.signal),
    )
    expect(error.kind).toBe('timeout')
  })

  it('reports a server it cannot reach as a retryable upstream error', async () => {
    const gone = await startTestServer()
    const baseURL = `${gone.url}/v1`
    await gone.close()
    const error = await rejection(
      createOpenAiSpeechProvider({ ...settings, baseURL }).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, status: undefined })
  })
})
