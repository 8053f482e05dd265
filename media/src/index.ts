/**
 * Narration, subtitles and video rendering (issue 13). See `media/CONTEXT.md`.
 */
export * from './render/index.ts'

// Narration (issue 13 item 1).
export { createSpeechProvider, SPEECH_TIMEOUT_MS, type SpeechSettings } from './speech/index.ts'
export {
  SPEECH_PROVIDER_IDS,
  type Narration,
  type SpeechProvider,
  type SpeechProviderId,
  type SpeechProviderInfo,
  type SpeechRequest,
  type SpeechVoice,
} from './speech/types.ts'
export { isRetryableStatus, SpeechError, type SpeechErrorKind } from './speech/errors.ts'
export { SPEECH_TEXT_MAX_CHARS } from './speech/text.ts'
export {
  BUILTIN_DEFAULT_VOICE,
  BUILTIN_SAMPLE_RATE,
  BUILTIN_WORDS_PER_MINUTE,
  createBuiltinSpeechProvider,
  type BuiltinSpeechSettings,
} from './speech/builtin.ts'
export { stopEspeak } from './speech/espeak.ts'
export {
  createOpenAiSpeechProvider,
  OPENAI_SPEECH_DEFAULT_MODEL,
  OPENAI_SPEECH_DEFAULT_VOICE,
  type OpenAiSpeechSettings,
} from './speech/openai.ts'
export {
  createElevenLabsSpeechProvider,
  ELEVENLABS_DEFAULT_MODEL,
  ELEVENLABS_DEFAULT_SAMPLE_RATE,
  ELEVENLABS_DEFAULT_VOICE,
  ELEVENLABS_SAMPLE_RATES,
  type ElevenLabsSampleRate,
  type ElevenLabsSpeechSettings,
} from './speech/elevenlabs.ts'
export { previewNarration, type NarrationPreview } from './speech/preview.ts'
export { narrationKey } from './speech/narration-key.ts'
export { decodeWav, encodeWav, type Pcm, voicedSpan } from './speech/pcm.ts'

// Subtitles (issue 13 item 2) live in shared (the canvas's preview lays cues out too).
export type { Cue, CueOptions, WordTiming } from '@reelgraph/shared'
export {
  cuesFromWords,
  estimateSyllables,
  estimateWordTimings,
  formatSrtTimestamp,
  formatVttTimestamp,
  shiftCues,
  splitWords,
  SUBTITLE_MAX_CUE_MS,
  SUBTITLE_MAX_LINE_CHARS,
  SUBTITLE_MAX_LINES,
  SUBTITLE_MIN_CUE_MS,
  toSrt,
  toVtt,
} from '@reelgraph/shared'

// Uploaded music (issue 24 item 1): any audio container in, FLAC out (issue 40 item 5). What
// reads files from outside (`input/external-input.ts`, issue 40 item 4) stays inside media:
// every ffmpeg run on such a file is one of media's own functions.
export { type MusicFlac, transcodeMusicToFlac } from './audio/music-upload.ts'
export { flacDurationMs } from './audio/flac.ts'
export { readHead } from './input/read-head.ts'
// The export's music as PCM WAV, which every editor imports (Final Cut Pro reads no FLAC).
export { decodeMusicToWav, musicWavByteSize } from './audio/music-wav.ts'
