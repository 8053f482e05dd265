import type * as Dns from 'node:dns'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  json,
  startTestServer,
  type TestServer,
} from '../../features/generation/providers/testing/http-server.ts'
import { endlessBody } from '../../features/generation/video-providers/testing/outbound-stand-ins.ts'
import { parseAllowList } from './address-rules.ts'
import { readBodyBounded, writeBodyBounded } from './bounded-body.ts'
import { guardedFetch, type OutboundPolicy, outboundPolicy } from './guarded-fetch.ts'
import { BodyTooLargeError, OutboundRefusedError, OutboundTimeoutError } from './outbound-errors.ts'

/** Names the mocked resolver answers itself: a DNS answer the guard must judge at connect time. */
const FAKE_DNS: Record<string, { address: string; family: number }[]> = {
  'private.test': [{ address: '10.0.0.5', family: 4 }],
  'mixed.test': [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
}
const lookups: string[] = []

vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof Dns>()
  const lookup = (hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    lookups.push(hostname)
    const fake = FAKE_DNS[hostname]
    if (!fake) return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback)
    return (options as { all?: boolean }).all
      ? callback(null, fake)
      : callback(null, fake[0]!.address, fake[0]!.family)
  }
  return { ...real, default: { ...real, lookup }, lookup }
})

let service: TestServer
let other: TestServer
let dir: string
const port = (s: TestServer) => new URL(s.url).port

