import { jobIdSchema, jobSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { cancelJob, jobNotFound, requireJob } from './job-service.ts'
import { toJobJson } from './job-store.ts'

const TAG = 'Jobs'

/**
 * `/api/jobs/:id`: `:id` through shared's `jobIdSchema` (issue 14: thin handlers); an id that
 * is not a job id is a job that does not exist, 404 NOT_FOUND. The anonymous get 401 first.
 */
const validateJobParams = () =>
  validate('param', z.object({ id: jobIdSchema }), { onInvalid: () => jobNotFound() })

/**
 * `/api/jobs/*` (issue 12): a generation job's state and result, and its cancellation, for
 * the members of its project (or its creator when it has none); anyone else gets 404.
 */
export const jobRoutes = new Hono<AppEnv>()
  .get(
    '/:id',
    docs({
      summary: 'A generation job: its state, progress and result',
      tag: TAG,
      response: jobSchema,
    }),
    requireSignedIn,
    validateJobParams(),
    async (c) => {
      const { user } = requireAuth(c)
      const jobId = c.req.valid('param').id
      return c.json(toJobJson(await requireJob(c.var.db, { userId: user.id, jobId })))
    },
  )
  .post(
    '/:id/cancel',
    docs({
      summary: 'Cancel a queued or running job (refunded unless the provider was paid)',
      tag: TAG,
      response: jobSchema,
    }),
    requireSignedIn,
    validateJobParams(),
    async (c) => {
      const { user } = requireAuth(c)
      const jobId = c.req.valid('param').id
      return c.json(toJobJson(await cancelJob(c.var.deps, { userId: user.id, jobId })))
    },
  )
