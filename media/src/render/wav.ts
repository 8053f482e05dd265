import { RenderError } from './errors.ts'

/** The PCM layout of a WAV file's samples. */
export interface PcmFormat {
  /** 1 = integer PCM, 3 = IEEE float. */
  encoding: 1 | 3
  sampleRate: number
  channels: number
  bitsPerSample: number
}

/** A parsed PCM WAV: its format and its sample bytes (a view into the input). */
export interface PcmWav {
  format: PcmFormat
  samples: Uint8Array
  /** Length in ms. */
  durationMs: number
}

const WAVE_FORMAT_PCM = 1
const WAVE_FORMAT_IEEE_FLOAT = 3
const WAVE_FORMAT_EXTENSIBLE = 0xfffe

const ascii = (bytes: Uint8Array, at: number) =>
  String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!)

/**
 * Reads a PCM WAV (RIFF/WAVE, integer 8/16/24/32-bit or float 32/64-bit, plain or
 * WAVE_FORMAT_EXTENSIBLE). A streamed WAV whose data size is unknown (0 or 0xFFFFFFFF) or
 * too large is read to the end of the bytes.
 * @throws RenderError `invalid-input` when the bytes are not such a WAV.
 * @see issue 13 item 3
 */
export function parsePcmWav(bytes: Uint8Array): PcmWav {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const bad = (why: string) =>
    new RenderError('invalid-input', `Narration is not a PCM WAV: ${why}`)
  if (bytes.byteLength < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') {
    throw bad('no RIFF/WAVE header')
  }
  let format: PcmFormat | undefined
  let offset = 12
  while (offset + 8 <= bytes.byteLength) {
    const id = ascii(bytes, offset)
    const size = view.getUint32(offset + 4, true)
    const body = offset + 8
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.byteLength) throw bad('short fmt chunk')
      let tag = view.getUint16(body, true)
      if (tag === WAVE_FORMAT_EXTENSIBLE) {
        if (size < 40 || body + 26 > bytes.byteLength) throw bad('short extensible fmt chunk')
        tag = view.getUint16(body + 24, true)
      }
      const channels = view.getUint16(body + 2, true)
      const sampleRate = view.getUint32(body + 4, true)
      const bitsPerSample = view.getUint16(body + 14, true)
      const okBits =
        tag === WAVE_FORMAT_PCM
          ? [8, 16, 24, 32].includes(bitsPerSample)
          : tag === WAVE_FORMAT_IEEE_FLOAT && [32, 64].includes(bitsPerSample)
      if (!okBits) throw bad(`format ${tag} with ${bitsPerSample} bits is not PCM`)
      if (channels < 1 || channels > 8) throw bad(`${channels} channels`)
      if (sampleRate < 8_000 || sampleRate > 192_000) throw bad(`sample rate ${sampleRate} Hz`)
      format = { encoding: tag as 1 | 3, sampleRate, channels, bitsPerSample }
    } else if (id === 'data') {
      if (!format) throw bad('data before fmt')
      const available = bytes.byteLength - body
      const length = size === 0 || size === 0xffffffff || size > available ? available : size
      const frameBytes = (format.channels * format.bitsPerSample) / 8
      const whole = length - (length % frameBytes)
      const samples = bytes.subarray(body, body + whole)
      return { format, samples, durationMs: (whole / frameBytes / format.sampleRate) * 1000 }
    }
    offset = body + size + (size % 2)
  }
  throw bad('no data chunk')
}

/**
 * Writes PCM samples under a fresh canonical 44-byte WAV header (the renderer's own bytes).
 * @see issue 13 item 3
 */
export function encodePcmWav(format: PcmFormat, samples: Uint8Array): Uint8Array {
  const header = new DataView(new ArrayBuffer(44))
  const write = (at: number, text: string) => {
    for (let i = 0; i < 4; i++) header.setUint8(at + i, text.charCodeAt(i))
  }
  const blockAlign = (format.channels * format.bitsPerSample) / 8
  write(0, 'RIFF')
  header.setUint32(4, 36 + samples.byteLength, true)
  write(8, 'WAVE')
  write(12, 'fmt ')
  header.setUint32(16, 16, true)
  header.setUint16(20, format.encoding, true)
  header.setUint16(22, format.channels, true)
  header.setUint32(24, format.sampleRate, true)
  header.setUint32(28, format.sampleRate * blockAlign, true)
  header.setUint16(32, blockAlign, true)
  header.setUint16(34, format.bitsPerSample, true)
  write(36, 'data')
  header.setUint32(40, samples.byteLength, true)
  const out = new Uint8Array(44 + samples.byteLength)
  out.set(new Uint8Array(header.buffer), 0)
  out.set(samples, 44)
  return out
}
