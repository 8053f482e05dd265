import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { splitWords } from '@reelgraph/shared'
import {
  BUILTIN_DEFAULT_VOICE,
  BUILTIN_SAMPLE_RATE,
  createBuiltinSpeechProvider,
  espeakInput,
  wordTimingsFromMarks,
} from './builtin.ts'
import { SpeechError } from './errors.ts'
import { stopEspeak } from './espeak.ts'
import { decodeWav, rms, VOICED_RMS } from './pcm.ts'
import { ffmpegMeasure, hasFfmpeg } from './testing/audio.ts'
import { SPEECH_TEXT_MAX_CHARS } from './text.ts'
import type { Narration } from './types.ts'

const provider = createBuiltinSpeechProvider({ timeoutMs: 30_000 })
const signal = () => new AbortController().signal

const TEXT =
  'The tide comes in twice a day. It follows the moon, and the sun helps a little. Sailors have known this for thousands of years.'

afterAll(() => stopEspeak())

let spoken: Promise<Narration> | undefined
/** One synthesis of TEXT shared by the tests that only read it. */
function narration() {
  spoken ??= provider.synthesize({ text: TEXT }, signal())
  return spoken
}

/** The samples between two times. */
function slice(samples: Int16Array, startMs: number, endMs: number) {
  const at = (ms: number) => Math.round((ms / 1000) * BUILTIN_SAMPLE_RATE)
  return samples.subarray(at(startMs), at(endMs))
}

