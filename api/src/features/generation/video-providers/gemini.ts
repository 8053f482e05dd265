import { z } from 'zod'
import type { Env } from '../../../env.ts'
import {
  type OutboundEnv,
  outboundPolicy,
  type OutboundSettings,
  outboundSettings,
} from '../../../lib/outbound/guarded-fetch.ts'
import { ProviderError } from '../../../lib/provider-error.ts'
import {
  type CatalogProvider,
  type ModelDefinition,
  providerModelId,
  videoModel,
} from '../catalog/model-definition.ts'
import type { ClipRequest, GeneratedClip, ImageBytes, VideoProvider } from '../catalog/types.ts'
import { CLIP_POLL_INTERVAL_MS } from './config.ts'
import {
  abortError,
  clipLimit,
  downloadTo,
  isSafetyRefusal,
  malformedAnswer,
  providerJson,
  type ProviderWords,
  type RetryPolicy,
  SAFETY_REFUSAL,
  safetyRefusal,
  sameOrigin,
  sleep,
  unknownModel,
} from './provider-http.ts'

/**
 * Google Veo through the Gemini API (issue 22 item 2): `POST
 * /v1beta/models/{model}:predictLongRunning` with `x-goog-api-key`, `instances[0]` holding the
 * prompt and an optional start image (and last frame) as base64 bytes, `parameters` holding
 * aspect ratio, duration, resolution and negative prompt; then `GET /v1beta/{operation name}`
 * until `done`. The video is at `response.generateVideoResponse.generatedSamples[0].video.uri`,
 * fetched with the key only on the API's own origin and through the outbound guard (issue 40
 * items 1 and 2); `raiMediaFilteredReasons` (a safety block) is a failure in words.
 * The Gemini API takes no seed and always makes Veo 3's sound; it offers no cancel for these
 * operations, so a cancelled clip is only no longer followed.
 * @see https://ai.google.dev/gemini-api/docs/video
 */

export const GEMINI_WORDS: ProviderWords = {
  label: 'The Gemini API',
  keyRefused: 'The Gemini API key was refused: check GEMINI_API_KEY on the server.',
}

/** What the Gemini provider needs. */
export interface GeminiSettings {
  /** `GEMINI_API_KEY`. */
  key: string
  /** `GEMINI_BASE_URL`, e.g. `https://generativelanguage.googleapis.com`. */
  baseUrl: string
  pollIntervalMs?: number
  retry?: RetryPolicy
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings
}

/** The shapes of the Gemini API's long-running video operations that Reelgraph reads. */
export const geminiProtocol = {
  operation: z
    .object({
      name: z.string(),
      done: z.boolean().optional(),
      metadata: z.object({ progressPercent: z.number().optional() }).loose().optional(),
      error: z
        .object({ code: z.number().optional(), message: z.string().optional() })
        .loose()
        .optional(),
      response: z
        .object({
          generateVideoResponse: z
            .object({
              generatedSamples: z
                .array(z.object({ video: z.object({ uri: z.string() }).loose() }).loose())
                .optional(),
              raiMediaFilteredCount: z.number().optional(),
              raiMediaFilteredReasons: z.array(z.string()).optional(),
            })
            .loose()
            .optional(),
        })
        .loose()
        .optional(),
    })
    .loose(),
}

const GEMINI = { id: 'gemini', name: 'Google Gemini API' }

/**
 * Veo's models on the Gemini API (issue 22 item 1), with default costs in credits (about 1.5
 * times Google's price per second at $0.06 a credit). Veo makes 16:9 and 9:16 only.
 */
export const GEMINI_DEFAULT_MODELS: readonly ModelDefinition[] = [
  videoModel(GEMINI, {
    model: 'veo-3.1-fast-generate-preview',
    name: 'Veo 3.1 Fast',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: true,
      audio: true,
      durations: [4, 6, 8],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p', '1080p'],
    },
    creditsPerSecond: 3,
    input: {},
  }),
  videoModel(GEMINI, {
    model: 'veo-3.1-generate-preview',
    name: 'Veo 3.1',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: true,
      audio: true,
      durations: [4, 6, 8],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p', '1080p'],
    },
    creditsPerSecond: 8,
    input: {},
  }),
  videoModel(GEMINI, {
    model: 'veo-2.0-generate-001',
    name: 'Veo 2',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [5, 6, 7, 8],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p'],
    },
    creditsPerSecond: 7,
    input: {},
  }),
]

/** An image as the Gemini API takes it inline. */
function inlineImage(image: ImageBytes) {
  return {
    bytesBase64Encoded: Buffer.from(image.bytes).toString('base64'),
    mimeType: image.mimeType,
  }
}

