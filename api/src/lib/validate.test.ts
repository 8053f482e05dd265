import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { serialIdSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AppEnv } from '../app-env.ts'
import { errorHandler } from '../middleware/error-handler.ts'
import { AppError } from './app-error.ts'
import { validate, validateJson } from './validate.ts'

// Path params through validate('param', ...) (issue 14, thin handlers).
const params = z.object({ id: serialIdSchema, noteId: serialIdSchema })
const app = new Hono<AppEnv>()
  .get(
    '/books/:id/notes/:noteId',
    validate('param', params, {
      onInvalid: (field) =>
        new AppError('NOT_FOUND', field === 'id' ? 'No such book.' : 'No such note.'),
    }),
    (c) => c.json(c.req.valid('param')),
  )
  .get('/plain/:id', validate('param', z.object({ id: serialIdSchema })), (c) =>
    c.json(c.req.valid('param')),
  )
app.onError(errorHandler)

async function get(path: string) {
  const res = await app.request(path)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe("validate('param', ...)", () => {
  it('hands the handler the ids as numbers', async () => {
    expect(await get('/books/12/notes/3')).toEqual({ status: 200, body: { id: 12, noteId: 3 } })
  })

  it('answers onInvalid’s error for the first bad field', async () => {
    const book = await get('/books/abc/notes/3')
    expect(book.status).toBe(404)
    expect(book.body).toMatchObject({ error: { code: 'NOT_FOUND', message: 'No such book.' } })
    const note = await get('/books/12/notes/007')
    expect(note.body).toMatchObject({ error: { message: 'No such note.' } })
  })

  it('is a 400 with the field without onInvalid', async () => {
    const plain = await get('/plain/0')
    expect(plain.status).toBe(400)
    expect(plain.body).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: { id: 'Not an id.' } },
    })
  })
})

// A JSON body read by validateJson under a real @hono/node-server (issue 23, decision 023):
// straight off the IncomingMessage when nothing read it yet, else through hono.
describe('validateJson under @hono/node-server', () => {
  const bodySchema = z.object({ text: z.string() })
  /** What the last parse saw: whether its bytes were the adapter's Buffer, and their length. */
  let seen: { buffer: boolean; bytes: number } | null = null
  const json = validateJson(bodySchema, (body) => {
    seen = { buffer: Buffer.isBuffer(body.bytes), bytes: body.bytes.byteLength }
    return bodySchema.safeParse(body.value())
  })
  const served = new Hono<AppEnv>()
    .post('/direct', json, (c) => c.json({ length: c.req.valid('json').text.length }))
    .post(
      '/read-before',
      async (c, next) => {
        await c.req.text()
        await next()
      },
      json,
      (c) => c.json({ length: c.req.valid('json').text.length }),
    )
  served.onError(errorHandler)
  let server: ReturnType<typeof serve>
  let port = 0
  beforeAll(async () => {
    server = await new Promise((resolve) => {
      const s = serve({ fetch: served.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** POSTs `chunks` one by one (a tick apart), with a Content-Length unless `chunked`. */
  function post(path: string, chunks: Buffer[], chunked = false) {
    const length = chunks.reduce((sum, c) => sum + c.byteLength, 0)
    return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(chunked ? {} : { 'content-length': String(length) }),
          },
        },
        (res) => {
          const parts: Buffer[] = []
          res.on('data', (c: Buffer) => parts.push(c))
          res.on('end', () =>
            resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString()) }),
          )
        },
      )
      req.on('error', reject)
      void (async () => {
        for (const chunk of chunks) {
          req.write(chunk)
          await new Promise((r) => setTimeout(r, 5))
        }
        req.end()
      })()
    })
  }

  /** `JSON.stringify({ text })` of a text of `n` characters (multi-byte ones among them), in `parts` pieces. */
  function pieces(n: number, parts: number): Buffer[] {
    const text = 'aé€😀'.repeat(Math.ceil(n / 5)).slice(0, n)
    const bytes = Buffer.from(JSON.stringify({ text }))
    const size = Math.ceil(bytes.byteLength / parts)
    return Array.from({ length: parts }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
  }

  it.each([
    {
      how: 'in pieces split inside characters, off the IncomingMessage',
      path: '/direct',
      chunks: pieces(150_000, 7),
      chunked: false,
      buffer: true,
    },
    {
      how: 'chunked, through hono (its limit counts it as it streams)',
      path: '/direct',
      chunks: pieces(40_000, 3),
      chunked: true,
      buffer: false,
    },
    {
      how: 'after a middleware read it, through hono',
      path: '/read-before',
      chunks: pieces(20_000, 2),
      chunked: false,
      buffer: false,
    },
  ])('reads a body sent $how', async ({ path, chunks, chunked, buffer }) => {
    const sent = Buffer.concat(chunks)
    const { text } = JSON.parse(sent.toString()) as { text: string }
    expect(await post(path, chunks, chunked)).toEqual({
      status: 200,
      body: { length: text.length },
    })
    expect(seen).toEqual({ buffer, bytes: sent.byteLength })
  })

  it('answers 400 INVALID_JSON for malformed text read off the IncomingMessage', async () => {
    const res = await post('/direct', [Buffer.from('{"text": '), Buffer.from('"unfinished')])
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: { code: 'INVALID_JSON' } })
  })
})