describe('builtin speech provider (eSpeak NG in WebAssembly)', () => {
  it('speaks a narration as a 22050 Hz mono 16-bit WAV', async () => {
    const result = await narration()
    expect(result.sampleRate).toBe(BUILTIN_SAMPLE_RATE)
    expect(result.timing).toBe('provider')
    const pcm = decodeWav(result.wav)
    expect(pcm.sampleRate).toBe(BUILTIN_SAMPLE_RATE)
    expect(result.durationMs).toBeCloseTo((pcm.samples.length / BUILTIN_SAMPLE_RATE) * 1000, 6)
    // 24 words at about 160 a minute, with pauses: several seconds.
    expect(result.durationMs).toBeGreaterThan(5_000)
    expect(result.durationMs).toBeLessThan(15_000)
  })

  it('is speech, not silence: the level is well above the silence threshold', async () => {
    const pcm = decodeWav((await narration()).wav)
    expect(rms(pcm.samples)).toBeGreaterThan(VOICED_RMS * 3)
  })

  it.skipIf(!hasFfmpeg)('is read by ffmpeg: same length, audible volume', async () => {
    const result = await narration()
    const measured = ffmpegMeasure(result.wav)
    expect(measured.stream).toMatch(/pcm_s16le.*22050 Hz, mono/)
    expect(Math.abs(measured.durationMs - result.durationMs)).toBeLessThan(20)
    expect(measured.meanDb).toBeGreaterThan(-35)
    expect(measured.maxDb).toBeLessThanOrEqual(0)
  })

  it('times every word, in order, increasing and within the duration', async () => {
    const result = await narration()
    expect(result.words.map((w) => w.text)).toEqual(splitWords(TEXT))
    let previousEnd = 0
    for (const word of result.words) {
      expect(word.startMs).toBeGreaterThanOrEqual(previousEnd)
      expect(word.endMs).toBeGreaterThan(word.startMs)
      expect(word.endMs).toBeLessThanOrEqual(result.durationMs)
      previousEnd = word.endMs
    }
    expect(result.words[0]!.startMs).toBeLessThan(200)
    expect(result.words.at(-1)!.endMs).toBeGreaterThan(result.durationMs - 1_000)
  })

  it('times words where they are heard: words are loud, the pause after a sentence quiet', async () => {
    const result = await narration()
    const pcm = decodeWav(result.wav)
    const voiced = result.words.filter(
      (w) => rms(slice(pcm.samples, w.startMs, w.endMs)) > VOICED_RMS,
    )
    expect(voiced.length).toBe(result.words.length)
    const day = result.words.findIndex((w) => w.text === 'day.')
    const pause = slice(pcm.samples, result.words[day]!.endMs, result.words[day + 1]!.startMs)
    expect(pause.length).toBeGreaterThan(BUILTIN_SAMPLE_RATE * 0.1)
    expect(rms(pause)).toBeLessThan(VOICED_RMS)
  })

  it('makes longer audio of longer text', async () => {
    const short = await provider.synthesize({ text: 'The tide.' }, signal())
    expect(short.durationMs).toBeGreaterThan(0)
    expect(short.durationMs).toBeLessThan((await narration()).durationMs / 4)
  })

  it('lists its voices, with the default among them, and speaks another one', async () => {
    const voices = await provider.listVoices(signal())
    expect(voices.length).toBeGreaterThan(100)
    expect(voices.map((v) => v.id)).toContain(BUILTIN_DEFAULT_VOICE)
    expect(voices.find((v) => v.id === 'roa/fr')).toMatchObject({
      name: 'French (France)',
      language: 'fr-fr',
    })
    const french = await provider.synthesize(
      { text: 'La marée monte deux fois par jour.', voice: 'roa/fr' },
      signal(),
    )
    expect(french.words.map((w) => w.text)).toEqual(
      splitWords('La marée monte deux fois par jour.'),
    )
    expect(rms(decodeWav(french.wav).samples)).toBeGreaterThan(VOICED_RMS)
  })

  it('refuses a voice it does not have', async () => {
    await expect(
      provider.synthesize({ text: 'Hello.', voice: 'xx/nope' }, signal()),
    ).rejects.toThrow(RangeError)
  })

  it('reads markup characters as text, not as SSML', async () => {
    const text = 'Salt & pepper <b>bold</b> [[not phonemes]] here.'
    const result = await provider.synthesize({ text }, signal())
    expect(result.words.map((w) => w.text)).toEqual(splitWords(text))
    expect(result.durationMs).toBeGreaterThan(1_000)
  })

  it('gives an empty narration for blank text, and refuses text over the limit', async () => {
    const empty = await provider.synthesize({ text: '  \n ' }, signal())
    expect(empty).toMatchObject({ durationMs: 0, words: [], sampleRate: BUILTIN_SAMPLE_RATE })
    expect(decodeWav(empty.wav).samples.length).toBe(0)
    await expect(
      provider.synthesize({ text: 'a'.repeat(SPEECH_TEXT_MAX_CHARS + 1) }, signal()),
    ).rejects.toThrow(RangeError)
  })

  it('stops when the signal aborts, as a retryable timeout, and speaks again after', async () => {
    const controller = new AbortController()
    const long = provider.synthesize(
      { text: 'The sea rises and falls along the coast. '.repeat(90) },
      controller.signal,
    )
    setTimeout(() => controller.abort(), 30)
    const started = performance.now()
    const error = await long.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(error).toBeInstanceOf(SpeechError)
    expect(error).toMatchObject({ kind: 'timeout', retryable: true })
    const after = await provider.synthesize({ text: 'Still here.' }, signal())
    expect(after.words.map((w) => w.text)).toEqual(['Still', 'here.'])
  })

  it('times out after its own timeoutMs', async () => {
    const hasty = createBuiltinSpeechProvider({ timeoutMs: 1 })
    await expect(
      hasty.synthesize({ text: 'The sea rises. '.repeat(100) }, signal()),
    ).rejects.toMatchObject({ name: 'SpeechError', kind: 'timeout' })
  })

  it('fails waiting jobs as unavailable when the engine is stopped', async () => {
    const waiting = provider.synthesize({ text: 'The sea rises. '.repeat(200) }, signal()).then(
      () => undefined,
      (e: unknown) => e,
    )
    await new Promise((resolve) => setTimeout(resolve, 5))
    await stopEspeak()
    expect(await waiting).toMatchObject({
      name: 'SpeechError',
      kind: 'unavailable',
      retryable: false,
    })
  })

  it('starts a new engine after the old one stopped', async () => {
    await stopEspeak()
    const result = await provider.synthesize({ text: 'Again.' }, signal())
    expect(result.words).toHaveLength(1)
  })
})