/** The `predictLongRunning` body for a clip. */
export function veoRequestBody(request: ClipRequest) {
  const caps = request.model.capabilities
  if (caps && !caps.textToVideo && !request.startImage) {
    throw new ProviderError(
      'refused',
      `${request.model.name} makes clips from a start image: connect an image to the Video Generator.`,
    )
  }
  return {
    instances: [
      {
        prompt: request.prompt,
        ...(request.startImage ? { image: inlineImage(request.startImage) } : {}),
        ...(request.lastFrame && caps?.lastFrame
          ? { lastFrame: inlineImage(request.lastFrame) }
          : {}),
      },
    ],
    parameters: {
      aspectRatio: request.aspectRatio,
      durationSeconds: request.durationSeconds,
      resolution: request.resolution,
      ...(request.negativePrompt ? { negativePrompt: request.negativePrompt } : {}),
    },
  }
}

/** The clip maker for Veo on the Gemini API. */
export function createGeminiVideoProvider(
  settings: GeminiSettings,
  models: readonly ModelDefinition[],
): VideoProvider {
  const base = settings.baseUrl.replace(/\/+$/, '')
  const auth = { 'x-goog-api-key': settings.key }
  const policy = outboundPolicy([base], settings.outbound)
  const retry = { policy, ...(settings.retry ? { retry: settings.retry } : {}) }
  const known = new Set(models.map((d) => d.model.id))
  return {
    id: 'gemini',
    name: 'Google Gemini API',
    async generateClip(request, { signal, onProgress }): Promise<GeneratedClip> {
      if (!known.has(request.model.id)) throw unknownModel(request.model.id)
      const body = veoRequestBody(request)
      onProgress({ state: 'queued' })
      let operation = await providerJson(
        GEMINI_WORDS,
        `${base}/v1beta/models/${providerModelId(request.model)}:predictLongRunning`,
        {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal,
        },
        geminiProtocol.operation,
        retry,
      )
      while (!operation.done) {
        onProgress({ state: 'running', percent: operation.metadata?.progressPercent })
        try {
          await sleep(settings.pollIntervalMs ?? CLIP_POLL_INTERVAL_MS, signal)
        } catch {
          throw abortError(GEMINI_WORDS, signal)
        }
        operation = await providerJson(
          GEMINI_WORDS,
          `${base}/v1beta/${operation.name}`,
          { headers: auth, signal },
          geminiProtocol.operation,
          retry,
        )
      }
      if (operation.error) {
        const message = operation.error.message ?? `error ${operation.error.code ?? ''}`
        if (isSafetyRefusal(message)) throw safetyRefusal(operation.error)
        throw new ProviderError('refused', `Veo could not make it: ${message.slice(0, 200)}`, {
          cause: operation.error,
        })
      }
      const result = operation.response?.generateVideoResponse
      const reasons = result?.raiMediaFilteredReasons ?? []
      const uri = result?.generatedSamples?.[0]?.video.uri
      if (!uri) {
        if (reasons.length > 0 || (result?.raiMediaFilteredCount ?? 0) > 0) {
          // Google's reasons are sentences meant for the person who wrote the prompt.
          const why = reasons.join(' ').replace(/\s+/g, ' ').slice(0, 300)
          throw new ProviderError('refused', why ? `${SAFETY_REFUSAL} ${why}` : SAFETY_REFUSAL, {
            cause: result,
          })
        }
        throw malformedAnswer(GEMINI_WORDS, operation)
      }
      return {
        saveTo: (path, saveSignal, maxBytes) =>
          downloadTo(
            GEMINI_WORDS,
            uri,
            // The key goes only to the Gemini API itself.
            { headers: sameOrigin(uri, base) ? auth : undefined, signal: saveSignal },
            path,
            { ...retry, what: 'a result', limit: clipLimit(maxBytes) },
          ),
      }
    },
  }
}

/** Veo on the Gemini API in the model catalog: on with `GEMINI_API_KEY` (video only). */
export function geminiCatalog(
  env: Pick<Env, 'GEMINI_API_KEY' | 'GEMINI_BASE_URL' | 'GEMINI_CONCURRENCY'> &
    Pick<OutboundEnv, 'OUTBOUND_ALLOW_HOSTS' | 'OUTBOUND_TIMEOUT_MS'>,
): CatalogProvider {
  const settings: GeminiSettings = {
    key: env.GEMINI_API_KEY ?? '',
    baseUrl: env.GEMINI_BASE_URL,
    outbound: outboundSettings(env),
  }
  return {
    id: 'gemini',
    name: 'Google Gemini API',
    enabled: env.GEMINI_API_KEY !== undefined,
    disabledReason: 'GEMINI_API_KEY is not set',
    defaults: [...GEMINI_DEFAULT_MODELS],
    acceptsFileModels: true,
    concurrency: env.GEMINI_CONCURRENCY,
    video: (models) => createGeminiVideoProvider(settings, models),
  }
}
