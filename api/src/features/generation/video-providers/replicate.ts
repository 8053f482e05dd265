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
  ImageBytes,
  VideoProvider,
} from '../catalog/types.ts'
import { exactSizeImage } from '../providers/image-bytes.ts'
import type { ImageProvider } from '../providers/types.ts'
import { CLIP_POLL_INTERVAL_MS, REPLICATE_DATA_URI_MAX_BYTES } from './config.ts'
import { REPLICATE_DEFAULT_MODELS } from './replicate-models.ts'
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
 * Replicate's predictions API (issue 22 item 2): `POST /v1/models/{owner}/{name}/predictions`
 * with `{ input }` and a Bearer token (or `POST /v1/predictions` with a `version` for an
 * `owner/name:version` id), then `urls.get` until `succeeded`, `failed` or `canceled`; the
 * output is a URI or a list of them; `urls.cancel` cancels. Start images go as data URIs when
 * small, else through Replicate's own file upload (`POST /v1/files`): never a link into
 * Reelgraph. Replicate deletes outputs after an hour: they are fetched at once. The token goes
 * only to `REPLICATE_BASE_URL`'s origin: a `urls.get` elsewhere is refused in words, a
 * `urls.cancel` elsewhere is not sent, and every URL Replicate answers goes through the outbound
 * guard (issue 40 items 1 and 2).
 * @see https://replicate.com/docs/reference/http
 */

export const REPLICATE_WORDS: ProviderWords = {
  label: 'Replicate',
  keyRefused: 'The Replicate token was refused: check REPLICATE_API_TOKEN on the server.',
}

/** What the Replicate provider needs. */
export interface ReplicateSettings {
  /** `REPLICATE_API_TOKEN`. */
  token: string
  /** `REPLICATE_BASE_URL`, e.g. `https://api.replicate.com`. */
  baseUrl: string
  pollIntervalMs?: number
  retry?: RetryPolicy
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings
  /** `IMAGE_RESULT_MAX_BYTES`; default DEFAULT_IMAGE_RESULT_MAX_BYTES. */
  imageMaxBytes?: number
}

/** The shapes of Replicate's protocol that Reelgraph reads. */
export const replicateProtocol = {
  prediction: z
    .object({
      id: z.string(),
      status: z.string(),
      output: z.unknown().optional(),
      error: z.unknown().optional(),
      logs: z.string().nullish(),
      urls: z.object({ get: z.string().url(), cancel: z.string().url().optional() }).loose(),
    })
    .loose(),
  /** `POST /v1/files`. */
  file: z.object({ urls: z.object({ get: z.string().url() }).loose() }).loose(),
}
type Prediction = z.output<typeof replicateProtocol.prediction>

/** The last percent of a progress bar in Replicate's logs (`45%|████`), if any. */
function percentFromLogs(logs: string | null | undefined): number | undefined {
  const matches = logs ? [...logs.matchAll(/(\d{1,3})%\|/g)] : []
  const last = matches.at(-1)
  return last ? Math.min(100, Number(last[1])) : undefined
}

/** The first URI of an output that is a URI or a list of them. */
function firstUri(output: unknown): string | undefined {
  if (typeof output === 'string') return output
  if (Array.isArray(output)) return output.find((o): o is string => typeof o === 'string')
  return undefined
}

