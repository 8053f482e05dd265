/**
 * The `next` query parameter of /auth: where to go after signing in or registering (an
 * invitation link, say). Only a same-site path is followed, so a crafted link cannot send
 * someone to another site after they sign in (an open redirect).
 */

const BASE = 'https://reelgraph.invalid'

function hasControlCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/**
 * `value` as a safe same-site path (`/path?query#hash`), or null when it is missing or not
 * one: it must start with a single `/` (not `//` or `/\`, which browsers read as another
 * host), hold no backslash or control character, and not lead back to /auth itself.
 * @see issue 6 item 1 (the invitation link survives signing in)
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000) return null
  if (!value.startsWith('/') || value.startsWith('//')) return null
  // Backslashes count as slashes in URLs; control characters are stripped by parsers.
  if (value.includes('\\') || hasControlCharacter(value)) return null
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return null
  }
  if (url.origin !== BASE) return null
  if (url.pathname === '/auth' || url.pathname.startsWith('/auth/')) return null
  return `${url.pathname}${url.search}${url.hash}`
}

/** What {@link authHref} puts in the /auth link. */
export interface AuthLinkOptions {
  /** The view to open first. */
  view?: 'login' | 'register'
  /** Where to come back to afterwards (dropped when it is not a safe path). */
  next?: string | null
  /** An address to prefill. */
  email?: string | null
}

/** A link to /auth with `view`, `next` and `email` as query parameters (each optional). */
export function authHref({ view, next, email }: AuthLinkOptions = {}): string {
  const params = new URLSearchParams()
  if (view) params.set('view', view)
  const safe = safeNextPath(next)
  if (safe) params.set('next', safe)
  if (email) params.set('email', email)
  const query = params.toString()
  return query ? `/auth?${query}` : '/auth'
}
