import { describe, expect, it } from 'vitest'
import { loadEnv } from '../../../env.ts'
import { createAiProviders } from './index.ts'

function capture() {
  const lines: unknown[] = []
  return { lines, logger: { info: (...args: unknown[]) => void lines.push(args) } as never }
}

describe('createAiProviders', () => {
  it('uses the builtin providers when nothing is configured', () => {
    const { logger, lines } = capture()
    const ai = createAiProviders(loadEnv({}), logger)
    expect(ai.text.info).toEqual({
      id: 'builtin',
      name: 'Offline drafts (built in)',
      offline: true,
    })
    expect(ai.image.info.id).toBe('builtin')
    expect(JSON.stringify(lines)).toContain('AI providers active')
  })

  it('chooses by configuration and never logs a secret', () => {
    const { logger, lines } = capture()
    const ai = createAiProviders(
      loadEnv({
        OPENAI_API_KEY: 'sk-secret-key',
        OPENAI_BASE_URL: 'http://localhost:11434/v1',
        CIVITAI_API_TOKEN: 'civitai-secret',
      }),
      logger,
    )
    expect(ai.text.info.id).toBe('openai')
    expect(ai.image.info.id).toBe('civitai')
    expect(JSON.stringify(lines)).not.toMatch(/secret/)
    const a1111 = createAiProviders(loadEnv({ A1111_URL: 'http://127.0.0.1:7860' }), logger)
    expect(a1111.image.info.id).toBe('automatic1111')
    const images = createAiProviders(
      loadEnv({ AI_IMAGE_PROVIDER: 'openai', OPENAI_API_KEY: 'k' }),
      logger,
    )
    expect(images.image.info.id).toBe('openai')
  })

  it.each([
    [{ AI_IMAGE_PROVIDER: 'civitai' }, /CIVITAI_API_TOKEN/],
    [{ AI_IMAGE_PROVIDER: 'automatic1111' }, /A1111_URL/],
    [{ AI_IMAGE_PROVIDER: 'openai' }, /OPENAI_API_KEY/],
    [{ AI_TEXT_PROVIDER: 'openai' }, /OPENAI_API_KEY/],
  ])('refuses to start when a chosen provider lacks its settings (%o)', (source, message) => {
    const { logger } = capture()
    expect(() => createAiProviders(loadEnv(source), logger)).toThrow(message)
  })

  it('accepts openai images with only a base URL (a compatible server)', () => {
    const { logger } = capture()
    const ai = createAiProviders(
      loadEnv({ AI_IMAGE_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://localhost:8080/v1' }),
      logger,
    )
    expect(ai.image.info.id).toBe('openai')
  })
})
