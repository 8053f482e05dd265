import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { readSessionCookie, writeSessionCookie } from '../features/auth/session-cookie.ts'
import { type UserRow, type ValidSession, validateSessionToken } from '@reelgraph/db'
import { AppError } from '../lib/app-error.ts'
import type { TokenActor } from '../features/tokens/token-service.ts'

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
 * Who a request acts as: a signed-in session, or an API token (issue 41 item 1) that the
 * bearer middleware let through to a route of `ROUTE_SCOPES` with the route's scope.
 */
export type RequestActor =
  | { via: 'session'; user: UserRow; session: ValidSession }
  | { via: 'token'; user: UserRow; token: TokenActor }

/**
 * The request's actor: its signed-in session, or its API token.
 * @throws AppError 401 UNAUTHENTICATED when anonymous.
 */
export function requireAuth(c: Context<AppEnv>): RequestActor {
  const token = c.var.token
  if (token) return { via: 'token', user: token.user, token }
  const auth = c.var.auth
  if (!auth) throw new AppError('UNAUTHENTICATED', 'You are not signed in. Sign in to continue.')
  return { via: 'session', user: auth.user, session: auth }
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
