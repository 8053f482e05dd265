import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit as UndiciInit } from 'undici'
import {
  allowedByList,
  type AllowList,
  isIpLiteral,
  NO_ALLOWED_HOSTS,
  parseAllowList,
  refusedAddress,
  refusedRange,
} from './address-rules.ts'
import { DEFAULT_OUTBOUND_TIMEOUT_MS, OUTBOUND_MAX_REDIRECTS } from './limits.ts'
import { OutboundRefusedError, OutboundTimeoutError } from './outbound-errors.ts'

/**
 * The one outbound guard (issue 40 item 1, decision 024): every request the server makes to an
 * address it was handed (a provider's status, result or cancel URL, a webhook receiver) and to
 * the bases it was configured with goes through {@link guardedFetch}. Only `https:` to public
 * addresses, judged where the socket connects (a DNS answer that changes between a check and
 * the connection cannot slip through), except the origins trusted as configured and what the
 * operator's allow list names; redirects followed by hand, each hop judged again; a time limit.
 */

/** What a request may reach. Made once per provider (or per kind of delivery) and reused. */
export interface OutboundPolicy {
  /**
   * Origins (`scheme://host:port`, as `URL.origin` spells them) trusted as configured: an
   * operator's base URL such as `COMFYUI_URL`, reachable over `http:` and on any address.
   */
  trustedOrigins: ReadonlySet<string>
  /** The operator's `OUTBOUND_ALLOW_HOSTS`. */
  allow: AllowList
  /** Longest request, its body included, in ms. */
  timeoutMs: number
  /** Redirects followed, each judged again. */
  maxRedirects: number
}

/** The operator's outbound settings, as env.ts reads them (`OUTBOUND_ALLOW_HOSTS`...). */
export interface OutboundSettings {
  allow: AllowList
  timeoutMs: number
}

/** No allow list, the default time limit: what a policy uses when nothing is configured. */
export const DEFAULT_OUTBOUND: OutboundSettings = {
  allow: NO_ALLOWED_HOSTS,
  timeoutMs: DEFAULT_OUTBOUND_TIMEOUT_MS,
}

/**
 * A policy trusting the origins of `trustedBases` (undefined and unparsable ones skipped) under
 * the operator's `settings`.
 * @see issue 40 item 1
 */
export function outboundPolicy(
  trustedBases: readonly (string | undefined)[],
  settings: OutboundSettings = DEFAULT_OUTBOUND,
): OutboundPolicy {
  const trustedOrigins = new Set<string>()
  for (const base of trustedBases) {
    if (!base) continue
    try {
      trustedOrigins.add(new URL(base).origin)
    } catch {
      // not a URL: nothing to trust
    }
  }
  return {
    trustedOrigins,
    allow: settings.allow,
    timeoutMs: settings.timeoutMs,
    maxRedirects: OUTBOUND_MAX_REDIRECTS,
  }
}

/** True when `url` needs no address check: a trusted origin or one the allow list names. */
function exempt(policy: OutboundPolicy, url: URL): boolean {
  return policy.trustedOrigins.has(url.origin) || allowedByList(policy.allow, url)
}

/**
 * Judges `url` before connecting: a web URL; unless exempt, no IP literal in a refused range
 * (no DNS lookup happens for it, so it is judged here) and `https:` only.
 * @throws OutboundRefusedError
 */
export function judgeUrl(policy: OutboundPolicy, url: URL): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OutboundRefusedError('scheme', url.protocol)
  }
  if (exempt(policy, url)) return
  const bare = url.hostname.replace(/^\[|\]$/g, '')
  if (isIpLiteral(bare) && refusedRange(bare)) throw new OutboundRefusedError('address', bare)
  if (url.protocol !== 'https:') throw new OutboundRefusedError('scheme', url.origin)
}

/**
 * A `dns.lookup` that refuses the whole answer when any address in it is not public (and not
 * in an allowed range): the socket connects only to addresses judged here.
 */
