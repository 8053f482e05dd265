import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { splitWords } from '@reelgraph/shared'
import {
  createElevenLabsSpeechProvider,
  ELEVENLABS_DEFAULT_VOICE,
  type ElevenLabsSpeechSettings,
  wordsFromAlignment,
} from './elevenlabs.ts'
import { SpeechError } from './errors.ts'
import { decodeWav } from './pcm.ts'
import { toneBetweenSilences } from './testing/audio.ts'
import {
  json,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from './testing/http-server.ts'

const API_KEY = 'el-test-key'
let server: TestServer
let settings: ElevenLabsSpeechSettings

beforeAll(async () => {
  server = await startTestServer()
  settings = {
    apiKey: API_KEY,
    baseUrl: server.url,
    model: 'eleven_multilingual_v2',
    sampleRate: 24_000,
    timeoutMs: 5_000,
  }
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
})

const signal = () => new AbortController().signal
const TEXT = 'Tides rise, then fall.'
/** Each character of the fake alignment lasts this long, after a lead-in. */
const CHAR_MS = 60
const LEAD_MS = 100

/** ElevenLabs' with-timestamps answer: base64 PCM and one time span per character. */
function withTimestamps(text: string, sampleRate: number) {
  const characters = [...text]
  const starts = characters.map((_, i) => (LEAD_MS + i * CHAR_MS) / 1000)
  const ends = starts.map((s) => s + CHAR_MS / 1000)
  const pcm = toneBetweenSilences(sampleRate, LEAD_MS, characters.length * CHAR_MS)
  const alignment = {
    characters,
    character_start_times_seconds: starts,
    character_end_times_seconds: ends,
  }
  return {
    audio_base64: Buffer.from(pcm.samples.buffer).toString('base64'),
    alignment,
    normalized_alignment: alignment,
  }
}

function speaks(options: { alignment?: boolean } = {}) {
  server.handle((req, res) => {
    const match = /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/.exec(req.pathname)
    if (req.headers['xi-api-key'] !== API_KEY) {
      json(res, 401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } })
      return
    }
    if (req.method !== 'POST' || !match) {
      json(res, 404, { detail: 'Not Found' })
      return
    }
    const rate = Number(/^pcm_(\d+)$/.exec(req.query.get('output_format') ?? '')?.[1])
    const answer = withTimestamps((req.body as { text: string }).text, rate)
    if (options.alignment === false) {
      json(res, 200, { audio_base64: answer.audio_base64 })
      return
    }
    json(res, 200, answer)
  })
}

function body(req: RecordedRequest) {
  return req.body as Record<string, unknown>
}

async function rejection(promise: Promise<unknown>): Promise<SpeechError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SpeechError)
  return error as SpeechError
}

