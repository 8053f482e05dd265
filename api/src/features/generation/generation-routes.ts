import {
  generateImageInput,
  generateImageOutput,
  generateScenesInput,
  generateScenesOutput,
  generateScriptInput,
  generateScriptOutput,
  IMAGE_SEED_MAX,
  jobAcceptedSchema,
  modelsOutput,
  modelsQuery,
  providersOutput,
} from '@reelgraph/shared'
import { type Context, Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth } from '../../middleware/session.ts'
import { resultOf, submitGeneration, waitForJob } from '../jobs/job-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { randomSeed } from './generation-service.ts'
import { ProviderError } from './providers/types.ts'

const TAG = 'Generation'
const IDEMPOTENCY_HEADER = 'idempotency-key'

const JOB_CALL_DESCRIPTION =
  'Charged once and run as a durable job (issue 12). With projectId and nodeId the result is ' +
  'also written into the project beside that node, with the job state on the node. The call ' +
  'waits for the job up to JOB_WAIT_MS and answers its result; past that it answers 202 with ' +
  'the job to follow at GET /api/jobs/{id}. The same Idempotency-Key answers the same job ' +
  'and is never charged twice.'

/**
 * The answer of a generation call: waits for `job` up to JOB_WAIT_MS, then answers its
 * result (spec §7 shape), its failure (thrown), or 202 `{ jobId, status }` while it runs.
 */
async function answerJob(c: Context<AppEnv>, job: JobRow) {
  const row = await waitForJob(c.var.deps, job.id, c.var.deps.env.JOB_WAIT_MS)
  if (row.status === 'queued' || row.status === 'running') {
    return c.json({ jobId: row.id, status: row.status }, 202)
  }
  return c.json(resultOf(row) as Record<string, unknown>, 200)
}

/**
 * `/api/ai/*`: providers, scripts and scenes (spec §7; issue 4 item 3).
 */
export const aiRoutes = new Hono<AppEnv>()
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
  .post(
    '/generate-script',
    docs({
      summary: 'Write a script from a topic (charged; a job, answered when done)',
      tag: TAG,
      response: generateScriptOutput,
      accepted: jobAcceptedSchema,
      description: JOB_CALL_DESCRIPTION,
    }),
    validate('json', generateScriptInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      // A seed per call: each regeneration drafts anew, a retried job repeats (issue 14 item 10).
      const job = await submitGeneration(c.var.deps, {
        userId: user.id,
        kind: 'script',
        input: { ...input, seed: input.seed ?? randomSeed(IMAGE_SEED_MAX) },
        projectId: input.projectId,
        nodeId: input.nodeId,
        description: `Script: ${input.topic.slice(0, 80)}`,
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
    }),
    validate('json', generateScenesInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      const job = await submitGeneration(c.var.deps, {
        userId: user.id,
        kind: 'scenes',
        input: { ...input, seed: input.seed ?? randomSeed(IMAGE_SEED_MAX) },
        projectId: input.projectId,
        nodeId: input.nodeId,
        description: `${input.sceneCount} scenes`,
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      })
      return answerJob(c, job)
    },
  )

/**
 * `/api/csas/*`: image models and image generation (spec §7; issue 4 item 3).
 */
export const imageRoutes = new Hono<AppEnv>()
  .get(
    '/models',
    docs({ summary: 'Image models with their versions', tag: TAG, response: modelsOutput }),
    validate('query', modelsQuery),
    async (c) => {
      requireAuth(c)
      const { limit } = c.req.valid('query')
      const { ai, env } = c.var.deps
      try {
        const items = await ai.image.listModels(limit, AbortSignal.timeout(env.AI_TEXT_TIMEOUT_MS))
        return c.json({ items: items.slice(0, limit) })
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
    }),
    validate('json', generateImageInput),
    async (c) => {
      const { user } = requireAuth(c)
      const input = c.req.valid('json')
      // The seed is chosen once, so a retried attempt draws the same image.
      const seed = input.seed ?? randomSeed(IMAGE_SEED_MAX)
      const job = await submitGeneration(c.var.deps, {
        userId: user.id,
        kind: 'image',
        input: { ...input, seed },
        projectId: input.projectId,
        nodeId: input.nodeId,
        description: `Image ${input.width}x${input.height}`,
        idempotencyKey: c.req.header(IDEMPOTENCY_HEADER),
      })
      return answerJob(c, job)
    },
  )
