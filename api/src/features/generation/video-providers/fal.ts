import { z } from 'zod'
import type { Env } from '../../../env.ts'
import {
  guardedFetch,
  type OutboundEnv,
  outboundPolicy,
  type OutboundSettings,
  outboundSettings,
} from '../../../lib/outbound/guarded-fetch.ts'
import { ProviderError } from '../../../lib/provider-error.ts'
import { clipInput, imageInput } from '../catalog/input-mapping.ts'
import {
  type CatalogProvider,
  type ModelDefinition,
  providerModelId,
} from '../catalog/model-definition.ts'
import type {
  ClipProgressReport,
  ClipRequest,
  GeneratedClip,
  VideoProvider,
} from '../catalog/types.ts'
import { decodeBase64, exactSizeImage } from '../providers/image-bytes.ts'
import type { ImageProvider } from '../providers/types.ts'
import { CLIP_POLL_INTERVAL_MS } from './config.ts'
import { FAL_DEFAULT_MODELS } from './fal-models.ts'
import {
  clipLimit,
  dataUri,
  downloadBytes,
  downloadTo,
  imageLimit,
  isSafetyRefusal,
  malformedAnswer,
  providerJson,
  type ProviderWords,
  requireKeyOrigin,
  type RetryPolicy,
  runGeneration,
  safetyRefusal,
  sameOrigin,
  sleep,
  unknownModel,
} from './provider-http.ts'

/**
 * fal.ai's queue API (issue 22 item 2): `POST {queue}/{model id}` with the model's input and
 * `Authorization: Key …`, then always the URLs fal answers: `status_url` (`IN_QUEUE` with
 * `queue_position`, `IN_PROGRESS` with logs, `COMPLETED`), `response_url` for the result,
 * `PUT cancel_url` to cancel. fal shortens them for model ids of several segments, so building
 * them from the model id gives 404s. Start images go inside the input as data URIs, so
 * everything fal needs passes through `FAL_QUEUE_URL`. The key goes only to that origin: a
 * status or response URL elsewhere is refused in words, a cancel URL elsewhere is not sent, and
 * every URL fal answers goes through the outbound guard (issue 40 items 1 and 2).
 * @see https://docs.fal.ai/model-endpoints/queue
 */

export const FAL_WORDS: ProviderWords = {
  label: 'fal.ai',
  keyRefused: 'The fal key was refused: check FAL_KEY on the server.',
}

/** What the fal provider needs. */
export interface FalSettings {
  /** `FAL_KEY`. */
  key: string
  /** `FAL_QUEUE_URL`, e.g. `https://queue.fal.run`. */
  queueUrl: string
  /** Default CLIP_POLL_INTERVAL_MS (tests poll faster). */
  pollIntervalMs?: number
  retry?: RetryPolicy
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings
  /** `IMAGE_RESULT_MAX_BYTES`; default DEFAULT_IMAGE_RESULT_MAX_BYTES. */
  imageMaxBytes?: number
}

/** The shapes of fal's queue protocol that Reelgraph reads. */
export const falProtocol = {
  /** The answer of `POST {queue}/{model id}`. */
  submitted: z
    .object({
      request_id: z.string(),
      status_url: z.string().url(),
      response_url: z.string().url(),
      cancel_url: z.string().url(),
      queue_position: z.number().int().nullish(),
    })
    .loose(),
  /** `GET status_url?logs=1`. */
  status: z
    .object({
      status: z.string(),
      queue_position: z.number().int().nullish(),
      logs: z.array(z.object({ message: z.string() }).loose()).nullish(),
      error: z.string().nullish(),
      error_type: z.string().nullish(),
    })
    .loose(),
  /** A video model's result (`GET response_url`). */
  videoResult: z
    .object({
      video: z.object({ url: z.string() }).loose().optional(),
      videos: z.array(z.object({ url: z.string() }).loose()).optional(),
    })
    .loose(),
  /** An image model's result. */
  imageResult: z
    .object({
      images: z.array(z.object({ url: z.string() }).loose()).optional(),
      image: z.object({ url: z.string() }).loose().optional(),
      has_nsfw_concepts: z.array(z.boolean()).optional(),
    })
    .loose(),
}

