import { encodeWaveFromFloat32Channels } from '@echogarden/wave-codec'
import { describe, expect, it } from 'vitest'
import {
  decodeWav,
  durationMs,
  encodeWav,
  pcmFromBytes,
  rms,
  VOICED_RMS,
  voicedSpan,
} from './pcm.ts'
import { ffmpegMeasure, hasFfmpeg, toneBetweenSilences } from './testing/audio.ts'

describe('encodeWav', () => {
  it('writes a 44-byte RIFF header for mono 16-bit PCM, then the samples', () => {
    const samples = new Int16Array([0, 1000, -1000, 32767])
    const wav = encodeWav({ samples, sampleRate: 22_050 })
    expect(wav.length).toBe(44 + 8)
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF')
    expect(wav.readUInt32LE(4)).toBe(36 + 8)
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ')
    expect(wav.readUInt16LE(20)).toBe(1) // PCM
    expect(wav.readUInt16LE(22)).toBe(1) // mono
    expect(wav.readUInt32LE(24)).toBe(22_050)
    expect(wav.readUInt32LE(28)).toBe(44_100) // bytes a second
    expect(wav.readUInt16LE(34)).toBe(16)
    expect(wav.toString('ascii', 36, 40)).toBe('data')
    expect(wav.readUInt32LE(40)).toBe(8)
    expect(wav.readInt16LE(46)).toBe(1000)
    expect(wav.readInt16LE(50)).toBe(32767)
  })

  it.skipIf(!hasFfmpeg)('is read by ffmpeg with the right rate and length', () => {
    const wav = encodeWav(toneBetweenSilences(24_000, 500, 1_000))
    const measured = ffmpegMeasure(wav)
    expect(measured.stream).toMatch(/pcm_s16le.*24000 Hz, mono/)
    expect(measured.durationMs).toBeCloseTo(2_000, -1)
  })
})

describe('decodeWav', () => {
  it('reads back what encodeWav wrote', () => {
    const pcm = toneBetweenSilences(16_000, 100, 200)
    const decoded = decodeWav(encodeWav(pcm))
    expect(decoded.sampleRate).toBe(16_000)
    expect(Array.from(decoded.samples)).toEqual(Array.from(pcm.samples))
  })

  it('reads a streamed WAV whose sizes are 0xFFFFFFFF', () => {
    const wav = Buffer.from(encodeWav(toneBetweenSilences(24_000, 0, 500)))
    wav.writeUInt32LE(0xffffffff, 4)
    wav.writeUInt32LE(0xffffffff, 40)
    const decoded = decodeWav(wav)
    expect(decoded.samples.length).toBe(12_000)
  })

  it('averages stereo to mono', () => {
    const left = new Float32Array([0.5, 0.5])
    const right = new Float32Array([0, -0.5])
    const decoded = decodeWav(encodeWaveFromFloat32Channels([left, right], 8_000))
    expect(decoded.samples[0]).toBeCloseTo(0.25 * 32767, -2)
    expect(decoded.samples[1]).toBe(0)
  })

  it('refuses bytes that are not a WAV', () => {
    expect(() => decodeWav(new TextEncoder().encode('ID3 not a wave'))).toThrow()
  })
})

describe('levels and spans', () => {
  it('reads raw little-endian PCM', () => {
    const pcm = pcmFromBytes(new Uint8Array([0x10, 0x00, 0xff, 0xff, 0x01]), 24_000)
    expect(Array.from(pcm.samples)).toEqual([16, -1])
    expect(durationMs({ samples: new Int16Array(24_000), sampleRate: 24_000 })).toBe(1_000)
  })

  it('measures RMS: 0 for silence, about 0.26 for the test tone', () => {
    expect(rms(new Int16Array(100))).toBe(0)
    const tone = toneBetweenSilences(24_000, 0, 1_000)
    expect(rms(tone.samples)).toBeCloseTo(12_000 / 32768 / Math.SQRT2, 2)
    expect(rms(tone.samples)).toBeGreaterThan(VOICED_RMS)
  })

  it('finds where the sound is between silences', () => {
    const span = voicedSpan(toneBetweenSilences(24_000, 700, 1_200))
    expect(span.startMs).toBeCloseTo(700, -1)
    expect(span.endMs).toBeCloseTo(1_900, -1)
    expect(voicedSpan({ samples: new Int16Array(2_400), sampleRate: 24_000 })).toEqual({
      startMs: 0,
      endMs: 100,
    })
  })
})
