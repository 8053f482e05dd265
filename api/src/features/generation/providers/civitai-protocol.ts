import { z } from 'zod'

/**
 * The Civitai HTTP shapes we use, in one place so the provider and the test server agree.
 *
 * - Public REST API (`https://civitai.com`): `GET /api/v1/models?limit=&types=Checkpoint&nsfw=false`
 *   (`items[].modelVersions[]`) and `GET /api/v1/model-versions/:id`.
 * - Orchestration API (`https://orchestration.civitai.com`), as used by Civitai's JavaScript
 *   SDK (`civitai` on npm, `JobsService`): `POST /v1/consumer/jobs?wait=false` submits a
 *   `textToImage` job for a model AIR and answers a token; `GET /v1/consumer/jobs?token=`
 *   reports each job, whose `result` carries `blobUrl` once `available`.
 * Both take `Authorization: Bearer <token>`.
 * @see https://developer.civitai.com/docs/api/public-rest
 * @see https://developer.civitai.com/docs/getting-started/javascript-sdk
 */

const id = z.union([z.number(), z.string().min(1)])

/** `GET /api/v1/models` answer (fields we read; Civitai sends many more). */
export const civitaiModelsResponse = z
  .object({
    items: z.array(
      z
        .object({
          id,
          name: z.string(),
          type: z.string().optional(),
          modelVersions: z
            .array(
              z
                .object({ id, name: z.string().optional(), baseModel: z.string().nullish() })
                .loose(),
            )
            .default([]),
        })
        .loose(),
    ),
  })
  .loose()
export type CivitaiModelsResponse = z.infer<typeof civitaiModelsResponse>

/** `GET /api/v1/model-versions/:id` answer (fields we read). */
export const civitaiModelVersionResponse = z
  .object({ id, modelId: id, name: z.string().optional(), baseModel: z.string().nullish() })
  .loose()

/** The base model names the orchestrator takes with a `textToImage` job. */
export const CIVITAI_JOB_BASE_MODELS = ['SD_1_5', 'SDXL', 'Flux1'] as const

/** `POST /v1/consumer/jobs` body for one text-to-image job. */
export const civitaiTextToImageJob = z.object({
  $type: z.literal('textToImage'),
  baseModel: z.enum(CIVITAI_JOB_BASE_MODELS),
  /** The checkpoint's AIR, e.g. `urn:air:sd1:checkpoint:civitai:4201@130072`. */
  model: z.string().startsWith('urn:air:'),
  params: z.object({
    prompt: z.string(),
    negativePrompt: z.string(),
    scheduler: z.string(),
    steps: z.number().int(),
    cfgScale: z.number(),
    width: z.number().int(),
    height: z.number().int(),
    seed: z.number().int(),
    clipSkip: z.number().int(),
  }),
  quantity: z.literal(1),
})
export type CivitaiTextToImageJob = z.infer<typeof civitaiTextToImageJob>

/** A job's result: the image blob, with a URL once it is available. */
const blobResult = z
  .object({
    blobKey: z.string().nullish(),
    available: z.boolean().nullish(),
    blobUrl: z.string().nullish(),
  })
  .loose()

/** One job in a `JobStatusCollection`. */
const jobStatus = z
  .object({
    jobId: z.string().nullish(),
    cost: z.number().nullish(),
    // The SDK reads `result.blobUrl`; its README shows `result[0].blobUrl`: accept both.
    result: z.union([blobResult, z.array(blobResult)]).nullish(),
    scheduled: z.boolean().nullish(),
  })
  .loose()

/** `POST /v1/consumer/jobs` and `GET /v1/consumer/jobs?token=` answer. */
export const civitaiJobStatusCollection = z
  .object({ token: z.string().min(1), jobs: z.array(jobStatus) })
  .loose()
export type CivitaiJobStatusCollection = z.infer<typeof civitaiJobStatusCollection>

/** The orchestrator that goes with a Civitai site URL (tests serve both on one origin). */
export function civitaiOrchestrationUrl(siteUrl: string): string {
  const url = new URL(siteUrl)
  if (url.hostname === 'civitai.com' || url.hostname === 'www.civitai.com') {
    return 'https://orchestration.civitai.com'
  }
  return url.origin + url.pathname.replace(/\/+$/, '')
}

/** The AIR ecosystem of a Civitai base model name ("SD 1.5", "SDXL 1.0", "Flux.1 D", ...). */
export function airEcosystem(
  baseModel: string | null | undefined,
): 'sd1' | 'sd2' | 'sdxl' | 'flux1' {
  const name = (baseModel ?? '').toLowerCase()
  if (name.startsWith('flux')) return 'flux1'
  if (name.startsWith('sdxl') || name.startsWith('pony') || name.startsWith('illustrious'))
    return 'sdxl'
  if (name.startsWith('sd 2')) return 'sd2'
  return 'sd1'
}

/** The orchestrator's base model for an AIR (`urn:air:<ecosystem>:...`). */
export function jobBaseModel(air: string): (typeof CIVITAI_JOB_BASE_MODELS)[number] {
  const ecosystem = air.split(':')[2]
  return ecosystem === 'sdxl' ? 'SDXL' : ecosystem === 'flux1' ? 'Flux1' : 'SD_1_5'
}

/** A checkpoint's AIR: `urn:air:<ecosystem>:checkpoint:civitai:<modelId>@<versionId>`. */
export function checkpointAir(
  modelId: string | number,
  versionId: string | number,
  baseModel?: string | null,
): string {
  return `urn:air:${airEcosystem(baseModel)}:checkpoint:civitai:${modelId}@${versionId}`
}

/** The first result of a job that has its image ready, if any. */
export function readyBlobUrl(job: CivitaiJobStatusCollection['jobs'][number]): string | undefined {
  const results = Array.isArray(job.result) ? job.result : job.result ? [job.result] : []
  const ready = results.find((r) => r.blobUrl && r.available !== false)
  return ready?.blobUrl ?? undefined
}
