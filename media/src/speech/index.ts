import { createBuiltinSpeechProvider } from './builtin.ts'
import {
  createElevenLabsSpeechProvider,
  ELEVENLABS_DEFAULT_MODEL,
  ELEVENLABS_DEFAULT_SAMPLE_RATE,
  type ElevenLabsSampleRate,
} from './elevenlabs.ts'
import { createOpenAiSpeechProvider, OPENAI_SPEECH_DEFAULT_MODEL } from './openai.ts'
import type { SpeechProvider, SpeechProviderId } from './types.ts'

/** Longest speech call by default: a long scene from a busy remote service, not a stuck one. */
export const SPEECH_TIMEOUT_MS = 60_000

/**
 * What chooses and configures the speech provider (the api and the render worker fill it from
 * their env.ts). Only the chosen provider's fields are read.
 * @see issue 13 item 1
 */
export interface SpeechSettings {
  /** `builtin` (default), `openai` or `elevenlabs`. */
  provider?: SpeechProviderId | undefined
  /** OpenAI's key; not needed by a local OpenAI-compatible server (`openaiBaseUrl`). */
  openaiApiKey?: string | undefined
  /** An OpenAI-compatible server, e.g. `http://127.0.0.1:8880/v1`. */
  openaiBaseUrl?: string | undefined
  /** Default `gpt-4o-mini-tts`; `tts-1`, `tts-1-hd` also work. */
  openaiModel?: string | undefined
  elevenLabsApiKey?: string | undefined
  /** Default ElevenLabs' own API origin. */
  elevenLabsBaseUrl?: string | undefined
  /** Default `eleven_multilingual_v2`. */
  elevenLabsModel?: string | undefined
  /** PCM rate asked of ElevenLabs, default 24000 (44100 and 48000 need a Pro plan). */
  elevenLabsSampleRate?: ElevenLabsSampleRate | undefined
  /** Longest call, milliseconds, on top of each call's signal; default `SPEECH_TIMEOUT_MS`. */
  timeoutMs?: number | undefined
}

/**
 * The speech provider chosen by `settings.provider` (builtin when unset), like the text and
 * image providers are chosen in the api.
 * @throws Error when the chosen provider lacks its settings (openai without a key or base URL,
 *   elevenlabs without a key)
 * @see issue 13 item 1
 */
export function createSpeechProvider(settings: SpeechSettings = {}): SpeechProvider {
  const timeoutMs = settings.timeoutMs ?? SPEECH_TIMEOUT_MS
  const provider = settings.provider ?? 'builtin'
  switch (provider) {
    case 'openai':
      if (!settings.openaiApiKey && !settings.openaiBaseUrl) {
        throw new Error(
          'The openai speech provider needs OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server).',
        )
      }
      return createOpenAiSpeechProvider({
        apiKey: settings.openaiApiKey,
        baseURL: settings.openaiBaseUrl,
        model: settings.openaiModel ?? OPENAI_SPEECH_DEFAULT_MODEL,
        timeoutMs,
      })
    case 'elevenlabs':
      if (!settings.elevenLabsApiKey) {
        throw new Error('The elevenlabs speech provider needs ELEVENLABS_API_KEY.')
      }
      return createElevenLabsSpeechProvider({
        apiKey: settings.elevenLabsApiKey,
        baseUrl: settings.elevenLabsBaseUrl,
        model: settings.elevenLabsModel ?? ELEVENLABS_DEFAULT_MODEL,
        sampleRate: settings.elevenLabsSampleRate ?? ELEVENLABS_DEFAULT_SAMPLE_RATE,
        timeoutMs,
      })
    case 'builtin':
      return createBuiltinSpeechProvider({ timeoutMs })
  }
}
