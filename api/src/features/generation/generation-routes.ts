import {
  catalogOutput,
  catalogQuery,
  generateImageInput,
  generateImageOutput,
  generateScenesInput,
  generateScenesOutput,
  generateScriptInput,
  generateScriptOutput,
  generateVideoInput,
  generateVideoOutput,
  jobAcceptedSchema,
  modelsOutput,
  modelsQuery,
  providersOutput,
} from '@reelgraph/shared'
import { type Context, Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { type DocumentedParameter, docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { resultOf, waitForJob } from '../jobs/job-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { submitClip } from './clip-service.ts'
import { catalogImageModels, LIVE_IMAGE_PROVIDERS } from './image-models.ts'
import { submitImage, submitScenes, submitScript } from './generation-service.ts'
import { ProviderError } from './providers/types.ts'

const TAG = 'Generation'
const IDEMPOTENCY_HEADER = 'idempotency-key'

/** The Idempotency-Key header as the OpenAPI document lists it on each generation call. */
const IDEMPOTENCY_PARAMETER: DocumentedParameter = {
  in: 'header',
  name: 'Idempotency-Key',
  description:
    'Any text of the caller’s: a call repeated with the same key answers the same job and is charged once.',
}

const JOB_CALL_DESCRIPTION =
  'Charged once and run as a durable job (issue 12). With projectId and nodeId the result is ' +
  'also written into the project beside that node, with the job state on the node. The call ' +
  'waits for the job up to JOB_WAIT_MS and answers its result; past that it answers 202 with ' +
  'the job to follow at GET /api/jobs/{id}. The same Idempotency-Key answers the same job ' +
  'and is never charged twice.'

/**
 * The answer of a generation call: waits for `job` up to JOB_WAIT_MS, then answers its
 * result (spec §7 shape), its failure (thrown), or 202 `{ jobId, status }` while it runs.
 * With JOB_WAIT_MS 0 it answers `job` as enqueued (`waitForJob`; a repeated
 * Idempotency-Key's finished job with its result).
 */
async function answerJob(c: Context<AppEnv>, job: JobRow) {
  const row = await waitForJob(c.var.deps, job, c.var.deps.env.JOB_WAIT_MS)
  if (row.status === 'queued' || row.status === 'running') {
    return c.json({ jobId: row.id, status: row.status }, 202)
  }
  return c.json(resultOf(row) as Record<string, unknown>, 200)
}

/** Image providers whose models are the server's own, listed live (not in the catalog). */
/**
 * `/api/ai/*`: providers, the model catalog, scripts and scenes (spec §7; issue 4 item 3;
 * issue 22 item 1).
 */
export const aiRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/providers',
    docs({
      summary: 'The active AI providers and what each action costs',
      tag: TAG,
      response: providersOutput,
    }),
    (c) => {
      requireAuth(c)
      const { ai, env } = c.var.deps
      return c.json({ text: ai.text.info, image: ai.image.info, costs: env.costs })
    },
  )
  .get(
    '/models',
    docs({
      summary: 'The model catalog: every configured provider’s image and video models',
      tag: TAG,
      response: catalogOutput,
      description:
        'Each model of every provider whose settings are there (fal, Replicate, Gemini, ComfyUI, ' +
        'OpenAI, Civitai) and the builtin offline ones, with what it can do and its price in ' +
        'credits (per image, or per second of video). `kind` keeps one kind (issue 22).',
    }),
    validate('query', catalogQuery),
    (c) => {
      requireAuth(c)
      const { kind } = c.req.valid('query')
      return c.json({ items: c.var.deps.catalog.list(kind) })
    },
  )
  .post(
    '/generate-script',
    docs({
      summary: 'Write a script from a topic (charged; a job, answered when done)',
      tag: TAG,
      response: generateScriptOutput,
      accepted: jobAcceptedSchema,
      description: JOB_CALL_DESCRIPTION,
      parameters: [IDEMPOTENCY_PARAMETER],
    }),
    validate('json', generateScriptInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const job = await submitScript(c.var.deps, {
        userId: user.id,
        input,
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      })
      return answerJob(c, job)
    },
  )
  .post(
    '/generate-scenes',
    docs({
      summary: 'Split a script into scenes (charged; a job, answered when done)',
      tag: TAG,
      response: generateScenesOutput,
      accepted: jobAcceptedSchema,
      description: JOB_CALL_DESCRIPTION,
      parameters: [IDEMPOTENCY_PARAMETER],
    }),
    validate('json', generateScenesInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const job = await submitScenes(c.var.deps, {
        userId: user.id,
        input,
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      })
      return answerJob(c, job)
    },
  )
  .post(
    '/generate-video',
    docs({
      summary: 'Generate a clip with a catalog video model (charged; owner or editor; a job)',
      tag: TAG,
      response: generateVideoOutput,
      accepted: jobAcceptedSchema,
      description:
        `${JOB_CALL_DESCRIPTION} The clip is charged the model's price for its length (the ` +
        'nearest the model makes). `imageUrl` and `lastFrameUrl` must be images of the project ' +
        '(`/api/assets/:id`) the caller may read: anything else is a 400 (a stranger’s asset ' +
        '404), and the server never fetches another address. The clip is copied into the ' +
        "project's assets, checked with ffmpeg and given a poster frame; with nodeId it is " +
        'placed as a Clip node (or as its newest take).',
      parameters: [IDEMPOTENCY_PARAMETER],
    }),
    validate('json', generateVideoInput),
    async (c) => {
      const { user } = requireAuth(c)
      const job = await submitClip(c.var.deps, {
        userId: user.id,
        input: c.req.valid('json'),
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      })
      return answerJob(c, job)
    },
  )

/**
 * `/api/csas/*`: image models and image generation (spec §7; issue 4 item 3).
 */
export const imageRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/models',
    docs({
      summary: 'Image models with their versions',
      tag: TAG,
      response: modelsOutput,
      description:
        'The image models of the model catalog (GET /api/ai/models?kind=image), each with its ' +
        'catalog id as its one version; with Civitai or AUTOMATIC1111 as the image provider, ' +
        'its own models (listed live) come first.',
    }),
    validate('query', modelsQuery),
    async (c) => {
      requireAuth(c)
      const { limit } = c.req.valid('query')
      const { ai, env, catalog } = c.var.deps
      // The active provider's models first: the image generator picks the first.
      const items = catalogImageModels({ ai, catalog })
      if (!LIVE_IMAGE_PROVIDERS.has(ai.image.info.id)) {
        return c.json({ items: items.slice(0, limit) })
      }
      try {
        const live = await ai.image.listModels(limit, AbortSignal.timeout(env.AI_TEXT_TIMEOUT_MS))
        return c.json({ items: [...live, ...items].slice(0, limit) })
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err
        c.var.logger.warn({ err }, 'listing image models failed')
        throw new AppError(
          err.kind === 'timeout' ? 'PROVIDER_TIMEOUT' : 'PROVIDER_ERROR',
          `The image models could not be loaded: ${err.message}`,
          { cause: err },
        )
      }
    },
  )
  .post(
    '/generate-image',
    docs({
      summary: 'Generate an image into a project (charged; owner or editor; a job)',
      tag: TAG,
      response: generateImageOutput,
      accepted: jobAcceptedSchema,
      description: JOB_CALL_DESCRIPTION,
      parameters: [IDEMPOTENCY_PARAMETER],
    }),
    validate('json', generateImageInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const job = await submitImage(c.var.deps, {
        userId: user.id,
        input,
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      })
      return answerJob(c, job)
    },
  )
