import { describe, expect, it } from 'vitest'
import { createSpeechProvider } from './index.ts'

describe('createSpeechProvider', () => {
  it('is the builtin provider when none is chosen', () => {
    const provider = createSpeechProvider()
    expect(provider.info).toEqual({
      id: 'builtin',
      name: 'eSpeak NG (built in, offline)',
      offline: true,
    })
    expect(provider.defaultVoice).toBe('gmw/en-US')
  })

  it('is the chosen provider, with its model in its name', () => {
    expect(createSpeechProvider({ provider: 'openai', openaiApiKey: 'sk' }).info).toEqual({
      id: 'openai',
      name: 'OpenAI speech (gpt-4o-mini-tts)',
      offline: false,
    })
    expect(
      createSpeechProvider({
        provider: 'openai',
        openaiBaseUrl: 'http://127.0.0.1:8880/v1',
        openaiModel: 'tts-1',
      }).info.name,
    ).toBe('OpenAI speech (tts-1)')
    expect(createSpeechProvider({ provider: 'elevenlabs', elevenLabsApiKey: 'k' }).info).toEqual({
      id: 'elevenlabs',
      name: 'ElevenLabs (eleven_multilingual_v2)',
      offline: false,
    })
  })

  it('refuses a chosen provider without its settings', () => {
    expect(() => createSpeechProvider({ provider: 'openai' })).toThrow(/OPENAI_API_KEY/)
    expect(() => createSpeechProvider({ provider: 'elevenlabs' })).toThrow(/ELEVENLABS_API_KEY/)
  })
})
