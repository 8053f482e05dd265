import type { GenerateImageRequest, ImageModel } from '@reelgraph/shared'
import { z } from 'zod'
import {
  outboundPolicy,
  type OutboundPolicy,
  type OutboundSettings,
} from '../../../lib/outbound/guarded-fetch.ts'
import { malformed } from './errors.ts'
import { fetchJson, withTimeout } from './http.ts'
import { decodeBase64, exactSizeImage } from './image-bytes.ts'
import type { GeneratedImage, ImageProvider, ProgressListener } from './types.ts'

/** Who we name in messages a person reads. */
const LABEL = 'The Stable Diffusion server'
/** How often the web UI is asked how far the image is, in ms (its own UI asks every second). */
export const A1111_PROGRESS_POLL_MS = 1_000

/**
 * AUTOMATIC1111's Stable Diffusion web UI API (`--api`): the HTTP shapes we use.
 * @see https://github.com/AUTOMATIC1111/stable-diffusion-webui/wiki/API
 */
export const a1111Protocol = {
  /** `GET /sdapi/v1/sd-models`: the installed checkpoints. */
  sdModels: z.array(
    z.object({ title: z.string().min(1), model_name: z.string().optional() }).loose(),
  ),
  /** `POST /sdapi/v1/txt2img` body (the fields we send). */
  txt2imgRequest: z.object({
    prompt: z.string(),
    negative_prompt: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    steps: z.number().int(),
    cfg_scale: z.number(),
    seed: z.number().int(),
    batch_size: z.literal(1),
    n_iter: z.literal(1),
    override_settings: z.object({ sd_model_checkpoint: z.string() }),
  }),
  /** `POST /sdapi/v1/txt2img` answer: base64 PNGs. */
  txt2imgResponse: z.object({ images: z.array(z.string()).min(1) }).loose(),
  /** `GET /sdapi/v1/progress?skip_current_image=true`: how far the current job is, 0-1. */
  progress: z.object({ progress: z.number().min(0).max(1) }).loose(),
}

/**
 * Polls the web UI's progress every A1111_PROGRESS_POLL_MS until `signal` aborts, telling
 * `onProgress` each new whole percent; a failed poll is skipped (the image call decides).
 */
function watchProgress(
  base: string,
  policy: OutboundPolicy,
  onProgress: ProgressListener,
  signal: AbortSignal,
): void {
  let last = -1
  const timer = setInterval(() => {
    fetchJson(
      LABEL,
      `${base}/sdapi/v1/progress?skip_current_image=true`,
      { signal },
      a1111Protocol.progress,
      { policy },
    )
      .then(({ progress }) => {
        const percent = Math.round(progress * 100)
        if (percent !== last && !signal.aborted) {
          last = percent
          onProgress(percent)
        }
      })
      .catch(() => {})
  }, A1111_PROGRESS_POLL_MS)
  signal.addEventListener('abort', () => clearInterval(timer), { once: true })
}

export interface Automatic1111Settings {
  /** e.g. `http://127.0.0.1:7860`. */
  url: string
  /** Limit of one call, in ms (the caller's signal may end it sooner). */
  timeoutMs: number
  /** The operator's allow list and time limit (`OUTBOUND_*`); default none and 5 min. */
  outbound?: OutboundSettings | undefined
}

/** The image provider on a self-hosted AUTOMATIC1111 web UI. */
export function createAutomatic1111ImageProvider(settings: Automatic1111Settings): ImageProvider {
  const base = settings.url.replace(/\/+$/, '')
  // The web UI's own origin, trusted as configured (issue 40 item 1).
  const policy = outboundPolicy([base], settings.outbound)
  return {
    info: { id: 'automatic1111', name: 'Stable Diffusion (AUTOMATIC1111)', offline: false },

    async listModels(limit: number, callerSignal: AbortSignal): Promise<ImageModel[]> {
      const signal = withTimeout(callerSignal, settings.timeoutMs)
      const models = await fetchJson(
        LABEL,
        `${base}/sdapi/v1/sd-models`,
        { signal },
        a1111Protocol.sdModels,
        { policy },
      )
      return models.slice(0, limit).map((m) => ({
        id: m.title,
        name: m.model_name ?? m.title,
        modelVersions: [{ id: m.title, name: m.title }],
      }))
    },

    async generateImage(
      request: GenerateImageRequest & { seed: number },
      callerSignal: AbortSignal,
      onProgress?: ProgressListener,
    ): Promise<GeneratedImage> {
      const signal = withTimeout(callerSignal, settings.timeoutMs)
      const done = new AbortController()
      if (onProgress) {
        watchProgress(base, policy, onProgress, AbortSignal.any([signal, done.signal]))
      }
      const body: z.input<typeof a1111Protocol.txt2imgRequest> = {
        prompt: request.prompt,
        negative_prompt: request.negativePrompt,
        width: request.width,
        height: request.height,
        steps: request.numInferenceSteps,
        cfg_scale: request.guidanceScale,
        seed: request.seed,
        batch_size: 1,
        n_iter: 1,
        override_settings: { sd_model_checkpoint: request.modelVersionId },
      }
      const answer = await fetchJson(
        LABEL,
        `${base}/sdapi/v1/txt2img`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal,
        },
        a1111Protocol.txt2imgResponse,
        { policy },
      ).finally(() => done.abort())
      const first = answer.images[0]
      if (!first) throw malformed(LABEL)
      const bytes = decodeBase64(LABEL, first)
      return exactSizeImage(LABEL, bytes, request.width, request.height)
    },
  }
}
