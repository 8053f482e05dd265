import type { z } from 'zod'
import {
  readBodyBounded,
  readTextPrefix,
  writeBodyBounded,
} from '../../../lib/outbound/bounded-body.ts'
import { guardedFetch, type OutboundPolicy } from '../../../lib/outbound/guarded-fetch.ts'
import {
  DEFAULT_CLIP_MAX_BYTES,
  DEFAULT_IMAGE_RESULT_MAX_BYTES,
  ERROR_BODY_MAX_BYTES,
  JSON_ANSWER_EXTRA_BYTES,
} from '../../../lib/outbound/limits.ts'
import {
  BodyTooLargeError,
  describeRefusal,
  describeTooLarge,
  OutboundRefusedError,
  OutboundTimeoutError,
} from '../../../lib/outbound/outbound-errors.ts'
import { ProviderError } from '../../../lib/provider-error.ts'
import {
  PROVIDER_CANCEL_TIMEOUT_MS,
  PROVIDER_DETAIL_MAX_CHARS,
  PROVIDER_HTTP_ATTEMPTS,
  PROVIDER_LOG_BODY_CHARS,
  PROVIDER_RETRY_BASE_MS,
  PROVIDER_RETRY_MAX_MS,
  PROVIDER_SUBMIT_TIMEOUT_MS,
} from './config.ts'

/**
 * The small HTTP layer every provider of the model catalog shares (issue 22 item 2): one call
 * through the outbound guard (issue 40 item 1: the provider's configured base trusted, every
 * other address public https only), HTTP 429, 5xx and network failures retried with backoff
 * that honours `Retry-After`, a budget of attempts, then a transient ProviderError for the job
 * queue to retry; every other failure in words a person can act on; bodies read or streamed to
 * disk only up to their limit (issue 40 item 3).
 */

/** The words of one provider, for the messages a person reads. */
export interface ProviderWords {
  /** Its name for people: "fal.ai", "Replicate". */
  label: string
  /** What to say when it refuses the key: "The fal key was refused: check FAL_KEY." */
  keyRefused: string
}

/** How often and how long a call is retried. */
export interface RetryPolicy {
  /** Attempts in all (the first and its retries). */
  attempts: number
  /** First wait without `Retry-After`, in ms; doubles each time. */
  baseDelayMs: number
  /** Longest single wait, in ms. */
  maxDelayMs: number
}

/** The policy every provider uses unless a test passes its own. */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: PROVIDER_HTTP_ATTEMPTS,
  baseDelayMs: PROVIDER_RETRY_BASE_MS,
  maxDelayMs: PROVIDER_RETRY_MAX_MS,
}

/** What every model refusing for safety says (issue 22 item 2, word for word). */
export const SAFETY_REFUSAL =
  'The model refused this prompt for safety reasons. Change the prompt or the start image and try again.'

/** Words in a provider's error that mean a safety or content-policy refusal. */
const SAFETY_WORDS =
  /safety|nsfw|content[ _-]?polic|moderation|flagged|sensitive content|responsible ai|prohibited|\bE005\b/i

/** True when a provider's error text is a safety refusal. */
export function isSafetyRefusal(text: string): boolean {
  return SAFETY_WORDS.test(text)
}

/** A refusal for safety reasons, final. */
export function safetyRefusal(cause?: unknown): ProviderError {
  return new ProviderError('refused', SAFETY_REFUSAL, { cause })
}

/**
 * How long `Retry-After` asks to wait, in ms: delay-seconds or an HTTP date; undefined when
 * absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * A provider's own words from an error body (fal's `detail`, Replicate's `detail`/`title`,
 * Google's `error.message`, ComfyUI's `error.message`), one line, at most
 * PROVIDER_DETAIL_MAX_CHARS; '' when there are none.
 */
export function providerDetail(body: string): string {
  let text: string
  try {
    text = detailOf(JSON.parse(body) as unknown)
  } catch {
    text = /^\s*</.test(body) ? '' : body // an HTML error page says nothing useful
  }
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > PROVIDER_DETAIL_MAX_CHARS
    ? `${line.slice(0, PROVIDER_DETAIL_MAX_CHARS - 1)}…`
    : line
}

function detailOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) {
    return value
      .map(detailOf)
      .filter((s) => s !== '')
      .join('; ')
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>
    for (const key of ['detail', 'error', 'message', 'msg', 'title', 'exception_message']) {
      const found = o[key] === undefined || o[key] === null ? '' : detailOf(o[key])
      if (found) return found
    }
  }
  return ''
}

