import { projectRunOutput, runProjectInput, runQuoteQuery } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { validateProjectParams } from '../access/project-access.ts'
import { quoteProjectRun, runProject } from './run-service.ts'

const TAG = 'Runs'

/**
 * Runs of a project's generators (issue 42 item 4), mounted at `/api/projects/:id`: run the
 * stale (or all) nodes in dependency order as jobs that wait for their inputs, or quote it.
 */
export const runRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/run-quote',
    docs({
      summary: 'What running the project’s stale (or all) generators would run and cost now',
      description:
        'The nodes in dependency order with the credits each is charged (as its own Generate or Render button charges: image cost, the clip model’s credits, COST_VIDEO + COST_VOICE per narration not yet spoken), `waitsFor` the nodes of the run whose results it reads, the total, and the nodes left out with why. Nothing is started. Members only (a stranger gets 404). Empty and 0 when nothing is stale.',
      tag: TAG,
      response: projectRunOutput,
    }),
    validateProjectParams(),
    validate('query', runQuoteQuery),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(
        await quoteProjectRun(c.var.deps, {
          userId: user.id,
          projectId: c.req.valid('param').id,
          scope: c.req.valid('query').scope,
        }),
      )
    },
  )
  .post(
    '/run',
    docs({
      summary: 'Run the project’s stale (or all) generators in dependency order (charged; jobs)',
      description:
        '`scope` `stale` runs the generators whose result was not made from their inputs as they are now (and every generator that reads one of their results); `all` every generator. `nodeIds` limits the run to those nodes and what depends on them. Each node is a job (follow it with GET /api/jobs/:id); a job whose input nodes are in the run waits for their jobs, starts with its input read from the document once they succeeded, and is cancelled and refunded (“Not run: its input … failed”) when one fails. Charged the quote’s total at once; 402 in words (nothing charged) when the balance is short. `dryRun` answers the quote only. Editors only: a viewer gets 403, a stranger 404.',
      tag: TAG,
      response: projectRunOutput,
    }),
    validateProjectParams(),
    validate('json', runProjectInput),
    async (c) => {
      const { user } = requireAuth(c)
      const { scope, nodeIds, dryRun } = c.req.valid('json')
      const request = { userId: user.id, projectId: c.req.valid('param').id, scope, nodeIds }
      return c.json(
        dryRun ? await quoteProjectRun(c.var.deps, request) : await runProject(c.var.deps, request),
      )
    },
  )
