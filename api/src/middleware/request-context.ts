import { createMiddleware } from 'hono/factory'
import type { AppDeps, AppEnv } from '../app-env.ts'

/** Paths whose last segment is a secret (invitation links), logged without it. */
const SECRET_PATH = /^(\/api\/invitations\/)(?!accept$)[^/]+$/

/** The path as logged: an invitation's secret replaced by `:token` (issue 6 item 1). */
export function loggedPath(path: string): string {
  return path.replace(SECRET_PATH, '$1:token')
}

/**
 * Puts the dependencies and a request-scoped logger on the context, and logs each request
 * once it is answered: method, path (never the query string, which may carry tokens, nor
 * the secret of `GET /api/invitations/:token`), status and duration in ms.
 */
export function requestContext(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now()
    const logger = deps.logger.child({ reqId: c.var.requestId })
    c.set('deps', deps)
    c.set('db', deps.db)
    c.set('logger', logger)
    c.set('auth', null)
    await next()
    logger.info(
      {
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    )
  })
}
