import type * as ElevenLabsSdkModule from '@elevenlabs/elevenlabs-js'
import type { ElevenLabsClient } from '@elevenlabs/elevenlabs-js'
import { estimateWordTimings } from '@reelgraph/shared'
import type { WordTiming } from '@reelgraph/shared'
import { splitWords } from '@reelgraph/shared'
import { malformedError, statusError, toSpeechError } from './errors.ts'
import { durationMs, encodeWav, pcmFromBytes, voicedSpan } from './pcm.ts'
import { emptyNarration, requestWords, withTimeout } from './text.ts'
import type { Narration, SpeechProvider, SpeechRequest, SpeechVoice } from './types.ts'

/** The PCM rates ElevenLabs offers (`pcm_<rate>`); 44100 and 48000 need a Pro plan. */
export const ELEVENLABS_SAMPLE_RATES = [16_000, 22_050, 24_000, 44_100, 48_000] as const
/** One of `ELEVENLABS_SAMPLE_RATES`, samples per second. */
export type ElevenLabsSampleRate = (typeof ELEVENLABS_SAMPLE_RATES)[number]

/** Settings of the `elevenlabs` speech provider. */
export interface ElevenLabsSpeechSettings {
  apiKey: string
  /** Another ElevenLabs origin (e.g. a data residency one); `https://api.elevenlabs.io` when omitted. */
  baseUrl?: string | undefined
  /** e.g. `eleven_multilingual_v2` (default), `eleven_flash_v2_5`. */
  model: string
  /** Samples per second of the PCM asked for; 24000 (every plan) by default. */
  sampleRate: ElevenLabsSampleRate
  /** Longest call to the service, milliseconds, counted once the SDK has loaded. */
  timeoutMs: number
}

/** The model asked when none is configured: ElevenLabs' multilingual model. */
export const ELEVENLABS_DEFAULT_MODEL = 'eleven_multilingual_v2'
/** "George", one of the premade voices every ElevenLabs account has. */
export const ELEVENLABS_DEFAULT_VOICE = 'JBFqnCBsd6RMkjVDRZzb'
/** 24000 Hz: the highest PCM rate every ElevenLabs plan may ask for. */
export const ELEVENLABS_DEFAULT_SAMPLE_RATE: ElevenLabsSampleRate = 24_000
/** Voices listed: ElevenLabs' largest page. */
const VOICE_PAGE_SIZE = 100

const LABEL = 'The ElevenLabs voice service'
/** No SDK retries: the caller's timeout is the whole budget; the caller decides on retries. */
const SDK_MAX_RETRIES = 0

/** The ElevenLabs SDK module. */
type ElevenLabsSdk = typeof ElevenLabsSdkModule

let sdkImport: Promise<ElevenLabsSdk> | undefined

/**
 * The SDK, imported on first use: loading it takes about 0.9 s on this machine, which every
 * start of the api and the worker waited for, configured or not.
 */
function loadSdk(): Promise<ElevenLabsSdk> {
  sdkImport ??= import('@elevenlabs/elevenlabs-js')
  return sdkImport
}

/**
 * Maps an SDK failure to a SpeechError (status errors, bodies that are not the protocol);
 * `sdk` is the SDK module when it loaded.
 */
function sdkError(error: unknown, signal: AbortSignal, sdk: ElevenLabsSdk | undefined) {
  if (sdk && error instanceof sdk.ElevenLabsError && typeof error.statusCode === 'number') {
    // A 2xx whose body is not JSON.
    if (error.statusCode < 300) return malformedError(LABEL, error)
    return statusError(LABEL, error.statusCode, error)
  }
  if (error instanceof Error && ['JsonError', 'ParseError'].includes(error.constructor.name)) {
    return malformedError(LABEL, error)
  }
  return toSpeechError(error, LABEL, signal)
}

/**
 * The `elevenlabs` speech provider, through the official SDK (`@elevenlabs/elevenlabs-js`):
 * `POST /v1/text-to-speech/{voice}/with-timestamps` with `output_format=pcm_<rate>`; the
 * base64 PCM becomes the WAV, and the character alignment becomes word timings (each word from
 * its first character's start to its last character's end).
 * @see issue 13 item 1
 */
