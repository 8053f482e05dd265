import { afterAll, describe, expect, it } from 'vitest'
import { splitWords } from '@reelgraph/shared'
import { createBuiltinSpeechProvider } from './builtin.ts'
import { stopEspeak } from './espeak.ts'
import { decodeWav } from './pcm.ts'
import { previewNarration } from './preview.ts'

afterAll(() => stopEspeak())

const provider = createBuiltinSpeechProvider({ timeoutMs: 30_000 })
const NARRATION =
  'Every day, the ocean breathes in and out. Twice a day the tide rises along the coast, and twice a day it falls back, because the moon pulls on the water.'

describe('previewNarration', () => {
  it('speaks a scene’s narration as a WAV with its captions', async () => {
    const preview = await previewNarration(
      provider,
      { narration: NARRATION },
      new AbortController().signal,
    )
    expect(preview.contentType).toBe('audio/wav')
    expect(preview.provider.id).toBe('builtin')
    expect(decodeWav(preview.wav).sampleRate).toBe(preview.sampleRate)
    expect(preview.words.map((w) => w.text)).toEqual(splitWords(NARRATION))
    expect(preview.cues.length).toBeGreaterThan(1)
    expect(preview.cues.flatMap((c) => c.lines.join(' ').split(' '))).toEqual(splitWords(NARRATION))
    expect(preview.cues.at(-1)!.endMs).toBeLessThanOrEqual(preview.durationMs)
    expect(preview.vtt.startsWith('WEBVTT\n\n00:00:00.')).toBe(true)
  })

  it('gives an empty preview for a scene without narration', async () => {
    const preview = await previewNarration(
      provider,
      { narration: '' },
      new AbortController().signal,
    )
    expect(preview).toMatchObject({ durationMs: 0, words: [], cues: [], vtt: 'WEBVTT\n' })
  })
})
