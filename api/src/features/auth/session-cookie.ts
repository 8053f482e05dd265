import { sessionCookieName } from '@reelgraph/shared'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'

/*
 * The session cookie: HttpOnly, SameSite=Lax, Path=/; in production also Secure with the
 * `__Host-` prefix (ARCHITECTURE Auth).
 */

export function readSessionCookie(c: Context, secure: boolean): string | undefined {
  return getCookie(c, sessionCookieName(secure))
}

export function writeSessionCookie(
  c: Context,
  secure: boolean,
  token: string,
  expiresAt: Date,
): void {
  setCookie(c, sessionCookieName(secure), token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure,
    expires: expiresAt,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  })
}

export function clearSessionCookie(c: Context, secure: boolean): void {
  deleteCookie(c, sessionCookieName(secure), { path: '/', secure, httpOnly: true, sameSite: 'Lax' })
}
