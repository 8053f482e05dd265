import { serialIdSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AppEnv } from '../app-env.ts'
import { errorHandler } from '../middleware/error-handler.ts'
import { AppError } from './app-error.ts'
import { validate } from './validate.ts'

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
