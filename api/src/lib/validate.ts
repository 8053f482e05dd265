import { findTextProblems } from '@reelgraph/shared'
import type { Context, Env, ValidationTargets } from 'hono'
import { resolver, uniqueSymbol, validator } from 'hono-openapi'
import { validator as bodyValidator } from 'hono/validator'
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
    refuseInvalid(result.data, result.success ? [] : result.error, options)
  })
}

/**
 * {@link validate} for a JSON body whose parse needs the request: `parse` answers exactly
 * what `schema.safeParse` would (faster, with what the request knows: a project's nodes
 * known valid, issue 23), and may wait for what it needs or throw the request's own error
 * (a 404 or 403 for a project the caller may not write); `schema` documents the body. The
 * same 400s as `validate`, malformed JSON and a wrong content type included.
 */
export function validateJson<S extends z.ZodType, E extends Env>(
  schema: S,
  /**
   * Parses the body; may add to `clean` the body's objects whose text it knows to be clean
   * (the text hygiene check then skips them).
   */
  parse: (
    body: unknown,
    c: Context<E>,
    clean: Set<object>,
  ) => z.ZodSafeParseResult<z.output<S>> | Promise<z.ZodSafeParseResult<z.output<S>>>,
  options: ValidateOptions = {},
) {
  const middleware = bodyValidator('json', async (body, c: Context<E>): Promise<z.output<S>> => {
    const clean = new Set<object>()
    const result = await parse(body, c, clean)
    refuseInvalid(body, result.success ? [] : result.error.issues, options, clean)
    return result.data as z.output<S>
  })
  // What hono-openapi's own validator attaches, for the OpenAPI document.
  return Object.assign(middleware, {
    [uniqueSymbol]: { target: 'json', ...resolver(schema), options: undefined },
  })
}

/** An issue as standard schema and zod report it: its message and where it is. */
interface Issue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
}

/**
 * Throws the 400 for a request part (`data`, as sent) with its schema's `issues` (none when
 * it passed): text hygiene first, then the first issue's message and every field's.
 * @throws AppError VALIDATION_FAILED (or `options.onInvalid`'s error)
 */
function refuseInvalid(
  data: unknown,
  issues: readonly Issue[],
  options: ValidateOptions,
  clean?: ReadonlySet<object>,
): void {
  // Text hygiene first, on what was sent: a string Postgres cannot store is refused
  // whatever the schema says of it (issue 11).
  const textProblems = findTextProblems(data, 20, clean)
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
  if (issues.length === 0) return
  if (options.onInvalid) {
    const field = issues[0]?.path?.[0]
    throw options.onInvalid(typeof field === 'object' ? String(field.key) : String(field ?? ''))
  }
  const fields: Record<string, string> = {}
  for (const issue of issues) {
    const key = (issue.path ?? [])
      .map((p) => (typeof p === 'object' ? String(p.key) : String(p)))
      .join('.')
    fields[key || '_'] ??= issue.message
  }
  const first = issues[0]?.message ?? 'The request is not valid.'
  throw new AppError('VALIDATION_FAILED', first, { fields })
}
