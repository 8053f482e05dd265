import type { GenerateImageRequest, ImageModel } from '@reelgraph/shared'
import { z } from 'zod'
import { malformed } from './errors.ts'
import { fetchJson, withTimeout } from './http.ts'
import { decodeBase64, exactSizeImage } from './image-bytes.ts'
import type { GeneratedImage, ImageProvider } from './types.ts'

/** Who we name in messages a person reads. */
const LABEL = 'The Stable Diffusion server'

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
}

export interface Automatic1111Settings {
  /** e.g. `http://127.0.0.1:7860`. */
  url: string
  /** Limit of one call, in ms (the caller's signal may end it sooner). */
  timeoutMs: number
}

/** The image provider on a self-hosted AUTOMATIC1111 web UI. */
export function createAutomatic1111ImageProvider(settings: Automatic1111Settings): ImageProvider {
  const base = settings.url.replace(/\/+$/, '')
  return {
    info: { id: 'automatic1111', name: 'Stable Diffusion (AUTOMATIC1111)', offline: false },

    async listModels(limit: number, callerSignal: AbortSignal): Promise<ImageModel[]> {
      const signal = withTimeout(callerSignal, settings.timeoutMs)
      const models = await fetchJson(
        LABEL,
        `${base}/sdapi/v1/sd-models`,
        { signal },
        a1111Protocol.sdModels,
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
    ): Promise<GeneratedImage> {
      const signal = withTimeout(callerSignal, settings.timeoutMs)
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
      )
      const first = answer.images[0]
      if (!first) throw malformed(LABEL)
      const bytes = decodeBase64(LABEL, first)
      return exactSizeImage(LABEL, bytes, request.width, request.height)
    },
  }
}
