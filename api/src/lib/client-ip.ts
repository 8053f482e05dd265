import type { IncomingMessage } from 'node:http'
import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import proxyAddr from 'proxy-addr'
import type { AppEnv } from '../app-env.ts'

/** The Node request under a Hono context, when @hono/node-server serves it. */
function nodeRequest(c: Context<AppEnv>): IncomingMessage | undefined {
  // Same lookup as @hono/node-server's getConnInfo (bindings may sit under `server`).
  const env = c.env as (Partial<HttpBindings> & { server?: Partial<HttpBindings> }) | undefined
  return (env?.server ?? env)?.incoming
}

/**
 * The client's IP address, for rate limits. With `TRUST_PROXY` = n (the reverse proxies you
 * run in front of the app), it is the n-th X-Forwarded-For entry from the right (the address
 * the outermost trusted proxy saw; the leftmost when there are fewer), as Express's
 * `trust proxy` number picks it (proxy-addr). Entries further left are written by the client
 * and change nothing. With 0 (default), the socket's remote address.
 * Without a Node request (`app.request()` in tests) it is `'unknown'`, one address for all.
 * @see issue 11 item 7
 */
export function clientIp(c: Context<AppEnv>): string {
  const incoming = nodeRequest(c)
  if (!incoming) return 'unknown'
  const hops = c.var.deps.env.TRUST_PROXY
  // Undefined once the socket is gone (the client hung up).
  return (proxyAddr(incoming, (_addr, i) => i < hops) as string | undefined) ?? 'unknown'
}
