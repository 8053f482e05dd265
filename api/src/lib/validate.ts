import { findTextProblems } from '@reelgraph/shared'
import type { ValidationTargets } from 'hono'
import { validator } from 'hono-openapi'
import type { z } from 'zod'
import { AppError } from './app-error.ts'

/** How {@link validate} answers a part that fails its schema. */
export interface ValidateOptions {
  /**
   * The error to throw instead of the 400, given the first invalid field: a path id that
   * is not an id is a 404 of the thing it names (`projectNotFound`, ...), like an id that
   * does not exist. Text hygiene failures stay 400.
   */
  onInvalid?: (field: string) => AppError
}

/**
 * Validates a request part with a zod schema from `shared` and documents it in the OpenAPI
 * document. A failure is a 400 VALIDATION_FAILED whose message is the first problem and
 * whose `fields` maps each invalid field to its message. Every string in the part (object
 * keys too) must pass the text hygiene of `shared` (no U+0000, no unpaired surrogate), so
 * no route can store what Postgres refuses (issue 11).
 */
export function validate<S extends z.ZodType, T extends keyof ValidationTargets>(
  target: T,
  schema: S,
  options: ValidateOptions = {},
) {
  return validator(target, schema, (result) => {
    // Text hygiene first, on what was sent: a string Postgres cannot store is refused
    // whatever the schema says of it (issue 11).
    const textProblems = findTextProblems(result.data)
    if (textProblems.length > 0) {
      const fields: Record<string, string> = {}
      for (const { path, problem } of textProblems) {
        fields[path.join('.') || '_'] ??= `This text ${problem}`
      }
      const [first] = textProblems
      throw new AppError(
        'VALIDATION_FAILED',
        `${first?.path.join('.') || 'The request'} ${first?.problem}`,
        { fields },
      )
    }
    if (result.success) return
    if (options.onInvalid) {
      const field = result.error[0]?.path?.[0]
      throw options.onInvalid(typeof field === 'object' ? String(field.key) : String(field ?? ''))
    }
    const fields: Record<string, string> = {}
    for (const issue of result.error) {
      const key = (issue.path ?? [])
        .map((p) => (typeof p === 'object' ? String(p.key) : String(p)))
        .join('.')
      fields[key || '_'] ??= issue.message
    }
    const first = result.error[0]?.message ?? 'The request is not valid.'
    throw new AppError('VALIDATION_FAILED', first, { fields })
  })
}