/** A client of one Replicate account. */
export function replicateClient(settings: ReplicateSettings) {
  const base = settings.baseUrl.replace(/\/+$/, '')
  const auth = { authorization: `Bearer ${settings.token}` }
  const policy = outboundPolicy([base], settings.outbound)
  const retry = { policy, ...(settings.retry ? { retry: settings.retry } : {}) }

  /** A start image as Replicate takes it: a data URI when small, else its own upload. */
  async function imageRef(image: ImageBytes, signal: AbortSignal): Promise<string> {
    if (image.bytes.byteLength <= REPLICATE_DATA_URI_MAX_BYTES) return dataUri(image)
    const form = new FormData()
    const extension = image.mimeType.split('/')[1] ?? 'png'
    form.set(
      'content',
      new Blob([Buffer.from(image.bytes)], { type: image.mimeType }),
      `start.${extension}`,
    )
    const file = await providerJson(
      REPLICATE_WORDS,
      `${base}/v1/files`,
      { method: 'POST', headers: auth, body: form, signal },
      replicateProtocol.file,
      retry,
    )
    return file.urls.get
  }

  /** Runs a prediction to its end and answers its output (a URI or a list of them). */
  async function predict(
    model: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    onProgress: (report: ClipProgressReport) => void,
  ): Promise<unknown> {
    const [name, version] = model.split(':') as [string, string | undefined]
    const create = version
      ? { url: `${base}/v1/predictions`, body: { version, input } }
      : { url: `${base}/v1/models/${name}/predictions`, body: { input } }
    return runGeneration({
      words: REPLICATE_WORDS,
      signal,
      submit: (submitSignal) =>
        providerJson(
          REPLICATE_WORDS,
          create.url,
          {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify(create.body),
            signal: submitSignal,
          },
          replicateProtocol.prediction,
          retry,
        ),
      follow: (created) => follow(created, signal, onProgress),
      // The token goes only to the API: a cancel URL elsewhere is not sent at all.
      cancel: (created, cancelSignal) =>
        created.urls.cancel && sameOrigin(created.urls.cancel, base)
          ? guardedFetch(
              created.urls.cancel,
              { method: 'POST', headers: auth, signal: cancelSignal },
              policy,
            )
          : Promise.resolve(),
    })
  }

  /** Polls a prediction by its `urls.get` to its end and answers its output. */
  async function follow(
    created: Prediction,
    signal: AbortSignal,
    onProgress: (report: ClipProgressReport) => void,
  ): Promise<unknown> {
    let prediction = created
    for (;;) {
      switch (prediction.status) {
        case 'starting':
          onProgress({ state: 'queued' })
          break
        case 'processing':
          onProgress({ state: 'running', percent: percentFromLogs(prediction.logs) })
          break
        case 'succeeded':
          return prediction.output
        case 'failed':
          throw failure(prediction.error)
        case 'canceled':
        case 'aborted':
          throw new ProviderError(
            'refused',
            'Replicate cancelled this prediction. Please try again.',
          )
        default:
          throw malformedAnswer(REPLICATE_WORDS, prediction)
      }
      // It needs the token: on another origin than the API it is not followed.
      requireKeyOrigin(
        REPLICATE_WORDS,
        prediction.urls.get,
        base,
        'a prediction URL',
        'REPLICATE_BASE_URL',
      )
      await sleep(settings.pollIntervalMs ?? CLIP_POLL_INTERVAL_MS, signal)
      prediction = await providerJson(
        REPLICATE_WORDS,
        prediction.urls.get,
        { headers: auth, signal },
        replicateProtocol.prediction,
        { ...retry, what: 'a prediction URL' },
      )
    }
  }

  /** The token goes only to Replicate's API (`/v1/files/…`); its delivery URLs are public. */
  const headersFor = (url: string) =>
    sameOrigin(url, base) && new URL(url).pathname.startsWith('/v1/') ? auth : undefined

  /** Downloads an output into `path`, streaming, at most `maxBytes` (CLIP_MAX_BYTES). */
  function download(url: string, path: string, signal: AbortSignal, maxBytes?: number) {
    return downloadTo(REPLICATE_WORDS, url, { headers: headersFor(url), signal }, path, {
      ...retry,
      what: 'a result',
      limit: clipLimit(maxBytes),
    })
  }

  /** An image output's bytes, at most IMAGE_RESULT_MAX_BYTES. */
  function bytes(url: string, signal: AbortSignal): Promise<Uint8Array> {
    return downloadBytes(
      REPLICATE_WORDS,
      url,
      { headers: headersFor(url), signal },
      {
        ...retry,
        what: 'a result',
        limit: imageLimit(settings.imageMaxBytes),
      },
    )
  }

  return { imageRef, predict, download, bytes }
}

