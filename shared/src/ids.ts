import { z } from 'zod'

/** The largest value of a Postgres `integer` (serial) column. */
export const MAX_SERIAL_ID = 2_147_483_647

/**
 * A serial id written in a URL or a document name: a positive decimal integer without
 * leading zeros or signs, at most {@link MAX_SERIAL_ID}. Anything else is null (callers
 * answer it as "not found", like an id that does not exist).
 */
export function parseSerialId(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null
  const id = Number(raw)
  return id <= MAX_SERIAL_ID ? id : null
}

/**
 * A database id as a number in a JSON body (issue 40 item 7: one id schema for every
 * database id): a whole number from 1 to {@link MAX_SERIAL_ID}, the range of a Postgres
 * `integer` column. Anything else (2^31, 1e20, -1, 1.5, "abc") fails with `message`, so the
 * request is a 400 in words and never reaches a query that Postgres would refuse (a 500).
 * @param message what the caller is told, naming the field (`projectId must be ...`)
 */
export function databaseIdSchema(message: string) {
  return z
    .number({ error: message })
    .int({ error: message })
    .min(1, { error: message })
    .max(MAX_SERIAL_ID, { error: message })
}

/**
 * A database id written as text (a URL path or a query string), as a zod schema: the text
 * {@link parseSerialId} accepts, answered as its number; anything else fails with `message`.
 * The text form of {@link databaseIdSchema} (issue 40 item 7).
 */
export function databaseIdTextSchema(message: string) {
  return z.string({ error: message }).transform((raw, ctx) => {
    const id = parseSerialId(raw)
    if (id === null) {
      ctx.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    return id
  })
}

/** What a request is told about a `projectId` that is no project's id. */
export const PROJECT_ID_MESSAGE = 'projectId must be the id of your project.'

/**
 * `projectId` in a JSON body: {@link databaseIdSchema} with {@link PROJECT_ID_MESSAGE}
 * (issue 40 item 7). Every request schema's `projectId` is this one.
 */
export const projectIdSchema = databaseIdSchema(PROJECT_ID_MESSAGE)

/** `projectId` in a query string (`?projectId=42`): {@link databaseIdTextSchema} (issue 40 item 7). */
export const projectIdQuerySchema = databaseIdTextSchema(PROJECT_ID_MESSAGE)

/**
 * A serial id in a URL path, as a zod schema (issue 14, thin handlers: path params go
 * through the api's `validate('param', ...)`): {@link databaseIdTextSchema}; anything else
 * fails ("not found" for the routes that use it).
 */
export const serialIdSchema = databaseIdTextSchema('Not an id.')

/**
 * What a generation job's id looks like: a UUID, in either case (the api makes them with
 * `randomUUID`; the `generation_jobs.id` column is a uuid).
 */
export const JOB_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A job id in a URL path (`/api/jobs/:id`), as a zod schema for the api's
 * `validate('param', ...)`: anything not shaped like {@link JOB_ID_PATTERN} fails (the routes
 * answer it as a job that does not exist).
 */
export const jobIdSchema = z.string().regex(JOB_ID_PATTERN, 'Not a job id.')

/** What a generated file's id looks like: 32 lower-case RFC 4648 base32 characters. */
export const ASSET_ID_PATTERN = /^[a-z2-7]{32}$/

/**
 * An asset id in a URL path (`/api/assets/:id`), as a zod schema for the api's
 * `validate('param', ...)`: anything not shaped like {@link ASSET_ID_PATTERN} fails (the route
 * answers it as a file that does not exist).
 */
export const assetIdSchema = z.string().regex(ASSET_ID_PATTERN, 'Not a file id.')