beforeAll(async () => {
  service = await startTestServer((_, res) => json(res, 200, { ok: true }))
  other = await startTestServer((_, res) => json(res, 200, { other: true }))
  dir = await mkdtemp(join(tmpdir(), 'outbound-'))
})
afterAll(async () => {
  await service.close()
  await other.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(() => {
  service.handle((_, res) => json(res, 200, { ok: true }))
  service.requests.length = 0
  other.requests.length = 0
  lookups.length = 0
})

/** What `promise` rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the request went through'),
    (e: unknown) => e,
  )
}

async function refusal(url: string, policy: OutboundPolicy, init: RequestInit = {}) {
  const error = await failure(guardedFetch(url, init, policy))
  expect(error).toBeInstanceOf(OutboundRefusedError)
  return error as OutboundRefusedError
}

const nothingTrusted = () => outboundPolicy([])

describe('guardedFetch: what it refuses before connecting', () => {
  it.each([
    ['file:///etc/passwd', 'scheme', 'file:'],
    ['data:text/plain,hi', 'scheme', 'data:'],
    ['ftp://example.com/x', 'scheme', 'ftp:'],
    ['http://example.com/x', 'scheme', 'http://example.com'],
    ['https://127.0.0.1:1/x', 'address', '127.0.0.1'],
    ['http://127.0.0.1:1/x', 'address', '127.0.0.1'],
    ['https://10.0.0.1/x', 'address', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', 'address', '169.254.169.254'],
    ['https://100.64.0.1/x', 'address', '100.64.0.1'],
    ['https://224.0.0.1/x', 'address', '224.0.0.1'],
    ['https://0.0.0.0/x', 'address', '0.0.0.0'],
    ['https://[::1]/x', 'address', '::1'],
    ['https://[::ffff:127.0.0.1]/x', 'address', '::ffff:7f00:1'],
    ['https://[fd00::1]/x', 'address', 'fd00::1'],
    ['https://[fe80::1]/x', 'address', 'fe80::1'],
    // WHATWG URL spells these as 127.0.0.1 before the guard sees them.
    ['https://2130706433/x', 'address', '127.0.0.1'],
    ['https://0x7f.1/x', 'address', '127.0.0.1'],
  ])('%s (%s)', async (url, reason, shown) => {
    const error = await refusal(url, nothingTrusted())
    expect(error).toMatchObject({ reason, shown, viaRedirect: false })
    expect(lookups).toEqual([])
  })
})

describe('guardedFetch: the address where the socket connects', () => {
  it('refuses a name resolving to 127.0.0.1, and the listener there sees no request', async () => {
    const error = await refusal(`https://localhost:${port(service)}/x`, nothingTrusted())
    expect(error.reason).toBe('address')
    expect(['127.0.0.1', '::1']).toContain(error.shown)
    expect(lookups).toContain('localhost')
    expect(service.requests).toEqual([])
  })

  it.each([
    ['private.test', '10.0.0.5'],
    ['mixed.test', '127.0.0.1'],
    ['mapped.test', '::ffff:127.0.0.1'],
  ])('judges the DNS answer for %s when connecting (%s)', async (host, shown) => {
    const error = await refusal(`https://${host}/x`, nothingTrusted())
    expect(error).toMatchObject({ reason: 'address', shown })
    expect(lookups).toEqual([host])
  })
})

describe('guardedFetch: trusted origins and OUTBOUND_ALLOW_HOSTS', () => {
  it('reaches a configured base over http on 127.0.0.1, and only that origin', async () => {
    const policy = outboundPolicy([`${service.url}/api/`, undefined, 'not a url'])
    const response = await guardedFetch(`${service.url}/x`, {}, policy)
    expect(await response.json()).toEqual({ ok: true })
    await refusal(`${other.url}/x`, policy)
    expect(other.requests).toEqual([])
  })

  it.each([
    ['a host name', () => 'localhost', () => `http://localhost:${port(other)}/x`],
    [
      'a host:port pair',
      () => `localhost:${port(other)}`,
      () => `http://localhost:${port(other)}/x`,
    ],
    ['an IP host:port pair', () => `127.0.0.1:${port(other)}`, () => `${other.url}/x`],
    ['a range', () => '127.0.0.0/8', () => `${other.url}/x`],
  ])('allows %s the operator named, over http too', async (_, entry, url) => {
    const policy = outboundPolicy([], { allow: parseAllowList(entry()), timeoutMs: 5_000 })
    const response = await guardedFetch(url(), {}, policy)
    expect(await response.json()).toEqual({ other: true })
  })

  it('a host:port pair allows no other port', async () => {
    const policy = outboundPolicy([], {
      allow: parseAllowList(`127.0.0.1:${port(service)}`),
      timeoutMs: 5_000,
    })
    await refusal(`${other.url}/x`, policy)
    expect(other.requests).toEqual([])
  })
})

describe('guardedFetch: redirects, each hop judged again', () => {
  const trusted = () => outboundPolicy([service.url])

  it('follows a redirect within the trusted origin', async () => {
    service.handle((req, res) => {
      if (req.pathname === '/start') {
        res.writeHead(302, { location: '/end' })
        res.end()
      } else json(res, 200, { at: req.pathname })
    })
    const response = await guardedFetch(`${service.url}/start`, {}, trusted())
    expect(await response.json()).toEqual({ at: '/end' })
  })

  it('refuses a redirect from a trusted origin to another listener on 127.0.0.1', async () => {
    service.handle((_, res) => {
      res.writeHead(307, { location: `${other.url}/internal` })
      res.end()
    })
    const error = await refusal(`${service.url}/start`, trusted())
    expect(error).toMatchObject({ reason: 'address', shown: '127.0.0.1', viaRedirect: true })
    expect(other.requests).toEqual([])
  })

  it('sends no credentials to another origin it was redirected to, and turns a 303 into a GET', async () => {
    service.handle((_, res) => {
      res.writeHead(303, { location: `${other.url}/elsewhere` })
      res.end()
    })
    const policy = outboundPolicy([service.url], {
      allow: parseAllowList(`127.0.0.1:${port(other)}`),
      timeoutMs: 5_000,
    })
    await guardedFetch(
      `${service.url}/start`,
      {
        method: 'POST',
        headers: { authorization: 'Key secret', 'x-goog-api-key': 'secret', accept: 'video/*' },
        body: 'x',
      },
      policy,
    )
    expect(service.requests[0]!.headers.authorization).toBe('Key secret')
    expect(other.requests).toHaveLength(1)
    expect(other.requests[0]).toMatchObject({ method: 'GET', pathname: '/elsewhere' })
    expect(other.requests[0]!.headers.authorization).toBeUndefined()
    expect(other.requests[0]!.headers['x-goog-api-key']).toBeUndefined()
    expect(other.requests[0]!.headers.accept).toBe('video/*')
  })

  it('stops after a few redirects', async () => {
    service.handle((req, res) => {
      res.writeHead(302, { location: `/hop${Number(req.pathname.slice(4) || 0) + 1}` })
      res.end()
    })
    const error = await refusal(`${service.url}/hop0`, trusted())
    expect(error).toMatchObject({ reason: 'redirects', viaRedirect: true })
    expect(service.requests).toHaveLength(4)
  })
})

describe('guardedFetch: a time limit on every request, its body included', () => {
  const quick = () => outboundPolicy([service.url], { allow: parseAllowList(''), timeoutMs: 200 })

  it('ends a request that gets no answer', async () => {
    service.handle(() => undefined)
    const error = await failure(guardedFetch(`${service.url}/slow`, {}, quick()))
    expect(error).toBeInstanceOf(OutboundTimeoutError)
  })

  it('ends a body that trickles on', async () => {
    service.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' })
      res.write('x')
    })
    const response = await guardedFetch(`${service.url}/trickle`, {}, quick())
    const error = await failure(readBodyBounded(response, 1024))
    expect(error).toBeInstanceOf(OutboundTimeoutError)
  })

  it('tells the caller’s own abort apart from its time limit', async () => {
    service.handle(() => undefined)
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('cancelled')), 20)
    const error = await failure(
      guardedFetch(`${service.url}/slow`, { signal: controller.signal }, quick()),
    )
    expect(error).not.toBeInstanceOf(OutboundTimeoutError)
  })
})

describe('bounded bodies (issue 40 item 3)', () => {
  const trusted = () => outboundPolicy([service.url])

  it('refuses a declared Content-Length over the limit before reading', async () => {
    service.handle((_, res) => {
      res.writeHead(200, { 'content-length': 4096 })
      res.end(Buffer.alloc(4096))
    })
    const response = await guardedFetch(`${service.url}/big`, {}, trusted())
    const error = await failure(readBodyBounded(response, 1024))
    expect(error).toBeInstanceOf(BodyTooLargeError)
    expect(error).toMatchObject({ limitBytes: 1024, declaredBytes: 4096 })
  })

  it('stops an endless body in memory and on disk at the limit, leaving no file', async () => {
    const sent = { bytes: 0 }
    service.handle((_, res) => endlessBody(res, sent))
    const inMemory = await failure(
      readBodyBounded(await guardedFetch(`${service.url}/e`, {}, trusted()), 100_000),
    )
    expect(inMemory).toMatchObject({ limitBytes: 100_000, declaredBytes: undefined })
    const path = join(dir, 'endless.bin')
    const onDisk = await failure(
      writeBodyBounded(
        await guardedFetch(`${service.url}/e`, {}, trusted()),
        path,
        100_000,
        new AbortController().signal,
      ),
    )
    expect(onDisk).toBeInstanceOf(BodyTooLargeError)
    expect(existsSync(path)).toBe(false)
  })

  it('reads a body within the limit whole', async () => {
    service.handle((_, res) => {
      res.writeHead(200)
      res.end(Buffer.alloc(1000, 1))
    })
    const bytes = await readBodyBounded(
      await guardedFetch(`${service.url}/ok`, {}, trusted()),
      1000,
    )
    expect(bytes).toEqual(new Uint8Array(1000).fill(1))
  })
})
