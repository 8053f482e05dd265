import type { Context, MiddlewareHandler } from 'hono'
import { uniqueSymbol } from 'hono-openapi'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { requireJsonBody } from '../../middleware/json-body.ts'

/**
 * `POST /api/batches` takes JSON or a CSV table (issue 42 item 3): the one body of the api that
 * may be either. Its size is the api's default limit (`BODY_LIMIT_BYTES`, which is shared's
 * `BATCH_CSV_MAX_BYTES`: 1 MiB), judged from its headers by `limitBody` before it is read.
 */

/** The path whose body may be CSV. */
export const BATCHES_PATH = '/api/batches'

const CSV_MEDIA_TYPE = /^(text\/csv|application\/csv)$/i

/** Whether the request's body is a CSV table (`Content-Type: text/csv`). */
export function isCsvRequest(c: Context): boolean {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? ''
  return CSV_MEDIA_TYPE.test(mediaType)
}

/**
 * A body of `POST /api/batches` is JSON or `text/csv`; anything else is 415 with what to send
 * (the app's JSON rule for every other path).
 */
export const requireJsonOrCsvBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.path === BATCHES_PATH && c.req.method === 'POST' && isCsvRequest(c)) return next()
  try {
    return await requireJsonBody(c, next)
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNSUPPORTED_MEDIA_TYPE') {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the rows as JSON (Content-Type: application/json) or the table as CSV (Content-Type: text/csv).',
      )
    }
    throw err
  }
})

/**
 * `validator` run only when the body is not CSV (a CSV body is read by the handler), keeping
 * its OpenAPI description.
 */
export function unlessCsv<M extends MiddlewareHandler>(validator: M): M {
  const wrapped = ((c, next) => (isCsvRequest(c) ? next() : validator(c, next))) as M
  const described = (validator as unknown as Record<symbol, unknown>)[uniqueSymbol]
  return Object.assign(wrapped, { [uniqueSymbol]: described })
}
