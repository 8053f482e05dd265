import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppDeps, AppEnv } from '../app-env.ts'
import { loadEnv } from '../env.ts'
import { clientIp } from './client-ip.ts'

/** An app answering with clientIp under `TRUST_PROXY` (only `deps.env` is read). */
function ipApp(trustProxy: string) {
  const env = loadEnv({ NODE_ENV: 'test', TRUST_PROXY: trustProxy })
  return new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set('deps', { env } as AppDeps)
      await next()
    })
    .get('/ip', (c) => c.text(clientIp(c)))
}

/** Serves the app on 127.0.0.1 and asks it for the client address, with X-Forwarded-For. */
async function ipOverHttp(trustProxy: string, forwardedFor?: string): Promise<string> {
  const app = ipApp(trustProxy)
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  try {
    const { port } = server.address() as AddressInfo
    const headers: Record<string, string> = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}
    return await (await fetch(`http://127.0.0.1:${port}/ip`, { headers })).text()
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe('clientIp', () => {
  it('is the socket address without TRUST_PROXY, whatever X-Forwarded-For says', async () => {
    expect(await ipOverHttp('0')).toBe('127.0.0.1')
    expect(await ipOverHttp('0', '203.0.113.9')).toBe('127.0.0.1')
  })

  it('is the rightmost X-Forwarded-For entry behind one proxy; spoofed entries change nothing', async () => {
    expect(await ipOverHttp('1', '198.51.100.23')).toBe('198.51.100.23')
    expect(await ipOverHttp('1', '10.0.0.1, 198.51.100.23')).toBe('198.51.100.23')
    expect(await ipOverHttp('1', '203.0.113.9,  10.1.1.1 ,198.51.100.23')).toBe('198.51.100.23')
    // An old TRUST_PROXY=true means one proxy.
    expect(await ipOverHttp('true', '10.0.0.1, 198.51.100.23')).toBe('198.51.100.23')
  })

  it('counts as many entries from the right as TRUST_PROXY says', async () => {
    expect(await ipOverHttp('2', '10.0.0.1, 198.51.100.23, 192.0.2.1')).toBe('198.51.100.23')
    // Fewer entries than proxies: the leftmost there is.
    expect(await ipOverHttp('3', '198.51.100.23')).toBe('198.51.100.23')
    // No header behind a proxy: the socket.
    expect(await ipOverHttp('1')).toBe('127.0.0.1')
  })

  it('is "unknown" without a socket (app.request in tests)', async () => {
    const res = await ipApp('1').request('/ip', { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(await res.text()).toBe('unknown')
  })
})
