import type { ServerResponse } from 'node:http'
import { parseAllowList } from '../../../../lib/outbound/address-rules.ts'
import type { OutboundSettings } from '../../../../lib/outbound/guarded-fetch.ts'
import {
  bytes,
  type Handler,
  startTestServer,
  type TestServer,
} from '../../providers/testing/http-server.ts'

/**
 * Stand-ins for what a hostile provider answer points at (issue 40 items 1-3), for the
 * provider tests: an "internal service" on its own 127.0.0.1 listener (never the provider's
 * configured base, which is trusted as configured) that records every request and would answer
 * a clip, and a relay the operator allowed (`OUTBOUND_ALLOW_HOSTS`) that redirects everything to
 * the internal service.
 */
export interface OutboundStandIns {
  /** The internal service: it must see no request. */
  internal: TestServer
  /** An allowed host whose every answer is a redirect to the internal service. */
  relay: TestServer
  /** The operator's settings: the relay allowed by host:port, a 5 s limit. */
  outbound: OutboundSettings
  /** Result URLs a hostile answer names, with the address each refusal quotes. */
  hostileUrls(path: string): HostileUrl[]
  close(): Promise<void>
}

/** One URL the guard must refuse. */
export interface HostileUrl {
  name: string
  url: string
  /** What the refusal's words quote, e.g. `(127.0.0.1)`. */
  shown: RegExp
  /** True when a redirect leads there (the words say "redirects to"). */
  redirect: boolean
}

const portOf = (server: TestServer) => new URL(server.url).port

/** Starts the internal service (answering `answer`, default a few bytes) and the relay. */
export async function startOutboundStandIns(answer?: Uint8Array): Promise<OutboundStandIns> {
  const internal = await startTestServer((_, res) =>
    bytes(res, 'video/mp4', answer ?? new Uint8Array([0, 0, 0, 24])),
  )
  const relay = await startTestServer((req, res) => {
    res.writeHead(302, { location: `${internal.url}${req.url}` })
    res.end()
  })
  const port = portOf(internal)
  return {
    internal,
    relay,
    outbound: { allow: parseAllowList(`127.0.0.1:${portOf(relay)}`), timeoutMs: 5_000 },
    hostileUrls: (path) =>
      [
        { name: '127.0.0.1 (another listener)', url: `http://127.0.0.1:${port}${path}` },
        { name: '10.0.0.1', url: `https://10.0.0.1${path}` },
        { name: '169.254.169.254 (cloud metadata)', url: `http://169.254.169.254${path}` },
        { name: '[::1]', url: `https://[::1]:${port}${path}` },
        { name: 'a name resolving to 127.0.0.1', url: `https://localhost:${port}${path}` },
        { name: 'a redirect from an allowed host to 127.0.0.1', url: `${relay.url}${path}` },
      ].map((u) => ({
        ...u,
        redirect: u.url.startsWith(relay.url),
        shown: u.url.includes('10.0.0.1')
          ? /\(10\.0\.0\.1\)/
          : u.url.includes('169.254')
            ? /\(169\.254\.169\.254\)/
            : u.url.includes('[::1]')
              ? /\(::1\)/
              : /\((127\.0\.0\.1|::1)\)/,
      })),
    async close() {
      await internal.close()
      await relay.close()
    },
  }
}

/** The words of a refused address (issue 40 item 1), for `label` and `what`. */
export function refusedWords(label: string, hostile: HostileUrl): RegExp {
  const where = hostile.redirect ? 'that redirects to an address' : 'at an address'
  return new RegExp(
    `^${label.replace('.', '\\.')} sent a result ${where} Reelgraph does not fetch ${hostile.shown.source}: only public https addresses are followed\\. An operator can allow it with OUTBOUND_ALLOW_HOSTS\\.$`,
  )
}

/** Bytes of each chunk an endless body writes. */
const ENDLESS_CHUNK_BYTES = 64 * 1024

/**
 * Answers a body that never ends (no Content-Length), until the client goes away; counts
 * what it wrote into `sent.bytes`.
 */
export function endlessBody(res: ServerResponse, sent = { bytes: 0 }, contentType = 'video/mp4') {
  res.writeHead(200, { 'content-type': contentType })
  const chunk = new Uint8Array(ENDLESS_CHUNK_BYTES).fill(7)
  const write = () => {
    while (!res.destroyed && !res.writableEnded) {
      sent.bytes += chunk.byteLength
      if (!res.write(chunk)) {
        res.once('drain', write)
        return
      }
    }
  }
  res.on('close', () => res.removeAllListeners('drain'))
  write()
}

/** `base`, except that requests whose path is `path` get `special`. */
export function withPath(base: Handler, path: string, special: Handler): Handler {
  return (req, res) => (req.pathname === path ? special(req, res) : base(req, res))
}
