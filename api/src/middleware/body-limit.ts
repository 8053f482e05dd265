import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../lib/app-error.ts'

/**
 * A request body limit of `maxSize` bytes, answering 413 PAYLOAD_TOO_LARGE with the limit in
 * MiB. A GET or HEAD (no body) passes; a body that declares its length (Content-Length,
 * without Transfer-Encoding) is judged by the header, which Node's HTTP parser holds the
 * body to; any other (chunked) is counted as it streams by hono's `bodyLimit`.
 *
 * Hono's `bodyLimit` makes the same header check, but only after reading `c.req.raw.body`,
 * and that read makes @hono/node-server build a full web `Request` whose body is a web
 * stream over the socket: the handler's `c.req.json()` then reads through web streams
 * instead of the adapter's direct read, about 0.6 ms of a 200 KB REST autosave's CPU
 * (issue 23; `bench/src/rest-autosave.ts`).
 * @throws AppError PAYLOAD_TOO_LARGE when the body is larger than `maxSize`.
 */
export function limitBody(maxSize: number): MiddlewareHandler {
  const tooLarge = (): never => {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than the ${maxSize / 1024 / 1024} MiB limit.`,
    )
  }
  const counted = bodyLimit({ maxSize, onError: tooLarge })
  return async (c, next) => {
    const { method } = c.req
    if (method === 'GET' || method === 'HEAD') return next()
    const length = c.req.header('content-length')
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(length) > maxSize) tooLarge()
      return next()
    }
    return counted(c, next)
  }
}
