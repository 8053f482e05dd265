import type { ErrorBody, ErrorCode } from '@reelgraph/shared'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../app-env.ts'
import { AppError } from '../lib/app-error.ts'

function fromHttpException(err: HTTPException): AppError {
  if (err.status === 400 && /malformed json/i.test(err.message)) {
    return new AppError('INVALID_JSON', 'The request body is not valid JSON. Check its syntax.')
  }
  const byStatus: Partial<Record<number, ErrorCode>> = {
    401: 'UNAUTHENTICATED',
    404: 'NOT_FOUND',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'RATE_LIMITED',
  }
  const code = byStatus[err.status] ?? (err.status < 500 ? 'BAD_REQUEST' : 'INTERNAL')
  return new AppError(code, err.message || 'The request could not be handled.')
}

/**
 * The one place errors become responses: `{ "error": { "code", "message", "fields"? } }`.
 * Unexpected errors are logged with the request id and answered 500 without internals.
 */
export function errorHandler(err: Error, c: Context<AppEnv>): Response {
  let appError: AppError
  if (err instanceof AppError) appError = err
  else if (err instanceof HTTPException) appError = fromHttpException(err)
  else {
    c.var.logger?.error({ err }, 'unhandled error')
    appError = new AppError(
      'INTERNAL',
      `Something went wrong on our side. Please try again; if it keeps happening, contact support and quote request ${c.var.requestId}.`,
    )
  }
  if (appError.status >= 500 && appError !== err) c.var.logger?.error({ err }, 'server error')
  const body: ErrorBody = {
    error: {
      code: appError.code,
      message: appError.message,
      ...(appError.fields ? { fields: appError.fields } : {}),
    },
  }
  return c.json(body, appError.status as ContentfulStatusCode, appError.headers)
}