/** The last percent a log line of fal's says (`Progress: 45%`), if any. */
function percentFromLogs(logs: readonly { message: string }[] | null | undefined) {
  for (let i = (logs?.length ?? 0) - 1; i >= 0; i--) {
    const match = /(\d{1,3}(?:\.\d+)?)\s?%/.exec(logs![i]!.message)
    if (match) return Math.min(100, Math.max(0, Number(match[1])))
  }
  return undefined
}

/**
 * What every call to fal with `settings` sends and obeys: the key's header, the retry policy
 * and the outbound policy (its queue's origin trusted as configured). Made once per provider:
 * the guard keeps a connection pool per policy.
 */
function falCall(settings: FalSettings) {
  return {
    settings,
    auth: { authorization: `Key ${settings.key}` },
    retry: {
      policy: outboundPolicy([settings.queueUrl], settings.outbound),
      ...(settings.retry ? { retry: settings.retry } : {}),
    },
  }
}
type FalCall = ReturnType<typeof falCall>

/**
 * Submits `input` to fal's queue for `modelPath` and follows it to its result JSON (unread),
 * reporting the queue position (1 = next) and progress; on abort, `PUT cancel_url` first.
 */
async function runQueued(
  call: FalCall,
  modelPath: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
  onProgress: (report: ClipProgressReport) => void,
): Promise<unknown> {
  const { settings, auth, retry } = call
  const queue = settings.queueUrl.replace(/\/+$/, '')
  return runGeneration({
    words: FAL_WORDS,
    signal,
    submit: (submitSignal) =>
      providerJson(
        FAL_WORDS,
        `${queue}/${modelPath}`,
        {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(input),
          signal: submitSignal,
        },
        falProtocol.submitted,
        retry,
      ),
    follow: (submitted) => followQueued(call, submitted, signal, onProgress),
    // The key goes only to the queue: a cancel URL elsewhere is not sent at all.
    cancel: (submitted, cancelSignal) =>
      sameOrigin(submitted.cancel_url, queue)
        ? guardedFetch(
            submitted.cancel_url,
            { method: 'PUT', headers: auth, signal: cancelSignal },
            retry.policy,
          )
        : Promise.resolve(),
  })
}

/** Follows a submitted request by its `status_url` to its result JSON (unread). */
async function followQueued(
  call: FalCall,
  submitted: z.output<typeof falProtocol.submitted>,
  signal: AbortSignal,
  onProgress: (report: ClipProgressReport) => void,
): Promise<unknown> {
  const { settings, auth, retry } = call
  // Both need the key: on another origin than the queue they are not followed.
  requireKeyOrigin(
    FAL_WORDS,
    submitted.status_url,
    settings.queueUrl,
    'a status URL',
    'FAL_QUEUE_URL',
  )
  requireKeyOrigin(
    FAL_WORDS,
    submitted.response_url,
    settings.queueUrl,
    'a response URL',
    'FAL_QUEUE_URL',
  )
  const statusUrl = new URL(submitted.status_url)
  statusUrl.searchParams.set('logs', '1')
  for (let first = true; ; first = false) {
    if (!first) await sleep(settings.pollIntervalMs ?? CLIP_POLL_INTERVAL_MS, signal)
    const status = await providerJson(
      FAL_WORDS,
      statusUrl.href,
      { headers: auth, signal },
      falProtocol.status,
      { ...retry, what: 'a status URL' },
    )
    switch (status.status) {
      case 'IN_QUEUE':
        onProgress({
          state: 'queued',
          // fal counts from 0 (next); Reelgraph from 1.
          queuePosition:
            status.queue_position === null || status.queue_position === undefined
              ? undefined
              : status.queue_position + 1,
        })
        continue
      case 'IN_PROGRESS':
        onProgress({ state: 'running', percent: percentFromLogs(status.logs) })
        continue
      case 'COMPLETED': {
        if (status.error) throw failure(status.error, status.error_type)
        return await providerJson(
          FAL_WORDS,
          submitted.response_url,
          { headers: auth, signal },
          z.unknown(),
          { ...retry, what: 'a response URL' },
        )
      }
      case 'FAILED':
      case 'ERROR':
        throw failure(status.error ?? 'the generation failed', status.error_type)
      case 'CANCELED':
      case 'CANCELLED':
        throw new ProviderError('refused', 'fal.ai cancelled this generation. Please try again.')
      default:
        throw malformedAnswer(FAL_WORDS, status)
    }
  }
}

