import { jobSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { requireAuth } from '../../middleware/session.ts'
import { cancelJob, requireJob } from './job-service.ts'
import { toJobJson } from './job-store.ts'

const TAG = 'Jobs'

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
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(toJobJson(await requireJob(c.var.db, user.id, c.req.param('id'))))
    },
  )
  .post(
    '/:id/cancel',
    docs({
      summary: 'Cancel a queued or running job (refunded unless the provider was paid)',
      tag: TAG,
      response: jobSchema,
    }),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(toJobJson(await cancelJob(c.var.deps, user.id, c.req.param('id'))))
    },
  )