/** The kinds an error body names (fal's `type: content_policy_violation`, `code`...). */
function errorTypes(body: string): string {
  const types: string[] = []
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (['type', 'error_type', 'code', 'reason'].includes(key) && typeof inner === 'string') {
          types.push(inner)
        } else walk(inner)
      }
    }
  }
  try {
    walk(JSON.parse(body) as unknown)
  } catch {
    // not JSON: no kinds
  }
  return types.join(' ')
}

/**
 * The ProviderError for a final HTTP status: the key refused (401, 403), a safety refusal
 * (its words in the body), the provider's own reason for a 4xx, or a busy or failing
 * provider (429, 5xx: transient).
 */
export function statusError(words: ProviderWords, status: number, body: string): ProviderError {
  const detail = providerDetail(body)
  const cause = { status, body: body.slice(0, PROVIDER_LOG_BODY_CHARS) }
  if (status === 429) {
    return new ProviderError(
      'upstream',
      `${words.label} is busy or the account's rate limit is reached (HTTP 429). The job will be tried again.`,
      { status, cause },
    )
  }
  if (status >= 500) {
    return new ProviderError(
      'upstream',
      `${words.label} failed (HTTP ${status}). The job will be tried again.`,
      { status, cause },
    )
  }
  if (isSafetyRefusal(`${detail} ${errorTypes(body)}`)) {
    return new ProviderError('refused', SAFETY_REFUSAL, { status, cause })
  }
  const keyWords = /api[ _-]?key/i.test(detail)
  if (
    status === 401 ||
    (status === 403 && !/balance|credit|billing|payment|quota/i.test(detail)) ||
    // Google answers a bad key with 400 INVALID_ARGUMENT "API key not valid".
    (status === 400 && keyWords)
  ) {
    return new ProviderError('upstream', words.keyRefused, { status, cause })
  }
  const reason = detail ? `: ${detail}` : ` (HTTP ${status})`
  return new ProviderError('refused', `${words.label} refused the request${reason}`, {
    status,
    cause,
  })
}

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError')
}

/** The error to throw for an aborted call: the timeout's words, or the cancellation's. */
export function abortError(words: ProviderWords, signal: AbortSignal): ProviderError {
  const reason = signal.reason as { name?: string } | undefined
  return reason?.name === 'TimeoutError'
    ? new ProviderError('timeout', `${words.label} did not finish in time.`, { cause: reason })
    : new ProviderError('unavailable', `The ${words.label} generation was cancelled.`, {
        cause: reason,
      })
}

/** Options of one call. */
export interface CallOptions {
  /** The outbound guard's policy: the provider's base trusted as configured (issue 40). */
  policy: OutboundPolicy
  /** What the URL is, for a refusal's words ("a result", "a status URL"); "an address". */
  what?: string
  retry?: RetryPolicy
  /** Called before each retry with the attempt that failed and the wait, for the log. */
  onRetry?: (info: { attempt: number; status: number | undefined; waitMs: number }) => void
}

/**
 * One HTTP call to a provider: 2xx answers the Response (its body unread); 429, 5xx and
 * network failures are retried within the policy's attempts, waiting what `Retry-After` asks
 * (at most `maxDelayMs`) or a doubling backoff; a request body must be replayable (a string,
 * bytes or FormData), as it is sent again.
 * @throws ProviderError: transient after the last attempt (429, 5xx, network), final for
 *   other statuses (`statusError`), the abort's words when `init.signal` aborts.
 */
export async function providerFetch(
  words: ProviderWords,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  options: CallOptions,
): Promise<Response> {
  const retry = options.retry ?? DEFAULT_RETRY
  for (let attempt = 1; ; attempt++) {
    let response: Response | undefined
    let failure: ProviderError
    try {
      response = await guardedFetch(url, init, options.policy)
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw refusedAddress(words, options.what, error)
      if (error instanceof OutboundTimeoutError) throw tookTooLong(words, error)
      if (isAbort(error, init.signal)) throw abortError(words, init.signal)
      failure = new ProviderError(
        'upstream',
        `${words.label} could not be reached. The job will be tried again.`,
        { cause: error },
      )
    }
    if (response) {
      if (response.ok) return response
      const body = await readTextPrefix(response, ERROR_BODY_MAX_BYTES)
      failure = statusError(words, response.status, body)
      if (!failure.transient) throw failure
    }
    if (attempt >= retry.attempts) throw failure!
    const asked = response ? retryAfterMs(response.headers.get('retry-after')) : undefined
    const waitMs = Math.min(retry.maxDelayMs, asked ?? retry.baseDelayMs * 2 ** (attempt - 1))
    options.onRetry?.({ attempt, status: response?.status, waitMs })
    try {
      await sleep(waitMs, init.signal)
    } catch {
      throw abortError(words, init.signal)
    }
  }
}

