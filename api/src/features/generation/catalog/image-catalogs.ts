import type { Env } from '../../../env.ts'
import { type OutboundEnv, outboundSettings } from '../../../lib/outbound/guarded-fetch.ts'
import { createCivitaiImageProvider } from '../providers/civitai.ts'
import { createOpenAiImageProvider } from '../providers/openai.ts'
import type { ImageProvider } from '../providers/types.ts'
import {
  type CatalogProvider,
  imageModel,
  type ModelDefinition,
  providerModelId,
} from './model-definition.ts'

/**
 * The image providers of issue 4 in the model catalog (issue 22 item 1): OpenAI's image model
 * and Civitai checkpoints, each bound to its model, so any of them draws whatever provider
 * `AI_IMAGE_PROVIDER` names. (AUTOMATIC1111's checkpoints are the server's own and listed live
 * by `GET /api/csas/models` when it is the image provider.)
 */

/** Binds a provider to one model: whatever version the request names, this model draws. */
function bound(provider: ImageProvider, definition: ModelDefinition): ImageProvider {
  const { model } = definition
  return {
    info: provider.info,
    listModels: () =>
      Promise.resolve([{ id: model.id, name: model.name, modelVersions: [{ id: model.id }] }]),
    generateImage: (request, signal, onProgress) =>
      provider.generateImage(
        { ...request, modelVersionId: providerModelId(model) },
        signal,
        onProgress,
      ),
  }
}

/** OpenAI's image model (`OPENAI_IMAGE_MODEL`): on with `OPENAI_API_KEY`; costs `COST_IMAGE`. */
export function openaiCatalog(
  env: Pick<
    Env,
    | 'OPENAI_API_KEY'
    | 'OPENAI_BASE_URL'
    | 'OPENAI_MODEL'
    | 'OPENAI_IMAGE_MODEL'
    | 'AI_TEXT_TIMEOUT_MS'
    | 'AI_IMAGE_TIMEOUT_MS'
    | 'costs'
  > &
    OutboundEnv,
): CatalogProvider {
  const provider = { id: 'openai', name: 'OpenAI' }
  return {
    ...provider,
    enabled: env.OPENAI_API_KEY !== undefined,
    disabledReason: 'OPENAI_API_KEY is not set',
    defaults: [
      imageModel(provider, {
        model: env.OPENAI_IMAGE_MODEL,
        name: `OpenAI ${env.OPENAI_IMAGE_MODEL}`,
        credits: env.costs.image,
      }),
    ],
    acceptsFileModels: true,
    concurrency: 1,
    image: (definition) =>
      createOpenAiImageProvider({
        apiKey: env.OPENAI_API_KEY,
        baseURL: env.OPENAI_BASE_URL,
        model: env.OPENAI_MODEL,
        imageModel: providerModelId(definition.model),
        textTimeoutMs: env.AI_TEXT_TIMEOUT_MS,
        imageTimeoutMs: env.AI_IMAGE_TIMEOUT_MS,
        outbound: outboundSettings(env),
        imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
      }),
  }
}

/** Civitai checkpoints by AIR (`civitai:urn:air:...`): on with `CIVITAI_API_TOKEN`. */
export function civitaiCatalog(
  env: Pick<
    Env,
    | 'CIVITAI_API_TOKEN'
    | 'CIVITAI_BASE_URL'
    | 'CIVITAI_ORCHESTRATION_URL'
    | 'AI_IMAGE_TIMEOUT_MS'
    | 'costs'
  > &
    OutboundEnv,
): CatalogProvider {
  const provider = { id: 'civitai', name: 'Civitai' }
  const civitai = () =>
    createCivitaiImageProvider({
      token: env.CIVITAI_API_TOKEN ?? '',
      baseUrl: env.CIVITAI_BASE_URL,
      orchestrationUrl: env.CIVITAI_ORCHESTRATION_URL,
      timeoutMs: env.AI_IMAGE_TIMEOUT_MS,
      outbound: outboundSettings(env),
      imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
    })
  return {
    ...provider,
    enabled: env.CIVITAI_API_TOKEN !== undefined,
    disabledReason: 'CIVITAI_API_TOKEN is not set',
    defaults: [
      imageModel(provider, {
        model: 'urn:air:sdxl:checkpoint:civitai:101055@128078',
        name: 'SDXL 1.0 (Civitai)',
        credits: env.costs.image,
      }),
    ],
    acceptsFileModels: true,
    concurrency: 1,
    image: (definition) => bound(civitai(), definition),
  }
}