/** A failed prediction in words: a safety refusal, or Replicate's own reason. */
function failure(error: unknown): ProviderError {
  const text = typeof error === 'string' ? error : JSON.stringify(error ?? 'failed')
  if (isSafetyRefusal(text)) return safetyRefusal(error)
  return new ProviderError('refused', `Replicate could not make it: ${text.slice(0, 200)}`, {
    cause: error,
  })
}

/** The clip maker for Replicate's video models. */
export function createReplicateVideoProvider(
  settings: ReplicateSettings,
  models: readonly ModelDefinition[],
): VideoProvider {
  const client = replicateClient(settings)
  const byId = new Map(models.map((d) => [d.model.id, d]))
  return {
    id: 'replicate',
    name: 'Replicate',
    async generateClip(request: ClipRequest, { signal, onProgress }): Promise<GeneratedClip> {
      const definition = byId.get(request.model.id)
      if (!definition) throw unknownModel(request.model.id)
      const images = {
        startImage: request.startImage && (await client.imageRef(request.startImage, signal)),
        lastFrame: request.lastFrame && (await client.imageRef(request.lastFrame, signal)),
      }
      const input = clipInput(definition.input, request, images)
      onProgress({ state: 'queued' })
      const output = await client.predict(providerModelId(request.model), input, signal, onProgress)
      const url = firstUri(output)
      if (!url) throw malformedAnswer(REPLICATE_WORDS, output)
      return {
        saveTo: (path, saveSignal, maxBytes) => client.download(url, path, saveSignal, maxBytes),
      }
    },
  }
}

/** The image maker bound to one of Replicate's image models. */
export function createReplicateImageProvider(
  settings: ReplicateSettings,
  definition: ModelDefinition,
): ImageProvider {
  const client = replicateClient(settings)
  const { model } = definition
  return {
    info: { id: 'replicate', name: `Replicate ${model.name}`, offline: false },
    listModels: () =>
      Promise.resolve([{ id: model.id, name: model.name, modelVersions: [{ id: model.id }] }]),
    async generateImage(request, signal, onProgress) {
      const output = await client.predict(
        providerModelId(model),
        imageInput(definition.input, request),
        signal,
        (report) => {
          if (report.percent !== undefined) onProgress?.(report.percent)
        },
      )
      const url = firstUri(output)
      if (!url) throw malformedAnswer(REPLICATE_WORDS, output)
      const data = await client.bytes(url, signal)
      return exactSizeImage(REPLICATE_WORDS.label, data, request.width, request.height)
    },
  }
}

/** Replicate in the model catalog: on with `REPLICATE_API_TOKEN`. */
export function replicateCatalog(
  env: Pick<Env, 'REPLICATE_API_TOKEN' | 'REPLICATE_BASE_URL' | 'REPLICATE_CONCURRENCY'> &
    OutboundEnv,
): CatalogProvider {
  const settings: ReplicateSettings = {
    token: env.REPLICATE_API_TOKEN ?? '',
    baseUrl: env.REPLICATE_BASE_URL,
    outbound: outboundSettings(env),
    imageMaxBytes: env.IMAGE_RESULT_MAX_BYTES,
  }
  return {
    id: 'replicate',
    name: 'Replicate',
    enabled: env.REPLICATE_API_TOKEN !== undefined,
    disabledReason: 'REPLICATE_API_TOKEN is not set',
    defaults: [...REPLICATE_DEFAULT_MODELS],
    acceptsFileModels: true,
    concurrency: env.REPLICATE_CONCURRENCY,
    video: (models) => createReplicateVideoProvider(settings, models),
    image: (definition) => createReplicateImageProvider(settings, definition),
  }
}
