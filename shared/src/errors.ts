import { z } from 'zod'

/**
 * Machine-readable error codes the API answers with, each with its HTTP status.
 * The web app switches on `code`; people read `message`.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INVALID_TOKEN: 400,
  WEAK_PASSWORD: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN_ORIGIN: 403,
  /** Signed in and a member, but the role does not allow it (issue 6). */
  FORBIDDEN: 403,
  /** An API token without the scope the route needs (issue 41 item 1). */
  INSUFFICIENT_SCOPE: 403,
  /** A route that takes only a signed-in session was called with an API token (issue 41 item 1). */
  SESSION_REQUIRED: 403,
  INSUFFICIENT_CREDITS: 402,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  DUPLICATE_REQUEST: 409,
  ALREADY_MEMBER: 409,
  /** The generation job was cancelled before it finished (issue 12). */
  JOB_CANCELLED: 409,
  /** What is asked needs a render first (issue 24: the export for an editor). */
  NOT_RENDERED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  PROVIDER_ERROR: 502,
  NOT_READY: 503,
  PROVIDER_TIMEOUT: 504,
} as const

/** One of the API's error codes. */
export type ErrorCode = keyof typeof ERROR_STATUS

/** The JSON body of every API error: `{ "error": { "code", "message" } }`. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      /** Per-field messages for VALIDATION_FAILED, keyed by dotted path. */
      fields: z.record(z.string(), z.string()).optional(),
    }),
  })
  .meta({ id: 'ErrorBody' })

export type ErrorBody = z.infer<typeof errorBodySchema>

/**
 * Formats a failed HTTP response the way the client reports it:
 * `<status>: <body text>`, or `<status>: <status text>` when the body is empty.
 * @see spec §8 Generic
 */
export function formatHttpError(status: number, bodyText: string, statusText: string): string {
  return `${status}: ${bodyText || statusText}`
}