/** A refused address in words (final): who sent it, what it was, how to allow it. */
export function refusedAddress(
  words: ProviderWords,
  what: string | undefined,
  error: OutboundRefusedError,
): ProviderError {
  return new ProviderError('refused', describeRefusal(words.label, what ?? 'an address', error), {
    cause: error,
  })
}

/** The guard's time limit in words (final: the budget was spent waiting). */
function tookTooLong(words: ProviderWords, error: OutboundTimeoutError): ProviderError {
  return new ProviderError('timeout', `${words.label} did not finish in time.`, { cause: error })
}

/**
 * Largest JSON answer read, in bytes: an image answered inline (a data URI, 4/3 of its bytes)
 * of IMAGE_RESULT_MAX_BYTES and its fields.
 */
export const DEFAULT_JSON_MAX_BYTES =
  Math.ceil((DEFAULT_IMAGE_RESULT_MAX_BYTES * 4) / 3) + JSON_ANSWER_EXTRA_BYTES

/** A body that could not be read whole: too large, too slow, aborted or broken off. */
function readFailure(
  words: ProviderWords,
  error: unknown,
  signal: AbortSignal,
  tooLarge: { what: string; setting: string },
): ProviderError {
  if (error instanceof BodyTooLargeError) {
    return new ProviderError(
      'refused',
      describeTooLarge(words.label, tooLarge.what, error, tooLarge.setting),
      { cause: error },
    )
  }
  if (error instanceof OutboundTimeoutError) return tookTooLong(words, error)
  if (isAbort(error, signal)) return abortError(words, signal)
  return new ProviderError(
    'upstream',
    `The download from ${words.label} broke off. The job will be tried again.`,
    { cause: error },
  )
}

/**
 * {@link providerFetch} and the answer's JSON (at most DEFAULT_JSON_MAX_BYTES) checked by
 * `schema`.
 * @throws ProviderError as providerFetch does; `malformed` when the body is not JSON or not
 *   of the expected shape; `refused` when it is larger than its limit.
 */
export async function providerJson<T extends z.ZodType>(
  words: ProviderWords,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  schema: T,
  options: CallOptions,
): Promise<z.output<T>> {
  const response = await providerFetch(words, url, init, options)
  let bytes: Uint8Array
  try {
    bytes = await readBodyBounded(response, DEFAULT_JSON_MAX_BYTES, init.signal)
  } catch (error) {
    throw readFailure(words, error, init.signal, { what: 'an answer', setting: 'its JSON limit' })
  }
  let body: unknown
  try {
    body = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
  } catch (error) {
    throw malformedAnswer(words, error)
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw malformedAnswer(words, parsed.error)
  return parsed.data
}

/** `malformed`: the provider answered, but not in the shape its protocol has. */
export function malformedAnswer(words: ProviderWords, cause?: unknown): ProviderError {
  return new ProviderError(
    'malformed',
    `${words.label} sent an answer we could not understand. Please try again.`,
    { cause },
  )
}

/** A result read under a byte limit: what it is and the setting that raises the limit. */
export interface ResultLimit {
  /** Bytes at most. */
  maxBytes: number
  /** The setting a person raises it with (`CLIP_MAX_BYTES`, `IMAGE_RESULT_MAX_BYTES`). */
  setting: string
}

/**
 * Downloads `url` into a new file at `path` (absolute), streaming: the bytes never sit whole
 * in memory, and stop at `limit.maxBytes` as they arrive (a larger Content-Length is refused
 * before reading). A failed, aborted or too large download leaves no file behind. The URL is
 * read once: a result that answers only once is not asked again after its body started.
 * @throws ProviderError as providerFetch does; `refused` (final) past the limit; `upstream`
 *   (transient) when the body breaks off mid-way.
 * @see issue 40 item 3
 */
export async function downloadTo(
  words: ProviderWords,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  path: string,
  options: CallOptions & { limit: ResultLimit },
): Promise<void> {
  const what = options.what ?? 'a result'
  const response = await providerFetch(words, url, init, { ...options, what })
  if (!response.body) throw malformedAnswer(words, new Error('empty body'))
  try {
    await writeBodyBounded(response, path, options.limit.maxBytes, init.signal)
  } catch (error) {
    throw readFailure(words, error, init.signal, { what, setting: options.limit.setting })
  }
}

/**
 * The bytes at `url` (an image result), at most `limit.maxBytes` read into memory.
 * @throws ProviderError as providerFetch does; `refused` (final) past the limit; `upstream`
 *   (transient) when the body breaks off mid-way.
 * @see issue 40 item 3
 */
export async function downloadBytes(
  words: ProviderWords,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  options: CallOptions & { limit: ResultLimit },
): Promise<Uint8Array> {
  const what = options.what ?? 'a result'
  const response = await providerFetch(words, url, init, { ...options, what })
  try {
    return await readBodyBounded(response, options.limit.maxBytes, init.signal)
  } catch (error) {
    throw readFailure(words, error, init.signal, { what, setting: options.limit.setting })
  }
}

/** `data:<mime>;base64,<bytes>`: how a start image travels inside a JSON input. */
export function dataUri(image: { bytes: Uint8Array; mimeType: string }): string {
  return `data:${image.mimeType};base64,${Buffer.from(image.bytes).toString('base64')}`
}

/** True when `url` lies on the same origin as `base` (a provider's key goes only there). */
export function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin
  } catch {
    return false
  }
}

