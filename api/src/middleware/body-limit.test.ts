import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppEnv } from '../app-env.ts'
import { limitBody } from './body-limit.ts'
import { errorHandler } from './error-handler.ts'

const LIMIT = 1024 * 1024

/**
 * The body limit over a real @hono/node-server socket: a declared length is judged by its
 * header, a chunked body as it streams, and a body within the limit reaches the handler whole.
 */
describe('the request body limit', () => {
  let server: ServerType
  let port: number

  beforeAll(async () => {
    const app = new Hono<AppEnv>()
      .use('*', limitBody(LIMIT))
      .get('/', (c) => c.json({ ok: true }))
      .post('/', async (c) => c.json({ length: (await c.req.text()).length }))
      .onError(errorHandler)
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve())
    })
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  /** Sends `chunks` (declaring their length unless `chunked`) and answers status and body. */
  function send(chunks: string[], chunked: boolean): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const length = chunks.reduce((n, chunk) => n + Buffer.byteLength(chunk), 0)
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: chunked ? {} : { 'content-length': String(length) },
      })
      req.on('response', (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      // The server may answer and close before a refused body is all sent.
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err)
      })
      for (const chunk of chunks) req.write(chunk)
      req.end()
    })
  }

  const within = ['a'.repeat(LIMIT / 2), 'b'.repeat(LIMIT / 2)]
  const over = [...within, 'c']

  it('passes a body within the limit whole, declared or chunked', async () => {
    for (const chunked of [false, true]) {
      const res = await send(within, chunked)
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body)).toEqual({ length: LIMIT })
    }
  })

  it('refuses a body one byte over the limit with 413 and the limit, declared or chunked', async () => {
    for (const chunked of [false, true]) {
      const res = await send(over, chunked)
      expect(res.status).toBe(413)
      expect(JSON.parse(res.body)).toMatchObject({
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: 'The request body is larger than the 1 MiB limit.',
        },
      })
    }
  })

  it('passes a GET', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`)
    expect(res.status).toBe(200)
  })
})
