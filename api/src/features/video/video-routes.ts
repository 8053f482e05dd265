import { jobAcceptedSchema, renderVideoInput } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth } from '../../middleware/session.ts'
import { submitVideoRender } from './video-service.ts'

const TAG = 'Video'

/**
 * `/api/video/*` (issue 13 item 4): `POST /render` starts the render of a Video node as a
 * job and answers 202 `{ jobId, status }` at once (follow it with `GET /api/jobs/:id`, or on
 * the node; cancel with `POST /api/jobs/:id/cancel`).
 */
export const videoRoutes = new Hono<AppEnv>().post(
  '/render',
  docs({
    summary: 'Render a Video node’s scenes into an MP4 (charged; a job)',
    description:
      'Charged COST_VIDEO + COST_VOICE per scene. 400 lists the scenes without an image in `fields` (scene node id -> message).',
    tag: TAG,
    accepted: jobAcceptedSchema,
  }),
  validate('json', renderVideoInput),
  async (c) => {
    const { user } = requireAuth(c)
    const job = await submitVideoRender(c.var.deps, user.id, c.req.valid('json'))
    return c.json({ jobId: job.id, status: job.status }, 202)
  },
)
