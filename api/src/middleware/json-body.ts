import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { AppError } from '../lib/app-error.ts'

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i

/** A request that sends a body must send JSON: anything else is 415 with what to send. */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  const length = c.req.header('content-length')
  const hasBody =
    (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined
  if (hasBody) {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? ''
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the request body as JSON with the header Content-Type: application/json.',
      )
    }
  }
  return next()
})
