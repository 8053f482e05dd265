import type { WordTiming } from '@reelgraph/shared'

/**
 * Narration: text to speech behind one interface (issue 13 item 1). Implementations: builtin
 * (eSpeak NG in WebAssembly, offline), openai, elevenlabs. Every provider answers the same
 * shape: a PCM WAV and the time of each word.
 */

/**
 * Who speaks: shown to the user beside the voice list.
 * @see issue 13 item 1
 */
export interface SpeechProviderInfo {
  /** `builtin` | `openai` | `elevenlabs`. */
  id: SpeechProviderId
  /** A human name, e.g. "OpenAI speech (gpt-4o-mini-tts)" or "eSpeak NG (built in, offline)". */
  name: string
  /** True for the builtin provider: no network, no key, a robotic but clear voice. */
  offline: boolean
}

/** The speech providers, as chosen by configuration (`builtin` when none is set). */
export const SPEECH_PROVIDER_IDS = ['builtin', 'openai', 'elevenlabs'] as const
/** `builtin` | `openai` | `elevenlabs`. */
export type SpeechProviderId = (typeof SPEECH_PROVIDER_IDS)[number]

/**
 * One voice a provider offers (`SpeechProvider.listVoices`).
 * @see issue 13 item 1
 */
export interface SpeechVoice {
  /** What `SpeechRequest.voice` takes, e.g. `gmw/en-US`, `alloy`, an ElevenLabs voice id. */
  id: string
  /** A human name, e.g. "English (America)", "Alloy", "George". */
  name: string
  /** A language tag or name when the provider says, e.g. `en-us`; undefined when unknown. */
  language?: string | undefined
}

/**
 * What to say, and in which voice.
 * @see issue 13 item 1
 */
export interface SpeechRequest {
  /**
   * The narration, plain text, at most `SPEECH_TEXT_MAX_CHARS` characters. Blank text gives
   * an empty narration (no audio, no words) without calling the provider.
   */
  text: string
  /** One of the provider's `listVoices()` ids; the provider's `defaultVoice` when omitted. */
  voice?: string | undefined
}

/**
 * Spoken narration.
 * @see issue 13 item 1
 */
export interface Narration {
  /**
   * A RIFF/WAVE file: PCM, signed 16-bit little-endian, mono, at `sampleRate` (a 44-byte
   * header, then the samples).
   */
  wav: Buffer
  /**
   * Samples per second, the provider's own: builtin 22050, openai 24000 (whatever the
   * server's WAV says), elevenlabs 24000 unless configured otherwise.
   */
  sampleRate: number
  /** The audio's length in milliseconds (samples / sampleRate * 1000). */
  durationMs: number
  /**
   * Every word of the text (`splitWords`) in order with when it is heard, milliseconds from
   * the start of `wav`, within `[0, durationMs]`, never going backwards.
   */
  words: WordTiming[]
  /**
   * `provider`: the times come from the synthesizer (builtin's word events, ElevenLabs'
   * character alignment). `estimated`: from `estimateWordTimings` over the audio's voiced
   * span (OpenAI, which gives none).
   */
  timing: 'provider' | 'estimated'
}

/**
 * Speaks text: one per configuration, made by `createSpeechProvider`.
 * @see issue 13 item 1
 */
export interface SpeechProvider {
  readonly info: SpeechProviderInfo
  /** The voice used when a request names none. */
  readonly defaultVoice: string
  /**
   * What besides the text and the voice shapes this provider's audio (its id, model, sample
   * rate, server, synthesizer version): part of a narration's cache key (`narrationKey`), so
   * a narration made another way is never taken for this one's.
   */
  readonly identity: string
  /**
   * The voices this provider offers (builtin: eSpeak NG's languages; openai: the model's
   * built-in voices; elevenlabs: the account's voices, up to 100).
   * @throws SpeechError on timeout or an upstream error
   */
  listVoices(signal: AbortSignal): Promise<SpeechVoice[]>
  /**
   * The text spoken with the voice, as a WAV and word timings. The provider's own timeout
   * applies on top of `signal`.
   * @throws SpeechError on timeout (`signal` aborted or the provider's timeout), an upstream
   *   error (`retryable` for 429, 5xx and network failures) or an answer that is not audio
   * @throws RangeError when the text is longer than `SPEECH_TEXT_MAX_CHARS`, or the builtin
   *   provider does not know the voice
   */
  synthesize(request: SpeechRequest, signal: AbortSignal): Promise<Narration>
}