describe('espeakInput', () => {
  it('escapes markup and records where each word sits, in code points', () => {
    const { text, spans } = espeakInput(['A&B', '<i>', '[[x]]', '😀', 'ok'])
    expect(text).toBe('A&amp;B &lt;i&gt; [ [x]] 😀 ok')
    expect(spans).toEqual([
      { start: 0, end: 7 },
      { start: 8, end: 17 },
      { start: 18, end: 24 },
      { start: 25, end: 26 },
      { start: 27, end: 29 },
    ])
  })
})

describe('wordTimingsFromMarks', () => {
  const words = ['Hello', 'world,', '42', '&', 'done.']
  const { spans } = espeakInput(words)
  // "Hello world, 42 &amp; done." positions: 0, 6, 13, 16, 22

  it('starts words at their word events and ends them at the next word or a pause; unspoken words share the gap', () => {
    const timings = wordTimingsFromMarks(
      words,
      spans,
      [
        { type: 'word', position: 0, ms: 0 },
        { type: 'word', position: 6, ms: 300 },
        { type: 'pause', position: 12, ms: 700 },
        { type: 'end', position: 12, ms: 900 },
        { type: 'word', position: 13, ms: 900 },
        { type: 'word', position: 14, ms: 1_200 }, // "forty" "two": one word
        { type: 'pause', position: 16, ms: 1_500 },
        { type: 'word', position: 22, ms: 1_800 },
        { type: 'pause', position: 27, ms: 2_200 },
      ],
      2_500,
    )
    expect(timings).toEqual([
      { text: 'Hello', startMs: 0, endMs: 300 },
      { text: 'world,', startMs: 300, endMs: 700 },
      { text: '42', startMs: 900, endMs: 1_500 },
      { text: '&', startMs: 1_500, endMs: 1_800 },
      { text: 'done.', startMs: 1_800, endMs: 2_200 },
    ])
  })

  it('ignores events that go back, and clamps to the duration', () => {
    const timings = wordTimingsFromMarks(
      ['a', 'b'],
      espeakInput(['a', 'b']).spans,
      [
        { type: 'word', position: 2, ms: 500 },
        { type: 'word', position: 0, ms: 600 },
        { type: 'word', position: 2, ms: 9_000 },
      ],
      1_000,
    )
    expect(timings).toEqual([
      { text: 'a', startMs: 0, endMs: 500 },
      { text: 'b', startMs: 500, endMs: 1_000 },
    ])
  })
})

describe('wordTimingsFromMarks (property)', () => {
  it('times every word once, in order, never backwards, within the duration', () => {
    const mark = fc.record({
      type: fc.constantFrom('word' as const, 'word' as const, 'pause' as const, 'end' as const),
      position: fc.integer({ min: 0, max: 120 }),
      ms: fc.integer({ min: -100, max: 12_000 }),
    })
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z&<>.,]{1,8}$/), { minLength: 1, maxLength: 20 }),
        fc.array(mark, { maxLength: 60 }),
        fc.integer({ min: 0, max: 10_000 }),
        (words, marks, totalMs) => {
          const { spans } = espeakInput(words)
          const timings = wordTimingsFromMarks(words, spans, marks, totalMs)
          expect(timings.map((w) => w.text)).toEqual(words)
          let previousEnd = 0
          for (const word of timings) {
            expect(word.startMs).toBeGreaterThanOrEqual(previousEnd)
            expect(word.endMs).toBeGreaterThanOrEqual(word.startMs)
            expect(word.endMs).toBeLessThanOrEqual(totalMs)
            previousEnd = word.endMs
          }
        },
      ),
    )
  })
})
