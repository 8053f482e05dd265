import { ERROR_STATUS, type ErrorCode } from '@reelgraph/shared'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

/**
 * The one error the api throws on purpose. `app.onError` renders it as
 * `{ "error": { "code", "message", "fields"? } }` with the status of its code.
 */
export class AppError extends HTTPException {
  readonly code: ErrorCode
  readonly fields: Record<string, string> | undefined
  readonly headers: Record<string, string> | undefined

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      fields?: Record<string, string>
      headers?: Record<string, string>
      cause?: unknown
    } = {},
  ) {
    super(ERROR_STATUS[code] as ContentfulStatusCode, { message, cause: options.cause })
    this.code = code
    this.fields = options.fields
    this.headers = options.headers
  }
}
