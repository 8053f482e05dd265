import { describe, expect, it } from 'vitest'
import { narrationKey } from './narration-key.ts'

const openai = { identity: 'openai gpt-4o-mini-tts api.openai.com', defaultVoice: 'alloy' }

describe('narrationKey (issue 21 item 4)', () => {
  it('is the same for the same provider, voice and exact text, the default voice named or not', () => {
    const key = narrationKey(openai, { text: 'The tide turns.' })
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(narrationKey(openai, { text: 'The tide turns.', voice: 'alloy' })).toBe(key)
    expect(narrationKey(openai, { text: 'The tide turns.', voice: '' })).toBe(key)
  })

  it('differs when the text, the voice or the provider differs', () => {
    const key = narrationKey(openai, { text: 'The tide turns.' })
    const others = [
      narrationKey(openai, { text: 'The tide turns' }),
      narrationKey(openai, { text: 'The tide turns. ' }),
      narrationKey(openai, { text: 'The tide turns.', voice: 'nova' }),
      narrationKey(
        { ...openai, identity: 'openai tts-1 api.openai.com' },
        { text: 'The tide turns.' },
      ),
      narrationKey(
        { identity: 'builtin espeak-ng 0.3.5 160 wpm', defaultVoice: 'alloy' },
        {
          text: 'The tide turns.',
        },
      ),
    ]
    expect(new Set([key, ...others]).size).toBe(others.length + 1)
  })
})
