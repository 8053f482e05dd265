import {
  decodeWaveToFloat32Channels,
  encodeWaveFromBuffer,
  float32ToInt16Pcm,
  SampleFormat,
} from '@echogarden/wave-codec'

/**
 * Mono 16-bit PCM and its WAV container, through `@echogarden/wave-codec` (MIT, no
 * dependencies). Samples are host-endian `Int16Array`s; every supported host is little-endian,
 * as WAV is.
 */

/** Mono signed 16-bit samples and their rate. */
export interface Pcm {
  samples: Int16Array
  /** Samples per second. */
  sampleRate: number
}

/**
 * A RIFF/WAVE file of mono signed 16-bit PCM: the 44-byte canonical header, then the samples.
 * @see issue 13 item 1
 */
export function encodeWav({ samples, sampleRate }: Pcm): Buffer {
  const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)
  const wav = encodeWaveFromBuffer(bytes, sampleRate, 1, 16, SampleFormat.PCM)
  return Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength)
}

/**
 * The samples of a WAV file, any PCM or float format, channels averaged to mono, as 16-bit.
 * Accepts streamed WAVs whose header gives the length as 0xFFFFFFFF (OpenAI, ffmpeg).
 * @throws Error when the bytes are not a WAV file
 * @see issue 13 item 1
 */
export function decodeWav(wav: Uint8Array): Pcm {
  const { audioChannels, sampleRate } = decodeWaveToFloat32Channels(wav, true, true)
  const channels = audioChannels.length
  if (channels === 0) throw new Error('the WAV file has no audio channel')
  let mono = audioChannels[0]!
  if (channels > 1) {
    mono = new Float32Array(mono.length)
    for (const channel of audioChannels) {
      for (let i = 0; i < mono.length; i++) mono[i]! += channel[i]! / channels
    }
  }
  return { samples: float32ToInt16Pcm(mono), sampleRate }
}

/**
 * Raw little-endian signed 16-bit mono PCM (e.g. ElevenLabs' `pcm_24000`) as samples; an odd
 * trailing byte is dropped.
 */
export function pcmFromBytes(bytes: Uint8Array, sampleRate: number): Pcm {
  const samples = new Int16Array(Math.floor(bytes.byteLength / 2))
  new Uint8Array(samples.buffer).set(bytes.subarray(0, samples.length * 2))
  return { samples, sampleRate }
}

/** The audio's length in milliseconds. */
export function durationMs({ samples, sampleRate }: Pcm): number {
  return (samples.length / sampleRate) * 1000
}

/** Root mean square level, 0 (silence) to 1 (full scale), over `samples`. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0
  let sum = 0
  for (const sample of samples) sum += (sample / 32768) ** 2
  return Math.sqrt(sum / samples.length)
}

/** Frames of this length are judged voiced or silent. */
const FRAME_MS = 10
/** A frame is voiced above this RMS level (about -40 dBFS, well above dither and hiss). */
export const VOICED_RMS = 0.01

/**
 * Where speech is heard: from the start of the first frame above `VOICED_RMS` to the end of
 * the last one, in milliseconds. The whole audio when no frame is voiced.
 * @see issue 13 item 2 (estimated word timings are spread over this span)
 */
export function voicedSpan(pcm: Pcm): { startMs: number; endMs: number } {
  const frame = Math.max(1, Math.round((pcm.sampleRate * FRAME_MS) / 1000))
  const frames = Math.ceil(pcm.samples.length / frame)
  let first = -1
  let last = -1
  for (let f = 0; f < frames; f++) {
    if (rms(pcm.samples.subarray(f * frame, (f + 1) * frame)) > VOICED_RMS) {
      if (first < 0) first = f
      last = f
    }
  }
  const total = durationMs(pcm)
  if (first < 0) return { startMs: 0, endMs: total }
  const toMs = (sample: number) => (Math.min(sample, pcm.samples.length) / pcm.sampleRate) * 1000
  return { startMs: toMs(first * frame), endMs: toMs((last + 1) * frame) }
}
