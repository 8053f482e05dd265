import OpenAI from 'openai'
import { estimateWordTimings } from '@reelgraph/shared'
import { malformedError, statusError, toSpeechError } from './errors.ts'
import { decodeWav, durationMs, encodeWav, type Pcm, voicedSpan } from './pcm.ts'
import { emptyNarration, requestWords, withTimeout } from './text.ts'
import type { Narration, SpeechProvider, SpeechRequest, SpeechVoice } from './types.ts'

/** Settings of the `openai` speech provider. */
export interface OpenAiSpeechSettings {
  /** Not needed by a local OpenAI-compatible server. */
  apiKey?: string | undefined
  /** An OpenAI-compatible server, e.g. `http://127.0.0.1:8880/v1`; OpenAI's when omitted. */
  baseURL?: string | undefined
  /** `gpt-4o-mini-tts` (default), `tts-1`, `tts-1-hd`, or a compatible server's model. */
  model: string
  /** Longest call, milliseconds. */
  timeoutMs: number
}

/** The model asked when none is configured. */
export const OPENAI_SPEECH_DEFAULT_MODEL = 'gpt-4o-mini-tts'
/** A voice every OpenAI speech model has. */
export const OPENAI_SPEECH_DEFAULT_VOICE = 'alloy'
/** OpenAI's sample rate for `wav` and `pcm` answers. */
export const OPENAI_SPEECH_SAMPLE_RATE = 24_000

/** The built-in voices of `tts-1` and `tts-1-hd` (OpenAI text-to-speech guide). */
const TTS_1_VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer']
/** `gpt-4o-mini-tts` has those and four more. */
const GPT_VOICES = [...TTS_1_VOICES, 'ballad', 'verse', 'marin', 'cedar']

const LABEL = 'The OpenAI voice service'
/** No SDK retries: the caller's timeout is the whole budget; the caller decides on retries. */
const SDK_MAX_RETRIES = 0

function voiceList(model: string): SpeechVoice[] {
  const ids = model.startsWith('tts-1') ? TTS_1_VOICES : GPT_VOICES
  return ids.map((id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1) }))
}

/**
 * The `openai` speech provider: `POST /v1/audio/speech` through the `openai` SDK, asking for
 * `wav` (so no MP3 decoder is needed; the WAV's own header gives the rate, 24000 Hz from
 * OpenAI, and any OpenAI-compatible server's answer is read the same way). OpenAI gives no
 * word timings: they are estimated (`estimateWordTimings`) over the audio's voiced span.
 * @see issue 13 item 1
 */
export function createOpenAiSpeechProvider(settings: OpenAiSpeechSettings): SpeechProvider {
  const openai = new OpenAI({
    // A local compatible server needs no key, but the SDK insists on one.
    apiKey: settings.apiKey ?? 'not-needed',
    baseURL: settings.baseURL ?? null,
    timeout: settings.timeoutMs,
    maxRetries: SDK_MAX_RETRIES,
  })
  return {
    info: { id: 'openai', name: `OpenAI speech (${settings.model})`, offline: false },
    defaultVoice: OPENAI_SPEECH_DEFAULT_VOICE,
    identity: `openai ${settings.model} ${settings.baseURL ?? 'api.openai.com'}`,

    listVoices() {
      return Promise.resolve(voiceList(settings.model))
    },

    async synthesize(request: SpeechRequest, signal: AbortSignal): Promise<Narration> {
      const words = requestWords(request)
      if (words.length === 0) return emptyNarration(OPENAI_SPEECH_SAMPLE_RATE, 'estimated')
      const limited = withTimeout(signal, settings.timeoutMs)
      let bytes: Uint8Array
      try {
        const response = await openai.audio.speech.create(
          {
            model: settings.model,
            voice: request.voice ?? OPENAI_SPEECH_DEFAULT_VOICE,
            input: request.text,
            response_format: 'wav',
          },
          { signal: limited, timeout: settings.timeoutMs },
        )
        bytes = new Uint8Array(await response.arrayBuffer())
      } catch (error) {
        if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
          throw statusError(LABEL, error.status, error)
        }
        throw toSpeechError(error, LABEL, limited)
      }
      let pcm: Pcm
      try {
        pcm = decodeWav(bytes)
      } catch (error) {
        throw malformedError(LABEL, error)
      }
      if (pcm.samples.length === 0) throw malformedError(LABEL, 'no samples')
      return {
        wav: encodeWav(pcm),
        sampleRate: pcm.sampleRate,
        durationMs: durationMs(pcm),
        words: estimateWordTimings(request.text, voicedSpan(pcm)),
        timing: 'estimated',
      }
    },
  }
}
