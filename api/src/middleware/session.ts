import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { readSessionCookie, writeSessionCookie } from '../features/auth/session-cookie.ts'
import { type UserRow, validateSessionToken } from '@reelgraph/db'
import { AppError } from '../lib/app-error.ts'

/** Whether cookies carry `Secure` and the `__Host-` prefix: in production. */
export function secureCookies(c: Context<AppEnv>): boolean {
  return c.var.deps.env.NODE_ENV === 'production'
}

/**
 * Reads the session cookie and sets `auth` (null when anonymous). Re-sends the cookie when
 * the sliding expiry moved.
 */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  const secure = secureCookies(c)
  const token = readSessionCookie(c, secure)
  if (token) {
    const auth = await validateSessionToken(c.var.db, token)
    c.set('auth', auth)
    if (auth?.refreshed) writeSessionCookie(c, secure, token, auth.expiresAt)
  }
  await next()
})

/**
 * The request's user: its signed-in session's, or its API token's (issue 41 item 1) that the
 * bearer middleware let through to a route of `ROUTE_SCOPES` with the route's scope.
 * @throws AppError 401 UNAUTHENTICATED when anonymous.
 */
export function requireAuth(c: Context<AppEnv>): { user: UserRow } {
  const actor = c.var.token ?? c.var.auth
  if (!actor) throw new AppError('UNAUTHENTICATED', 'You are not signed in. Sign in to continue.')
  return { user: actor.user }
}

/**
 * {@link requireAuth} as a route's (or a private feature's, `.use(requireSignedIn)`) first
 * middleware: 401 UNAUTHENTICATED to the anonymous before the route's validators run, so a
 * signed-out caller gets 401 whatever the path, query or body says (issue 14; issue 40 item
 * 7). Handlers still call `requireAuth` for the user. `signed-out.test.ts` calls every
 * private route of the app signed out.
 */
export const requireSignedIn = createMiddleware<AppEnv>(async (c, next) => {
  requireAuth(c)
  await next()
})