/**
 * Refuses, in words, a URL that needs the provider's key but lies on another origin than the
 * provider's configured base: the key is never sent there (issue 40 item 2).
 * @param what what it is ("a status URL")
 * @param setting the base's setting ("FAL_QUEUE_URL")
 * @throws ProviderError `refused` when `url` is not on `base`'s origin
 */
export function requireKeyOrigin(
  words: ProviderWords,
  url: string,
  base: string,
  what: string,
  setting: string,
): void {
  if (sameOrigin(url, base)) return
  let shown = url
  try {
    shown = new URL(url).origin
  } catch {
    // not a URL: quoted as it came
  }
  throw new ProviderError(
    'refused',
    `${words.label} sent ${what} on another address (${shown.slice(0, 100)}) than ${setting}: its key goes only to ${setting}, so Reelgraph does not follow it.`,
  )
}

/** The limit of a clip: `maxBytes` (the job's `CLIP_MAX_BYTES`), else its default. */
export function clipLimit(maxBytes: number | undefined): ResultLimit {
  return { maxBytes: maxBytes ?? DEFAULT_CLIP_MAX_BYTES, setting: 'CLIP_MAX_BYTES' }
}

/** The limit of an image result: `maxBytes` (`IMAGE_RESULT_MAX_BYTES`), else its default. */
export function imageLimit(maxBytes: number | undefined): ResultLimit {
  return { maxBytes: maxBytes ?? DEFAULT_IMAGE_RESULT_MAX_BYTES, setting: 'IMAGE_RESULT_MAX_BYTES' }
}

/**
 * Sends a cancel request without waiting on the aborted signal: its own timeout, any failure
 * swallowed (the abort goes on either way).
 */
export async function bestEffort(
  call: (signal: AbortSignal) => Promise<unknown>,
  timeoutMs: number,
) {
  try {
    await call(AbortSignal.timeout(timeoutMs))
  } catch {
    // The provider may have finished or be unreachable: nothing more to do.
  }
}

/**
 * Runs a generation at a provider so that a cancel reaches it there, whenever it comes.
 * `submit` starts it: nothing is sent when `signal` has aborted already, and once sent it is
 * not aborted by `signal` (the provider may have taken it, and only its answer says how to
 * cancel it); it gets `submitSignal`, which ends only at PROVIDER_SUBMIT_TIMEOUT_MS. `follow`
 * then polls it to its result, under `signal`. When `signal` aborts during either, `cancel`
 * is sent for what was started (best effort, within PROVIDER_CANCEL_TIMEOUT_MS) and the
 * abort's words are thrown.
 * @returns what `follow` answered
 * @throws ProviderError the submit's or the follow's own failure, or the abort's words
 *   (`abortError`)
 */
export async function runGeneration<Started, Result>(options: {
  words: ProviderWords
  signal: AbortSignal
  submit: (submitSignal: AbortSignal) => Promise<Started>
  follow: (started: Started) => Promise<Result>
  cancel: (started: Started, cancelSignal: AbortSignal) => Promise<unknown>
}): Promise<Result> {
  const { words, signal } = options
  if (signal.aborted) throw abortError(words, signal)
  const started = await options.submit(AbortSignal.timeout(PROVIDER_SUBMIT_TIMEOUT_MS))
  try {
    if (signal.aborted) throw abortError(words, signal)
    return await options.follow(started)
  } catch (error) {
    if (!signal.aborted) throw error
    await bestEffort(
      (cancelSignal) => options.cancel(started, cancelSignal),
      PROVIDER_CANCEL_TIMEOUT_MS,
    )
    throw abortError(words, signal)
  }
}

/** A model the provider does not know (the catalog changed under a queued job). */
export function unknownModel(modelId: string): ProviderError {
  return new ProviderError(
    'refused',
    `The model ${modelId} is not available any more. Pick another model.`,
  )
}
