import { TOKEN_MESSAGES } from '@reelgraph/shared'
import type { Context, Next } from 'hono'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import type { AppEnv } from '../app-env.ts'
import { withProjectLimit } from '../features/access/project-limit.ts'
import { ROUTE_SCOPES, routeKey } from '../features/tokens/route-scopes.ts'
import {
  authenticateBearer,
  bearerTokenOf,
  requireTokenScope,
} from '../features/tokens/token-service.ts'
import { AppError } from '../lib/app-error.ts'
import { originCheck } from './origin-check.ts'
import { loadSession } from './session.ts'

/**
 * The route a request reaches (`GET /api/projects/:id`): the first matched route that is
 * neither middleware (`ALL`) nor a catch-all (`*`). Undefined for a path no route serves.
 */
function endpointOf(c: Context<AppEnv>): string | undefined {
  const route = matchedRoutes(c).find((r) => r.method !== 'ALL' && !r.path.includes('*'))
  return route && routeKey(route.method, route.path)
}

/**
 * A bearer request (issue 41 item 1): the token is authenticated (401 in words when unknown,
 * revoked or expired), the route must take tokens (`ROUTE_SCOPES`; else 403
 * SESSION_REQUIRED) and the token must hold its scope (else 403 INSUFFICIENT_SCOPE naming
 * it). Any cookie is ignored, and the Origin rule, which guards cookie sessions against
 * cross-site requests, does not apply: a browser never adds this header by itself. The rest
 * of the request runs as the token's owner, limited to the token's projects.
 */
async function bearerRequest(c: Context<AppEnv>, token: string, next: Next): Promise<void> {
  const actor = await authenticateBearer(c.var.db, { token })
  const endpoint = endpointOf(c)
  // A path no route serves is answered 404 by the API's catch-all.
  if (endpoint !== undefined) {
    const scope = ROUTE_SCOPES[endpoint]
    if (scope === undefined) throw new AppError('SESSION_REQUIRED', TOKEN_MESSAGES.sessionOnly)
    if (scope !== null) requireTokenScope(actor, scope)
  }
  c.set('token', actor)
  await withProjectLimit(actor.projectIds, next)
}

/**
 * Who the request is (issue 41 item 1): with `Authorization: Bearer …`, an API token
 * ({@link bearerRequest}); otherwise the Origin check and the session cookie, as before.
 * Runs after the body checks and before every route of `/api` but Stripe's webhook.
 */
export const authenticateRequest = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerTokenOf(c.req.header('authorization'))
  if (token !== undefined) return bearerRequest(c, token, next)
  return originCheck(c, async () => {
    await loadSession(c, next)
  })
})
