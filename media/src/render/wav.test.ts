import { describe, expect, it } from 'vitest'
import { RenderError } from './errors.ts'
import { encodePcmWav, parsePcmWav } from './wav.ts'

describe('PCM WAV', () => {
  it('round-trips samples and measures the length', () => {
    const samples = new Uint8Array(24_000 * 2 * 2) // 1 s of 16-bit stereo at 24 kHz
    samples.forEach((_, i) => (samples[i] = i % 251))
    const format = { encoding: 1, sampleRate: 24_000, channels: 2, bitsPerSample: 16 } as const
    const wav = parsePcmWav(encodePcmWav(format, samples))
    expect(wav.format).toEqual(format)
    expect(wav.samples).toEqual(samples)
    expect(wav.durationMs).toBe(1000)
  })

  it('reads float WAVs, skips unknown chunks, and reads a streamed one to the end', () => {
    const wav = encodePcmWav(
      { encoding: 3, sampleRate: 48_000, channels: 1, bitsPerSample: 32 },
      new Uint8Array(48_000 * 4),
    )
    // Insert a LIST chunk before data and mark the data size unknown.
    const list = new Uint8Array(
      [...'LIST'].map((c) => c.charCodeAt(0)).concat([3, 0, 0, 0, 1, 2, 3, 0]),
    )
    const streamed = new Uint8Array(wav.length + list.length)
    streamed.set(wav.subarray(0, 36))
    streamed.set(list, 36)
    streamed.set(wav.subarray(36), 36 + list.length)
    new DataView(streamed.buffer).setUint32(36 + list.length + 4, 0xffffffff, true)
    const parsed = parsePcmWav(streamed)
    expect(parsed.format.encoding).toBe(3)
    expect(parsed.durationMs).toBe(1000)
  })

  it('reads WAVE_FORMAT_EXTENSIBLE', () => {
    const plain = encodePcmWav(
      { encoding: 1, sampleRate: 16_000, channels: 1, bitsPerSample: 16 },
      new Uint8Array(32_000),
    )
    const ext = new Uint8Array(plain.length + 24)
    ext.set(plain.subarray(0, 20))
    const view = new DataView(ext.buffer)
    view.setUint32(16, 40, true)
    ext.set(plain.subarray(20, 36), 20)
    view.setUint16(20, 0xfffe, true)
    view.setUint16(36, 22, true) // cbSize
    view.setUint16(44, 1, true) // sub-format: PCM
    ext.set(plain.subarray(36), 60)
    expect(parsePcmWav(ext).durationMs).toBe(1000)
  })

  it.each([
    ['not a RIFF file', new TextEncoder().encode('ID3 this is an mp3')],
    [
      'no data',
      encodePcmWav(
        { encoding: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 },
        new Uint8Array(),
      ).subarray(0, 36),
    ],
    [
      'a compressed format',
      (() => {
        const wav = encodePcmWav(
          { encoding: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 },
          new Uint8Array(8),
        )
        new DataView(wav.buffer).setUint16(20, 0x55, true) // MP3
        return wav
      })(),
    ],
  ])('refuses %s', (_, bytes) => {
    expect(() => parsePcmWav(bytes)).toThrow(RenderError)
  })
})
