import { IncomingMessage } from 'node:http'
import { findTextProblems } from '@reelgraph/shared'
import type { Context, Env, MiddlewareHandler, ValidationTargets } from 'hono'
import { resolver, uniqueSymbol, validator } from 'hono-openapi'
import { HTTPException } from 'hono/http-exception'
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

/** What hono's JSON validator takes for a JSON body: `application/json` or `application/*+json`. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i
const utf8 = new TextDecoder()

/**
 * A JSON request body as sent: its bytes, and its value, parsed with `JSON.parse` when first
 * asked for unless a reader that answers the same value gave it first ({@link JsonBody.read}).
 */
export class JsonBody {
  /** The body's bytes (empty when its content type is not JSON: then its value is `{}`). */
  readonly bytes: Uint8Array
  /** The value, once known (`JSON.parse` never gives undefined). */
  #value: unknown

  constructor(bytes: Uint8Array, value?: unknown) {
    this.bytes = bytes
    this.#value = value
  }

  /**
   * The body's value.
   * @throws HTTPException 400 "Malformed JSON in request body" (as hono's JSON validator
   *   throws it; the error handler answers INVALID_JSON)
   */
  value(): unknown {
    if (this.#value === undefined) {
      try {
        this.#value = JSON.parse(utf8.decode(this.bytes))
      } catch {
        throw new HTTPException(400, { message: 'Malformed JSON in request body' })
      }
    }
    return this.#value
  }

  /** Takes `value` as the body's value: it must be what `JSON.parse` gives for its bytes. */
  read(value: unknown): void {
    this.#value = value
  }
}

/**
 * {@link validate} for a JSON body whose parse needs the request: `parse` answers exactly
 * what `schema.safeParse` would for the body's value (faster, with what the request knows: a
 * project's nodes known valid, issue 23), may read the value from the bytes itself
 * (`JsonBody.read`), and may wait for what it needs or throw the request's own error (a 404
 * or 403 for a project the caller may not write); `schema` documents the body. The same 400s
 * as `validate`, malformed JSON and a wrong content type (read as `{}`, as hono does) included.
 */
export function validateJson<S extends z.ZodType, E extends Env>(
  schema: S,
  /**
   * Parses the body; may add to `clean` the body's objects whose text it knows to be clean
   * (the text hygiene check then skips them).
   */
  parse: (
    body: JsonBody,
    c: Context<E>,
    clean: Set<object>,
  ) => z.ZodSafeParseResult<z.output<S>> | Promise<z.ZodSafeParseResult<z.output<S>>>,
  options: ValidateOptions = {},
) {
  const middleware: MiddlewareHandler<
    E,
    string,
    { in: { json: z.input<S> }; out: { json: z.output<S> } }
  > = async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim()
    const body = JSON_MEDIA_TYPE.test(mediaType)
      ? new JsonBody(await bodyBytes(c))
      : new JsonBody(new Uint8Array(0), {})
    const clean = new Set<object>()
    const result = await parse(body, c, clean)
    refuseInvalid(body.value(), result.success ? [] : result.error.issues, options, clean)
    c.req.addValidatedData('json', result.data as object)
    await next()
  }
  // What hono-openapi's own validator attaches, for the OpenAPI document.
  return Object.assign(middleware, {
    [uniqueSymbol]: { target: 'json', ...resolver(schema), options: undefined },
  })
}

/**
 * Whether `incoming` is a body of declared length that nothing has started reading: Node's
 * HTTP parser holds it to its Content-Length, which `limitBody` has judged. A chunked body is
 * counted as it streams by hono's `bodyLimit`, so it is read through hono.
 */
function unreadWithLength(incoming: unknown): incoming is IncomingMessage {
  return (
    incoming instanceof IncomingMessage &&
    incoming.headers['content-length'] !== undefined &&
    incoming.headers['transfer-encoding'] === undefined &&
    !incoming.readableDidRead &&
    incoming.listenerCount('data') === 0 &&
    incoming.listenerCount('readable') === 0
  )
}

/**
 * The request body's bytes. Under @hono/node-server, a body of declared length that nothing
 * has read yet is read straight off Node's `IncomingMessage` (`c.env.incoming`) into one
 * buffer: hono's `arrayBuffer()` copies the adapter's buffer into a new ArrayBuffer, and on a
 * 200 KB REST autosave that copy is external memory whose churn starts most of the api's
 * full collections (issue 23; decision 023). Anything else (`app.request` in tests, a chunked
 * body, a body a middleware read) hono reads.
 * @throws Error when the connection closes before the body ends
 */
async function bodyBytes(c: Context): Promise<Uint8Array> {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming
  if (!unreadWithLength(incoming)) return new Uint8Array(await c.req.arrayBuffer())
  // Not `buffer()` from node:stream/consumers: it gathers the chunks into a Blob and copies
  // that into an ArrayBuffer, two copies where this makes one (none for a single chunk).
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    length += chunk.byteLength
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)
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