export function createElevenLabsSpeechProvider(settings: ElevenLabsSpeechSettings): SpeechProvider {
  let sdk: ElevenLabsSdk | undefined
  let client: ElevenLabsClient | undefined
  /** The client, made once the SDK has loaded. */
  const connect = async (): Promise<ElevenLabsClient> => {
    sdk ??= await loadSdk()
    client ??= new sdk.ElevenLabsClient({
      apiKey: settings.apiKey,
      ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
      timeoutInSeconds: settings.timeoutMs / 1000,
      maxRetries: SDK_MAX_RETRIES,
    })
    return client
  }
  const requestOptions = (signal: AbortSignal) => ({
    abortSignal: signal,
    timeoutInSeconds: settings.timeoutMs / 1000,
    maxRetries: SDK_MAX_RETRIES,
  })
  return {
    info: { id: 'elevenlabs', name: `ElevenLabs (${settings.model})`, offline: false },
    defaultVoice: ELEVENLABS_DEFAULT_VOICE,
    identity: `elevenlabs ${settings.model} pcm_${settings.sampleRate} ${settings.baseUrl ?? 'api.elevenlabs.io'}`,

    async listVoices(signal): Promise<SpeechVoice[]> {
      // The timeout is the service's: it starts once the SDK has loaded (seconds on a busy
      // machine, which made a first call time out before it was sent).
      let limited = signal
      try {
        const elevenlabs = await connect()
        limited = withTimeout(signal, settings.timeoutMs)
        const page = await elevenlabs.voices.search(
          { pageSize: VOICE_PAGE_SIZE },
          requestOptions(limited),
        )
        return page.voices.map((voice) => ({
          id: voice.voiceId,
          name: voice.name ?? voice.voiceId,
          language: voice.labels?.language ?? voice.verifiedLanguages?.[0]?.language,
        }))
      } catch (error) {
        throw sdkError(error, limited, sdk)
      }
    },

    async synthesize(request: SpeechRequest, signal: AbortSignal): Promise<Narration> {
      const words = requestWords(request)
      if (words.length === 0) return emptyNarration(settings.sampleRate, 'provider')
      let limited = signal
      let answer: Awaited<ReturnType<ElevenLabsClient['textToSpeech']['convertWithTimestamps']>>
      try {
        const elevenlabs = await connect()
        limited = withTimeout(signal, settings.timeoutMs)
        answer = await elevenlabs.textToSpeech.convertWithTimestamps(
          request.voice ?? ELEVENLABS_DEFAULT_VOICE,
          {
            text: request.text,
            modelId: settings.model,
            outputFormat: `pcm_${settings.sampleRate}`,
          },
          requestOptions(limited),
        )
      } catch (error) {
        throw sdkError(error, limited, sdk)
      }
      const pcm = pcmFromBytes(Buffer.from(answer.audioBase64, 'base64'), settings.sampleRate)
      if (pcm.samples.length === 0) throw malformedError(LABEL, 'no audio')
      const total = durationMs(pcm)
      const aligned = answer.alignment
        ? wordsFromAlignment(request.text, answer.alignment, total)
        : null
      return {
        wav: encodeWav(pcm),
        sampleRate: pcm.sampleRate,
        durationMs: total,
        words: aligned ?? estimateWordTimings(request.text, voicedSpan(pcm)),
        timing: aligned ? 'provider' : 'estimated',
      }
    },
  }
}

/** ElevenLabs' character alignment: one entry per character of the text sent. */
export interface CharacterAlignment {
  characters: string[]
  characterStartTimesSeconds: number[]
  characterEndTimesSeconds: number[]
}

/**
 * Word timings (whole milliseconds) for the words of `text` (`splitWords`) from a character
 * alignment of the same text: a word runs from its first character's start to its last
 * character's end, clamped to `[0, totalMs]` and never going backwards. Null when the
 * alignment is not of this text (then the caller estimates).
 * @see issue 13 item 1
 */
export function wordsFromAlignment(
  text: string,
  alignment: CharacterAlignment,
  totalMs: number,
): WordTiming[] | null {
  const {
    characters,
    characterStartTimesSeconds: starts,
    characterEndTimesSeconds: ends,
  } = alignment
  if (starts.length !== characters.length || ends.length !== characters.length) return null
  if (![...starts, ...ends].every(Number.isFinite)) return null
  const aligned = characters.join('')
  if (aligned.trim() !== text.trim()) return null
  // Where each UTF-16 offset of the trimmed text falls: which alignment entry.
  const lead = aligned.length - aligned.trimStart().length
  const entryAt: number[] = []
  characters.forEach((character, entry) => {
    for (let k = 0; k < character.length; k++) entryAt.push(entry)
  })
  const trimmed = text.trim()
  const timings: WordTiming[] = []
  let previousEnd = 0
  for (const match of trimmed.matchAll(/\S+/gu)) {
    const first = entryAt[lead + match.index]!
    const last = entryAt[lead + match.index + match[0].length - 1]!
    const startMs = Math.min(Math.max(Math.round(starts[first]! * 1000), previousEnd), totalMs)
    const endMs = Math.min(Math.max(Math.round(ends[last]! * 1000), startMs), totalMs)
    timings.push({ text: match[0], startMs, endMs })
    previousEnd = endMs
  }
  // Guard the contract: exactly the words of the text.
  const expected = splitWords(text)
  if (timings.length !== expected.length || timings.some((w, i) => w.text !== expected[i])) {
    return null
  }
  return timings
}