function checkedLookup(allow: AllowList) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (...args: unknown[]) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true } as never, (error, found) => {
      if (error) return callback(error)
      const addresses = found as unknown as LookupAddress[]
      const refused = addresses.find((a) => refusedAddress(allow, a.address) !== null)
      if (refused || addresses.length === 0) {
        return callback(new OutboundRefusedError('address', refused?.address ?? hostname))
      }
      if (options.all) return callback(null, addresses)
      return callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

const agents = new WeakMap<OutboundPolicy, Agent>()

/**
 * The connection pool of `policy`: exempt origins connect as they are; every other one through
 * the checked lookup (and an IP literal judged once more, as no lookup happens for it).
 */
function agentOf(policy: OutboundPolicy): Agent {
  let agent = agents.get(policy)
  if (agent) return agent
  const plain = buildConnector({})
  const checked = buildConnector({ lookup: checkedLookup(policy.allow) } as never)
  agent = new Agent({
    connect(options, callback) {
      const port = options.port ? `:${options.port}` : ''
      const url = new URL(`${options.protocol}//${hostForUrl(options.hostname)}${port}`)
      if (exempt(policy, url)) return plain(options, callback)
      const bare = options.hostname.replace(/^\[|\]$/g, '')
      if (isIpLiteral(bare) && refusedRange(bare) !== null) {
        return callback(new OutboundRefusedError('address', bare), null)
      }
      return checked(options, callback)
    },
  })
  agents.set(policy, agent)
  return agent
}

function hostForUrl(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname
}

/** The first OutboundRefusedError in an error's causes (undici wraps connect errors). */
function refusalIn(error: unknown): OutboundRefusedError | undefined {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof OutboundRefusedError) return e
    if (e instanceof AggregateError) {
      const inner = e.errors.map(refusalIn).find(Boolean)
      if (inner) return inner
    }
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** Headers kept when a redirect leaves the origin: nothing that could carry a credential. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'content-type', 'user-agent'])

/**
 * One request under `policy`: `url` judged, connected only to judged addresses, redirects
 * followed by hand (at most `policy.maxRedirects`, each hop judged again; a hop to another
 * origin carries no credentials: only Accept, Content-Type and User-Agent), the whole exchange,
 * body included, within `policy.timeoutMs` (and `init.signal`). Answers the last Response, its
 * body unread (read it with the bounded readers of `bounded-body.ts`).
 * @throws OutboundRefusedError for a URL, hop or resolved address the policy refuses;
 *   OutboundTimeoutError when the policy's time limit ends it; the fetch's own error (a
 *   TypeError, or the abort reason of `init.signal`) otherwise.
 * @see issue 40 item 1
 */
export async function guardedFetch(
  url: string | URL,
  init: RequestInit,
  policy: OutboundPolicy,
): Promise<Response> {
  const timer = AbortSignal.timeout(policy.timeoutMs)
  const signal = init.signal ? AbortSignal.any([init.signal, timer]) : timer
  let current = new URL(url)
  let method = (init.method ?? 'GET').toUpperCase()
  let body = init.body
  let headers = new Headers(init.headers)
  if (body instanceof FormData) {
    // Node's own FormData is not undici's: sent as the multipart bytes Node encodes for it.
    const encoded = new Response(body)
    headers.set('content-type', encoded.headers.get('content-type')!)
    body = new Uint8Array(await encoded.arrayBuffer())
  }
  for (let hop = 0; ; hop++) {
    try {
      judgeUrl(policy, current)
    } catch (error) {
      throw hop > 0 && error instanceof OutboundRefusedError ? error.redirected() : error
    }
    let response: Response
    try {
      response = (await undiciFetch(current, {
        ...(init as UndiciInit),
        method,
        headers: Object.fromEntries(headers),
        body: body as UndiciInit['body'],
        redirect: 'manual',
        signal,
        dispatcher: agentOf(policy),
      })) as unknown as Response
    } catch (error) {
      const refusal = refusalIn(error)
      if (refusal) throw hop > 0 ? refusal.redirected() : refusal
      if (timer.aborted && !init.signal?.aborted) {
        throw new OutboundTimeoutError(policy.timeoutMs, { cause: error })
      }
      throw error
    }
    const location = response.headers.get('location')
    if (!REDIRECTS.has(response.status) || location === null) return response
    await response.body?.cancel().catch(() => undefined)
    if (hop >= policy.maxRedirects) {
      throw new OutboundRefusedError('redirects', `more than ${policy.maxRedirects}`, true)
    }
    const next = new URL(location, current)
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = method === 'HEAD' ? 'HEAD' : 'GET'
      body = undefined
    }
    if (next.origin !== current.origin) {
      const kept = new Headers()
      for (const [name, value] of headers) {
        if (CROSS_ORIGIN_HEADERS.has(name)) kept.set(name, value)
      }
      headers = kept
    }
    current = next
  }
}

/** The settings every provider's catalog reads for the guard and its result limits. */
export interface OutboundEnv {
  OUTBOUND_ALLOW_HOSTS: string
  OUTBOUND_TIMEOUT_MS: number
  IMAGE_RESULT_MAX_BYTES: number
}

/**
 * The operator's outbound settings from env's `OUTBOUND_ALLOW_HOSTS` (checked at boot) and
 * `OUTBOUND_TIMEOUT_MS`.
 * @throws Error for an allow list env.ts would have refused.
 */
export function outboundSettings(
  env: Pick<OutboundEnv, 'OUTBOUND_ALLOW_HOSTS' | 'OUTBOUND_TIMEOUT_MS'>,
): OutboundSettings {
  return { allow: parseAllowList(env.OUTBOUND_ALLOW_HOSTS), timeoutMs: env.OUTBOUND_TIMEOUT_MS }
}
