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
 * A serial id in a URL path, as a zod schema (issue 14, thin handlers: path params go
 * through the api's `validate('param', ...)`): the text {@link parseSerialId} accepts,
 * answered as its number; anything else fails ("not found" for the routes that use it).
 */
export const serialIdSchema = z.string().transform((raw, ctx) => {
  const id = parseSerialId(raw)
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'Not an id.' })
    return z.NEVER
  }
  return id
})