describe('elevenlabs speech provider (real SDK against a local server)', () => {
  it('asks with-timestamps for PCM with the voice and model, and times words from the alignment', async () => {
    speaks()
    const provider = createElevenLabsSpeechProvider(settings)
    const narration = await provider.synthesize({ text: TEXT, voice: 'voice-123' }, signal())

    const [req] = server.requests
    expect(req!.method).toBe('POST')
    expect(req!.pathname).toBe('/v1/text-to-speech/voice-123/with-timestamps')
    expect(req!.query.get('output_format')).toBe('pcm_24000')
    expect(req!.headers['xi-api-key']).toBe(API_KEY)
    expect(body(req!)).toMatchObject({ text: TEXT, model_id: 'eleven_multilingual_v2' })

    expect(narration.sampleRate).toBe(24_000)
    expect(narration.timing).toBe('provider')
    const chars = [...TEXT].length
    expect(narration.durationMs).toBe(2 * LEAD_MS + chars * CHAR_MS)
    expect(decodeWav(narration.wav).samples.length).toBe((narration.durationMs / 1000) * 24_000)
    // "Tides" is characters 0-4, "rise," 6-10, "then" 12-15, "fall." 17-21.
    expect(narration.words).toEqual([
      { text: 'Tides', startMs: 100, endMs: 100 + 5 * CHAR_MS },
      { text: 'rise,', startMs: 100 + 6 * CHAR_MS, endMs: 100 + 11 * CHAR_MS },
      { text: 'then', startMs: 100 + 12 * CHAR_MS, endMs: 100 + 16 * CHAR_MS },
      { text: 'fall.', startMs: 100 + 17 * CHAR_MS, endMs: 100 + 22 * CHAR_MS },
    ])
  })

  it('asks for the configured sample rate, and uses the default voice when none is named', async () => {
    speaks()
    const provider = createElevenLabsSpeechProvider({ ...settings, sampleRate: 44_100 })
    const narration = await provider.synthesize({ text: 'Hello there.' }, signal())
    const [req] = server.requests
    expect(req!.pathname).toBe(`/v1/text-to-speech/${ELEVENLABS_DEFAULT_VOICE}/with-timestamps`)
    expect(req!.query.get('output_format')).toBe('pcm_44100')
    expect(narration.sampleRate).toBe(44_100)
    expect(decodeWav(narration.wav).sampleRate).toBe(44_100)
  })

  it('estimates the timings when the answer has no alignment', async () => {
    speaks({ alignment: false })
    const narration = await createElevenLabsSpeechProvider(settings).synthesize(
      { text: TEXT },
      signal(),
    )
    expect(narration.timing).toBe('estimated')
    expect(narration.words.map((w) => w.text)).toEqual(splitWords(TEXT))
    expect(narration.words[0]!.startMs).toBeCloseTo(LEAD_MS, -1)
  })

  it('lists the account’s voices', async () => {
    server.handle((req, res) => {
      if (req.method === 'GET' && req.pathname === '/v2/voices') {
        json(res, 200, {
          voices: [
            {
              voice_id: 'JBFqnCBsd6RMkjVDRZzb',
              name: 'George',
              category: 'premade',
              labels: { accent: 'british', language: 'en' },
            },
            { voice_id: 'abc', name: 'Custom', category: 'cloned', labels: {} },
          ],
          has_more: false,
          total_count: 2,
        })
        return
      }
      json(res, 404, { detail: 'Not Found' })
    })
    const voices = await createElevenLabsSpeechProvider(settings).listVoices(signal())
    expect(voices).toEqual([
      { id: 'JBFqnCBsd6RMkjVDRZzb', name: 'George', language: 'en' },
      { id: 'abc', name: 'Custom', language: undefined },
    ])
    expect(server.requests[0]!.query.get('page_size')).toBe('100')
    expect(server.requests[0]!.headers['xi-api-key']).toBe(API_KEY)
  })

  it('reports 429 as a retryable upstream error', async () => {
    server.handle((_, res) =>
      json(res, 429, { detail: { status: 'too_many_concurrent_requests', message: 'Busy' } }),
    )
    const error = await rejection(
      createElevenLabsSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, status: 429 })
  })

  it('reports a wrong key (401) as an upstream error not worth retrying', async () => {
    speaks()
    const error = await rejection(
      createElevenLabsSpeechProvider({ ...settings, apiKey: 'wrong' }).synthesize(
        { text: TEXT },
        signal(),
      ),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: false, status: 401 })
    expect(error.message).toMatch(/API key/)
  })

  it('reports 422 (e.g. an unknown model) as not retryable', async () => {
    server.handle((_, res) =>
      json(res, 422, { detail: [{ loc: ['body', 'model_id'], msg: 'bad', type: 'value_error' }] }),
    )
    const error = await rejection(
      createElevenLabsSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: false, status: 422 })
  })

  it('reports 503 as retryable', async () => {
    server.handle((_, res) => json(res, 503, { detail: 'overloaded' }))
    const error = await rejection(
      createElevenLabsSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, status: 503 })
  })

  it('reports an answer that is not the protocol as malformed', async () => {
    server.handle((_, res) => json(res, 200, { audio: 'where is audio_base64?' }))
    const error = await rejection(
      createElevenLabsSpeechProvider(settings).synthesize({ text: TEXT }, signal()),
    )
    expect(error).toMatchObject({ kind: 'malformed', retryable: false })
  })

  it('times out when the server does not answer', async () => {
    server.handle(() => undefined)
    const error = await rejection(
      createElevenLabsSpeechProvider({ ...settings, timeoutMs: 200 }).synthesize(
        { text: TEXT },
        signal(),
      ),
    )
    expect(error).toMatchObject({ kind: 'timeout', retryable: true })
  })

  it('calls nothing for blank text', async () => {
    const narration = await createElevenLabsSpeechProvider(settings).synthesize(
      { text: '' },
      signal(),
    )
    expect(narration).toMatchObject({ durationMs: 0, words: [], sampleRate: 24_000 })
    expect(server.requests).toHaveLength(0)
  })
})

describe('wordsFromAlignment', () => {
  const alignment = (text: string) => {
    const characters = [...text]
    return {
      characters,
      characterStartTimesSeconds: characters.map((_, i) => i / 10),
      characterEndTimesSeconds: characters.map((_, i) => (i + 1) / 10),
    }
  }

  it('groups characters into the words of the text, emoji and all', () => {
    expect(wordsFromAlignment(' Hi 😀 there ', alignment(' Hi 😀 there '), 10_000)).toEqual([
      { text: 'Hi', startMs: 100, endMs: 300 },
      { text: '😀', startMs: 400, endMs: 500 },
      { text: 'there', startMs: 600, endMs: 1_100 },
    ])
  })

  it('clamps to the audio and never goes backwards', () => {
    const a = alignment('ab cd')
    a.characterStartTimesSeconds[3] = 0 // "c" claims to start before "b" ends
    expect(wordsFromAlignment('ab cd', a, 400)).toEqual([
      { text: 'ab', startMs: 0, endMs: 200 },
      { text: 'cd', startMs: 200, endMs: 400 },
    ])
  })

  it('gives up on an alignment of another text', () => {
    expect(wordsFromAlignment('one two', alignment('one too'), 1_000)).toBeNull()
    const broken = alignment('one')
    broken.characterEndTimesSeconds.pop()
    expect(wordsFromAlignment('one', broken, 1_000)).toBeNull()
  })
})
