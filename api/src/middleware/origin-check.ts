import { isAllowedOrigin } from '@reelgraph/shared'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { AppError } from '../lib/app-error.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * CSRF defence for state-changing requests (Lucia guide, OWASP): the Origin header must be
 * the app's own origin under the one rule of REST and sync (`isAllowedOrigin`: APP_URL,
 * ALLOWED_ORIGINS, or the Host the request was sent to; issue 11 item 3).
 * Requests without Origin (or with `Origin: null`) pass only when the browser vouches
 * `Sec-Fetch-Site: same-origin`.
 */
export const originCheck = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next()
  const origin = c.req.header('origin')
  const host = c.req.header('host')
  const allowed = c.var.deps.env.allowedOrigins
  let ok: boolean
  // Browsers send "Origin: null" for form posts under Referrer-Policy: no-referrer (and from
  // opaque contexts); then only Sec-Fetch-Site can vouch for the request.
  if (origin && origin !== 'null') {
    ok = isAllowedOrigin(origin, host, allowed)
  } else {
    ok = c.req.header('sec-fetch-site') === 'same-origin'
  }
  if (!ok) {
    throw new AppError(
      'FORBIDDEN_ORIGIN',
      'This request did not come from the Reelgraph app and was refused. Reload the page and try again.',
    )
  }
  return next()
})
