import { type ErrorBody, errorBodySchema, formatHttpError } from '@reelgraph/shared'
import type { QueryFunction } from '@tanstack/react-query'
import createClient from 'openapi-fetch'
import type { z } from 'zod'
import type { ApiClient, ApiPaths } from './api-contract'

export type { ApiClient, ApiGetPath, ApiPath, ApiPaths } from './api-contract'

/**
 * A non-success HTTP response.
 *
 * - `message` is the spec's generic form `<status>: <body text or status text>` (spec §8).
 * - `serverMessage` is what a person should read: the API's `error.message` when the body is
 *   the JSON error shape `{ "error": { "code", "message", "fields"? } }`, else the body text,
 *   else the status text. Toasts show this one.
 * - `code` and `fields` come from the JSON error body when there is one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status code. */
  readonly status: number
  /** The API's machine-readable error code (shared `ErrorCode`), when the body carried one. */
  readonly code: string | undefined
  /** A human-readable message, fit for a toast. */
  readonly serverMessage: string
  /** Per-field messages for `VALIDATION_FAILED`, keyed by dotted path. */
  readonly fields: Readonly<Record<string, string>> | undefined

  constructor(status: number, statusText: string, bodyText: string) {
    super(formatHttpError(status, bodyText, statusText))
    this.status = status
    const parsed = parseErrorBody(bodyText)
    this.code = parsed?.code
    this.fields = parsed?.fields
    this.serverMessage =
      parsed?.message || bodyText.trim() || statusText || `Request failed with status ${status}`
  }
}

/** Reads the API's error body with the shared schema; null when the body is something else. */
function parseErrorBody(bodyText: string): ErrorBody['error'] | null {
  if (!bodyText) return null
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(bodyText))
    return parsed.success ? parsed.data.error : null
  } catch {
    return null
  }
}

/** The request never got an HTTP answer: offline, DNS, refused connection, CORS... */
export class NetworkError extends Error {
  override readonly name = 'NetworkError'

  constructor(cause: unknown) {
    super('Could not reach the server. Check your connection and try again.', { cause })
  }
}

/**
 * The typed client's `fetch`: a transport failure is a {@link NetworkError} (aborts stay
 * aborts), a non-success answer an {@link ApiError}; a success goes back to openapi-fetch,
 * which reads it. The global `fetch` is looked up per call.
 */
async function send(request: Request): Promise<Response> {
  let res: Response
  try {
    res = await fetch(request)
  } catch (error) {
    if (request.signal.aborted) throw error
    throw new NetworkError(error)
  }
  if (!res.ok) {
    const bodyText = await res.text().catch(() => '')
    throw new ApiError(res.status, res.statusText, bodyText)
  }
  return res
}

/**
 * A client of the api under `baseUrl`, typed by the OpenAPI document the api serves
 * (`api-schema.ts`, written by `npm run openapi -w api`; issue 41 item 4, decision 029): a
 * path, parameter or body the contract does not have fails to typecheck. It sends the session
 * cookie; a JSON body goes with its content type. Calls resolve with `{ data, response }` for
 * a success only (`data`: the parsed JSON, or what `parseAs` asks for).
 * @throws {ApiError} for any non-success status (spec §8 Generic).
 * @throws {NetworkError} when no answer arrives at all.
 * @see spec §7
 */
export function createApiClient(baseUrl: string): ApiClient {
  // openapi-fetch's client as it runs; `ApiClient` types the same calls more strictly.
  return createClient<ApiPaths>({ baseUrl, credentials: 'include', fetch: send }) as ApiClient
}

/**
 * The app's one way to call the api: `api.GET('/projects/{id}', { params: { path: { id } } })`,
 * `api.POST('/projects', { body })`; paths as the document writes them, under `/api`.
 */
export const api = createApiClient('/api')

/**
 * The body of a file upload: the file itself, sent as it is (`bodySerializer`) with its type,
 * or `contentType`, as the content type. Spread it into a call whose body is a file, e.g.
 * `api.POST('/assets/audio', { params, ...fileBody(file) })`.
 */