/** A failed request in words: a safety refusal, or fal's own reason. */
function failure(message: string, type?: string | null): ProviderError {
  if (isSafetyRefusal(`${message} ${type ?? ''}`)) return safetyRefusal({ message, type })
  return new ProviderError('refused', `fal.ai could not make it: ${message.slice(0, 200)}`, {
    cause: { message, type },
  })
}

/** The clip maker for fal's video models (`models`: the curated ones and the operator's). */
export function createFalVideoProvider(
  settings: FalSettings,
  models: readonly ModelDefinition[],
): VideoProvider {
  const call = falCall(settings)
  const byId = new Map(models.map((d) => [d.model.id, d]))
  return {
    id: 'fal',
    name: 'fal.ai',
    async generateClip(request: ClipRequest, { signal, onProgress }): Promise<GeneratedClip> {
      const definition = byId.get(request.model.id)
      if (!definition) throw unknownModel(request.model.id)
      const input = clipInput(definition.input, request, {
        startImage: request.startImage && dataUri(request.startImage),
        lastFrame: request.lastFrame && dataUri(request.lastFrame),
      })
      onProgress({ state: 'queued' })
      const answer = await runQueued(
        call,
        providerModelId(request.model),
        input,
        signal,
        onProgress,
      )
      const result = falProtocol.videoResult.safeParse(answer)
      const url = result.success
        ? (result.data.video?.url ?? result.data.videos?.[0]?.url)
        : undefined
      if (!url) throw malformedAnswer(FAL_WORDS, answer)
      return {
        // fal's media URLs are public: the key stays with the queue.
        saveTo: (path, saveSignal, maxBytes) =>
          downloadTo(FAL_WORDS, url, { signal: saveSignal }, path, {
            ...call.retry,
            what: 'a result',
            limit: clipLimit(maxBytes),
          }),
      }
    },
  }
}

/** The image maker bound to one of fal's image models. */
export function createFalImageProvider(
  settings: FalSettings,
  definition: ModelDefinition,
): ImageProvider {
  const call = falCall(settings)
  const { model } = definition
  return {
    info: { id: 'fal', name: `fal.ai ${model.name}`, offline: false },
    listModels: () =>
      Promise.resolve([{ id: model.id, name: model.name, modelVersions: [{ id: model.id }] }]),
    async generateImage(request, signal, onProgress) {
      const answer = await runQueued(
        call,
        providerModelId(model),
        imageInput(definition.input, request),
        signal,
        (report) => {
          if (report.percent !== undefined) onProgress?.(report.percent)
        },
      )
      const parsed = falProtocol.imageResult.safeParse(answer)
      if (!parsed.success) throw malformedAnswer(FAL_WORDS, answer)
      if (parsed.data.has_nsfw_concepts?.[0]) throw safetyRefusal(parsed.data.has_nsfw_concepts)
      const url = parsed.data.images?.[0]?.url ?? parsed.data.image?.url
      if (!url) throw malformedAnswer(FAL_WORDS, answer)
      const limit = imageLimit(settings.imageMaxBytes)
      const bytes = url.startsWith('data:')
        ? decodeBase64(FAL_WORDS.label, url, limit)
        : await downloadBytes(
            FAL_WORDS,
            url,
            { signal },
            {
              ...call.retry,
              what: 'a result',
              limit,
            },
          )
      return exactSizeImage(FAL_WORDS.label, bytes, request.width, request.height)
    },
  }
}

/** fal.ai in the model catalog: on with `FAL_KEY`. */
export function falCatalog(
  env: Pick<Env, 'FAL_KEY' | 'FAL_QUEUE_URL' | 'FAL_CONCURRENCY'> & OutboundEnv,
): CatalogProvider {
  const settings: FalSettings = {
    key: env.FAL_KEY ?? '',
    queueUrl: env.FAL_QUEUE_URL,
    outbound: outboundSettings(env),
    imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
  }
  return {
    id: 'fal',
    name: 'fal.ai',
    enabled: env.FAL_KEY !== undefined,
    disabledReason: 'FAL_KEY is not set',
    defaults: [...FAL_DEFAULT_MODELS],
    acceptsFileModels: true,
    concurrency: env.FAL_CONCURRENCY,
    video: (models) => createFalVideoProvider(settings, models),
    image: (definition) => createFalImageProvider(settings, definition),
  }
}
