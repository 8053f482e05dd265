import type { Logger } from 'pino'
import type { Env } from '../../../env.ts'
import { type OutboundEnv, outboundSettings } from '../../../lib/outbound/guarded-fetch.ts'
import { createAutomatic1111ImageProvider } from './automatic1111.ts'
import { createBuiltinImageProvider } from './builtin-image.ts'
import { createBuiltinTextProvider } from './builtin-text.ts'
import { createCivitaiImageProvider } from './civitai.ts'
import {
  createOpenAiImageProvider,
  createOpenAiTextProvider,
  type OpenAiSettings,
} from './openai.ts'
import type { AiProviders, ImageProvider, TextProvider } from './types.ts'

/** The settings the providers read (a subset of Env, so tests can pass a literal). */
export type AiProviderEnv = Pick<
  Env,
  | 'textProvider'
  | 'imageProvider'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_MODEL'
  | 'OPENAI_IMAGE_MODEL'
  | 'CIVITAI_API_TOKEN'
  | 'CIVITAI_BASE_URL'
  | 'CIVITAI_ORCHESTRATION_URL'
  | 'A1111_URL'
  | 'AI_TEXT_TIMEOUT_MS'
  | 'AI_IMAGE_TIMEOUT_MS'
> &
  OutboundEnv

/**
 * The providers chosen by configuration (`env.textProvider`, `env.imageProvider`;
 * ARCHITECTURE "AI providers", issue 4 item 2). Logs which are active, never a secret.
 * @throws Error when a chosen provider lacks its settings (e.g. civitai without a token).
 */
export function createAiProviders(env: AiProviderEnv, logger: Pick<Logger, 'info'>): AiProviders {
  const openAi: OpenAiSettings = {
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    model: env.OPENAI_MODEL,
    imageModel: env.OPENAI_IMAGE_MODEL,
    textTimeoutMs: env.AI_TEXT_TIMEOUT_MS,
    imageTimeoutMs: env.AI_IMAGE_TIMEOUT_MS,
    outbound: outboundSettings(env),
    imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
  }
  const text = createTextProvider(env, openAi)
  const image = createImageProvider(env, openAi)
  logger.info(
    {
      text: text.info.id,
      textName: text.info.name,
      image: image.info.id,
      imageName: image.info.name,
      ...(env.OPENAI_BASE_URL && (text.info.id === 'openai' || image.info.id === 'openai')
        ? { openAiBaseUrl: new URL(env.OPENAI_BASE_URL).origin }
        : {}),
    },
    'AI providers active',
  )
  return { text, image }
}

function createTextProvider(env: AiProviderEnv, openAi: OpenAiSettings): TextProvider {
  switch (env.textProvider) {
    case 'openai':
      if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
        throw new Error(
          'AI_TEXT_PROVIDER=openai needs OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server such as Ollama).',
        )
      }
      return createOpenAiTextProvider(openAi)
    case 'builtin':
      return createBuiltinTextProvider()
  }
}

function createImageProvider(env: AiProviderEnv, openAi: OpenAiSettings): ImageProvider {
  switch (env.imageProvider) {
    case 'openai':
      if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
        throw new Error(
          'AI_IMAGE_PROVIDER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL of a compatible server).',
        )
      }
      return createOpenAiImageProvider(openAi)
    case 'civitai':
      if (!env.CIVITAI_API_TOKEN) {
        throw new Error('AI_IMAGE_PROVIDER=civitai needs CIVITAI_API_TOKEN (a Civitai API key).')
      }
      return createCivitaiImageProvider({
        token: env.CIVITAI_API_TOKEN,
        baseUrl: env.CIVITAI_BASE_URL,
        orchestrationUrl: env.CIVITAI_ORCHESTRATION_URL,
        timeoutMs: env.AI_IMAGE_TIMEOUT_MS,
        outbound: outboundSettings(env),
        imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
      })
    case 'automatic1111':
      if (!env.A1111_URL) {
        throw new Error(
          'AI_IMAGE_PROVIDER=automatic1111 needs A1111_URL (e.g. http://127.0.0.1:7860).',
        )
      }
      return createAutomatic1111ImageProvider({
        url: env.A1111_URL,
        timeoutMs: env.AI_IMAGE_TIMEOUT_MS,
        outbound: outboundSettings(env),
      })
    case 'builtin':
      return createBuiltinImageProvider()
  }
}