export function fileBody(file: Blob, contentType?: string) {
  return {
    body: file,
    bodySerializer: (body: Blob) => body,
    headers: { 'Content-Type': contentType ?? (file.type || 'application/octet-stream') },
  }
}

/** What a reading call does with a 401: raise it, or resolve with null (spec §7, §8). */
export type UnauthorizedBehavior = 'returnNull' | 'throw'

/** A typed call of the api for a query: `({ signal }) => api.GET('/user', { signal })`. */
export type ApiRead = (context: { signal: AbortSignal }) => Promise<{ data?: unknown }>

/**
 * The query function of a reading call: makes `call` (a typed call of {@link api}) and checks
 * its answer with the shared `schema` ({@link parseAnswer}; `what` names it in the error).
 *
 * With `on401: 'returnNull'` an unauthenticated answer resolves with `null` instead of
 * throwing (the user and credits queries, spec §7).
 *
 * @throws {ApiError} for any other non-success status; {NetworkError} offline; {Error} for an
 *   answer that does not match `schema`.
 */
export function getQueryFn<T>(options: {
  on401: 'returnNull'
  schema: z.ZodType<T>
  what: string
  call: ApiRead
}): QueryFunction<T | null>
export function getQueryFn<T>(options: {
  on401: 'throw'
  schema: z.ZodType<T>
  what: string
  call: ApiRead
}): QueryFunction<T>
export function getQueryFn<T>({
  on401,
  schema,
  what,
  call,
}: {
  on401: UnauthorizedBehavior
  schema: z.ZodType<T>
  what: string
  call: ApiRead
}): QueryFunction<T | null> {
  return async ({ signal }) => {
    try {
      return parseAnswer(schema, (await call({ signal })).data, what)
    } catch (error) {
      if (on401 === 'returnNull' && isApiError(error, 401)) return null
      throw error
    }
  }
}

/** True for an {@link ApiError} with the given status (and code, when given). */
export function isApiError(error: unknown, status?: number, code?: string): error is ApiError {
  return (
    error instanceof ApiError &&
    (status === undefined || error.status === status) &&
    (code === undefined || error.code === code)
  )
}

/**
 * What to tell a person about a failed call: the server's message for an {@link ApiError},
 * the network failure sentence, else the error's own message.
 */
export function errorMessage(
  error: unknown,
  fallback = 'Something went wrong. Please try again.',
): string {
  if (error instanceof ApiError) return error.serverMessage
  if (error instanceof Error && error.message) return error.message
  return fallback
}

/**
 * Checks an API answer with the shared `schema` (what = "the rename", "the members list",
 * ...), so a malformed answer fails like any other call instead of reaching the screen.
 * @throws {Error} "The server gave an unexpected answer to <what>." when it does not match.
 */
export function parseAnswer<T>(schema: z.ZodType<T>, answer: unknown, what: string): T {
  const parsed = schema.safeParse(answer)
  if (!parsed.success) throw new Error(`The server gave an unexpected answer to ${what}.`)
  return parsed.data
}

/** A file the API answered with: its bytes and the name its Content-Disposition gives. */
export interface ApiFile {
  blob: Blob
  /** From `filename*` (UTF-8) or `filename`; `fallback` when the answer names none. */
  filename: string
}

/** The file name a Content-Disposition header gives, if any. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim())
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header)
  return plain ? (plain[1] ?? plain[2]!).trim() : null
}

/**
 * The file a typed call answered with `parseAs: 'blob'` (e.g. an export's ZIP), named as its
 * Content-Disposition says, else `fallback`.
 */
export function answeredFile(
  answer: { data?: Blob; response: Response },
  fallback: string,
): ApiFile {
  return {
    blob: answer.data ?? new Blob([]),
    filename: dispositionFilename(answer.response.headers.get('content-disposition')) ?? fallback,
  }
}
