import { type ErrorBody, errorBodySchema, formatHttpError } from '@reelgraph/shared'
import type { QueryFunction } from '@tanstack/react-query'
import type { z } from 'zod'

/** The HTTP methods the app uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

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

/** `fetch` that turns a transport failure into a {@link NetworkError} (aborts stay aborts). */
async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    if (init.signal?.aborted) throw error
    throw new NetworkError(error)
  }
}

/** Throws an {@link ApiError} for a non-success response; returns it untouched otherwise. */
async function throwIfNotOk(res: Response): Promise<Response> {
  if (!res.ok) {
    const bodyText = await res.text().catch(() => '')
    throw new ApiError(res.status, res.statusText, bodyText)
  }
  return res
}

/** Reads a body as JSON when it says it is JSON, else as text; `null` for an empty body. */
async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null
  const text = await res.text()
  if (!text) return null
  const contentType = res.headers.get('content-type') ?? ''
  return /\bjson\b/i.test(contentType) ? JSON.parse(text) : text
}

/**
 * Calls the API with the session cookie. A JSON body (and its content type) is sent only
 * when `body` is given. Resolves with the parsed JSON body (or the text of a non-JSON one,
 * or null when empty).
 *
 * @throws {ApiError} for any non-success status (spec §8 Generic).
 * @throws {NetworkError} when no answer arrives at all.
 * @see spec §7
 */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  url: string,
  body?: unknown,
  init?: { signal?: AbortSignal },
): Promise<T> {
  return (await readBody(await call(method, url, body, init))) as T
}

/** Sends a call with the session cookie (and a JSON body when given); a non-success throws. */
async function call(
  method: HttpMethod,
  url: string,
  body: unknown,
  init: { signal?: AbortSignal } | undefined,
): Promise<Response> {
  const res = await send(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: init?.signal,
  })
  return throwIfNotOk(res)
}

/**
 * Sends a file as the raw request body (its type as the content type) with the session
 * cookie (or `init.contentType`), e.g. a music upload; resolves with the parsed answer as {@link apiRequest} does.
 * @throws {ApiError} for any non-success status; {NetworkError} when no answer arrives.
 */
export async function apiUpload<T = unknown>(
  url: string,
  file: Blob,
  init?: { signal?: AbortSignal; contentType?: string },
): Promise<T> {
  const res = await send(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': init?.contentType ?? (file.type || 'application/octet-stream') },
    body: file,
    signal: init?.signal,
  })
  return (await readBody(await throwIfNotOk(res))) as T
}

/** What a reading call does with a 401: raise it, or resolve with null (spec §7, §8). */
/**
 * {@link apiRequest} for an answer that is a file (audio, an image): the body as a Blob.
 * @throws {ApiError} for any non-success status; {NetworkError} when no answer arrives.
 */
export async function apiBlob(
  method: HttpMethod,
  url: string,
  body?: unknown,
  init?: { signal?: AbortSignal },
): Promise<Blob> {
  return (await call(method, url, body, init)).blob()
}

export type UnauthorizedBehavior = 'returnNull' | 'throw'

/**
 * The reading call: GETs the URL in `queryKey[0]` with the session cookie and checks the
 * answer with the shared `schema` ({@link parseAnswer}; `what` names it in the error). Only
 * the app's fallback query function goes without one.
 *
 * With `on401: 'returnNull'` an unauthenticated answer resolves with `null` instead of
 * throwing (the user and credits queries, spec §7).
 *
 * @throws {ApiError} for any other non-success status; {Error} for an answer that does not
 *   match `schema`.
 */
export function getQueryFn<T>(options: {
  on401: 'returnNull'
  schema: z.ZodType<T>
  what: string
}): QueryFunction<T | null>
export function getQueryFn<T>(options: {
  on401: 'throw'
  schema: z.ZodType<T>
  what: string
}): QueryFunction<T>
export function getQueryFn(options: { on401: UnauthorizedBehavior }): QueryFunction<unknown>
export function getQueryFn<T>({
  on401,
  schema,
  what,
}: {
  on401: UnauthorizedBehavior
  schema?: z.ZodType<T>
  what?: string
}): QueryFunction<T | null | unknown> {
  return async ({ queryKey, signal }) => {
    const url = queryKey[0]
    if (typeof url !== 'string')
      throw new TypeError('The first element of a query key must be a URL')
    const res = await send(url, { credentials: 'include', signal })
    if (on401 === 'returnNull' && res.status === 401) return null
    await throwIfNotOk(res)
    const body = await readBody(res)
    return schema ? parseAnswer(schema, body, what ?? url) : body
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
 * POSTs a JSON body with the session cookie and resolves with the file the API answers
 * (e.g. an export's ZIP), named as its Content-Disposition says, else `fallback`.
 * @throws {ApiError} for any non-success status; {NetworkError} when no answer arrives.
 */
export async function apiPostForFile(
  url: string,
  body: unknown,
  fallback: string,
  init?: { signal?: AbortSignal },
): Promise<ApiFile> {
  const res = await call('POST', url, body, init)
  return {
    blob: await res.blob(),
    filename: dispositionFilename(res.headers.get('content-disposition')) ?? fallback,
  }
}
