import type { GenerateImageRequest, ImageModel } from '@reelgraph/shared'
import {
  checkpointAir,
  civitaiJobStatusCollection,
  civitaiModelVersionResponse,
  civitaiModelsResponse,
  civitaiOrchestrationUrl,
  type CivitaiTextToImageJob,
  jobBaseModel,
  readyBlobUrl,
} from './civitai-protocol.ts'
import { outboundPolicy, type OutboundSettings } from '../../../lib/outbound/guarded-fetch.ts'
import { toProviderError } from './errors.ts'
import { delay, fetchBytes, fetchJson, imageLimitOf, withTimeout } from './http.ts'
import { exactSizeImage } from './image-bytes.ts'
import { type GeneratedImage, type ImageProvider, ProviderError } from './types.ts'

/** Who we name in messages a person reads. */
const LABEL = 'Civitai'
/** How often a submitted job is polled: often enough to feel quick, rare enough to be polite. */
export const CIVITAI_POLL_INTERVAL_MS = 1_500
/** The scheduler Civitai's own SDK examples use. */
const SCHEDULER = 'EulerA'
/** The CLIP skip Civitai's own SDK examples use. */
const CLIP_SKIP = 2

export interface CivitaiSettings {
  token: string
  /** The site, e.g. `https://civitai.com` (its REST API is under `/api/v1`). */
  baseUrl: string
  /** The orchestrator; default: derived from `baseUrl` (see civitaiOrchestrationUrl). */
  orchestrationUrl?: string | undefined
  /** Limit of one generation including polling, in ms. */
  timeoutMs: number
  pollIntervalMs?: number | undefined
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings | undefined
  /** `IMAGE_RESULT_MAX_BYTES`; default DEFAULT_IMAGE_RESULT_MAX_BYTES. */
  imageMaxBytes?: number | undefined
}

/** The image provider on Civitai: REST model list, asynchronous orchestration jobs. */
export function createCivitaiImageProvider(settings: CivitaiSettings): ImageProvider {
  const site = settings.baseUrl.replace(/\/+$/, '')
  const orchestrator = (settings.orchestrationUrl ?? civitaiOrchestrationUrl(site)).replace(
    /\/+$/,
    '',
  )
  const pollIntervalMs = settings.pollIntervalMs ?? CIVITAI_POLL_INTERVAL_MS
  const headers = { authorization: `Bearer ${settings.token}` }
  // The site and the orchestrator are trusted as configured; a blob URL is judged (issue 40).
  const policy = outboundPolicy([site, orchestrator], settings.outbound)
  const call = { policy }
  // Version id -> AIR, learnt from the model list so generation needs no extra lookup.
  const airs = new Map<string, string>()

  async function airFor(modelVersionId: string, signal: AbortSignal): Promise<string> {
    if (modelVersionId.startsWith('urn:air:')) return modelVersionId
    const known = airs.get(modelVersionId)
    if (known) return known
    const version = await fetchJson(
      LABEL,
      `${site}/api/v1/model-versions/${encodeURIComponent(modelVersionId)}`,
      { headers, signal },
      civitaiModelVersionResponse,
      call,
    )
    const air = checkpointAir(version.modelId, version.id, version.baseModel)
    airs.set(modelVersionId, air)
    return air
  }

  return {
    info: { id: 'civitai', name: 'Civitai', offline: false },

    async listModels(limit: number, signal: AbortSignal): Promise<ImageModel[]> {
      // Safe-for-work models only: the list is shown to every user of the app.
      const query = new URLSearchParams({
        limit: String(limit),
        types: 'Checkpoint',
        nsfw: 'false',
      })
      const answer = await fetchJson(
        LABEL,
        `${site}/api/v1/models?${query}`,
        { headers, signal },
        civitaiModelsResponse,
        call,
      )
      const models: ImageModel[] = []
      for (const item of answer.items) {
        if (item.modelVersions.length === 0) continue
        for (const v of item.modelVersions) {
          airs.set(String(v.id), checkpointAir(item.id, v.id, v.baseModel))
        }
        models.push({
          id: item.id,
          name: item.name,
          modelVersions: item.modelVersions.map((v) => ({
            id: v.id,
            ...(v.name ? { name: v.name } : {}),
          })),
        })
      }
      return models.slice(0, limit)
    },

    async generateImage(
      request: GenerateImageRequest & { seed: number },
      callerSignal: AbortSignal,
    ): Promise<GeneratedImage> {
      const signal = withTimeout(callerSignal, settings.timeoutMs)
      const model = await airFor(request.modelVersionId, signal)
      const job: CivitaiTextToImageJob = {
        $type: 'textToImage',
        baseModel: jobBaseModel(model),
        model,
        params: {
          prompt: request.prompt,
          negativePrompt: request.negativePrompt,
          scheduler: SCHEDULER,
          steps: request.numInferenceSteps,
          cfgScale: request.guidanceScale,
          width: request.width,
          height: request.height,
          seed: request.seed,
          clipSkip: CLIP_SKIP,
        },
        quantity: 1,
      }
      let status = await fetchJson(
        LABEL,
        `${orchestrator}/v1/consumer/jobs?wait=false`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(job),
          signal,
        },
        civitaiJobStatusCollection,
        call,
      )
      const token = status.token
      for (;;) {
        const first = status.jobs[0]
        if (!first) {
          throw new ProviderError(
            'upstream',
            'Civitai did not accept the image job. Please try again.',
          )
        }
        const blobUrl = readyBlobUrl(first)
        if (blobUrl) {
          // The blob URL is pre-signed storage: no token goes with it.
          const { bytes } = await fetchBytes(
            LABEL,
            new URL(blobUrl, orchestrator).href,
            { signal },
            { policy, what: 'a result', limit: imageLimitOf(settings.imageMaxBytes) },
          )
          return exactSizeImage(LABEL, bytes, request.width, request.height)
        }
        if (first.scheduled === false) {
          throw new ProviderError(
            'upstream',
            'Civitai could not run this image job (it is no longer scheduled). Please try again or pick another model.',
            { cause: first },
          )
        }
        try {
          await delay(pollIntervalMs, signal)
        } catch (error) {
          throw toProviderError(error, LABEL, signal)
        }
        status = await fetchJson(
          LABEL,
          `${orchestrator}/v1/consumer/jobs?${new URLSearchParams({ token })}`,
          { headers, signal },
          civitaiJobStatusCollection,
          call,
        )
      }
    },
  }
}
