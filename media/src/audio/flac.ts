/**
 * The stream facts a FLAC file states in its STREAMINFO block (issue 40 item 5: uploaded music
 * is kept as FLAC): enough to know its length without decoding it.
 */

/** What a FLAC file's STREAMINFO says. */
export interface FlacStreamInfo {
  /** Samples per second per channel, in Hz. */
  sampleRate: number
  channels: number
  bitsPerSample: number
  /** Samples per channel in the whole stream; 0 when the encoder did not know. */
  totalSamples: number
}

/** `fLaC`, the first four bytes of every FLAC file. */
const FLAC_MARKER = [0x66, 0x4c, 0x61, 0x43] as const
/** Where STREAMINFO's data starts: after the marker and its 4-byte block header. */
const STREAMINFO_AT = 8
/** STREAMINFO's data length, in bytes (fixed by the format). */
const STREAMINFO_BYTES = 34

/**
 * Reads the STREAMINFO block of a FLAC file from its first bytes (at least 42; pure), or
 * null when `head` is no FLAC file starting with STREAMINFO (as every FLAC file must).
 * @see issue 40 item 5
 */
export function parseFlacStreamInfo(head: Uint8Array): FlacStreamInfo | null {
  if (head.byteLength < STREAMINFO_AT + STREAMINFO_BYTES) return null
  if (FLAC_MARKER.some((byte, i) => head[i] !== byte)) return null
  // Block header: last-block flag (1 bit), type (7 bits; 0 is STREAMINFO), length (24 bits).
  if ((head[4]! & 0x7f) !== 0) return null
  const b = (i: number) => head[STREAMINFO_AT + i]!
  // After block sizes (2 x 16 bits) and frame sizes (2 x 24 bits): rate 20 bits, channels - 1
  // 3 bits, bits per sample - 1 5 bits, total samples 36 bits.
  const sampleRate = (b(10) << 12) | (b(11) << 4) | (b(12) >> 4)
  const channels = ((b(12) >> 1) & 0x07) + 1
  const bitsPerSample = (((b(12) & 0x01) << 4) | (b(13) >> 4)) + 1
  const low = ((b(14) << 24) | (b(15) << 16) | (b(16) << 8) | b(17)) >>> 0
  const totalSamples = (b(13) & 0x0f) * 2 ** 32 + low
  if (sampleRate === 0) return null
  return { sampleRate, channels, bitsPerSample, totalSamples }
}

/**
 * A FLAC file's length from its first bytes, in ms (pure), or null when they are no FLAC
 * STREAMINFO or it states no sample count.
 * @see issue 40 item 5
 */
export function flacDurationMs(head: Uint8Array): number | null {
  const info = parseFlacStreamInfo(head)
  if (!info || info.totalSamples === 0) return null
  return (info.totalSamples / info.sampleRate) * 1000
}
