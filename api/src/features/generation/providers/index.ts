import type { Logger } from 'pino'
import type { Env } from '../../../env.ts'
import { type AiProviders, ProviderError } from './types.ts'

/**
 * The providers chosen by configuration (`env.textProvider`, `env.imageProvider`).
 * @throws Error when a chosen provider lacks its settings (e.g. civitai without a token).
 */
export function createAiProviders(env: Env, logger: Logger): AiProviders {
  void env
  void logger
  // Replaced by the real providers in this next commits.
  const unavailable = () =>
    Promise.reject(new ProviderError('unavailable', 'Generation is not available yet.'))
  const info = { id: 'none', name: 'None', offline: true }
  return {
    text: { info, generateScript: unavailable, generateScenes: unavailable },
    image: { info, listModels: unavailable, generateImage: unavailable },
  }
}
