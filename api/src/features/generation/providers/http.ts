import type { z } from 'zod'
import { readBodyBounded, readTextPrefix } from '../../../lib/outbound/bounded-body.ts'
import { guardedFetch, type OutboundPolicy } from '../../../lib/outbound/guarded-fetch.ts'
import {
  DEFAULT_IMAGE_RESULT_MAX_BYTES,
  ERROR_BODY_MAX_BYTES,
} from '../../../lib/outbound/limits.ts'
import {
  BodyTooLargeError,
  describeRefusal,
  describeTooLarge,
  OutboundRefusedError,
} from '../../../lib/outbound/outbound-errors.ts'
import { ProviderError } from '../../../lib/provider-error.ts'
import { malformed, toProviderError, upstreamStatus } from './errors.ts'

/** How much of an upstream error body goes into the log (never into the user's message). */
const ERROR_BODY_LOG_CHARS = 500

/**
 * Largest JSON answer read into memory, in bytes: an image inside it as base64 (4/3 of
 * DEFAULT_IMAGE_RESULT_MAX_BYTES) and its fields.
 */
const JSON_MAX_BYTES = Math.ceil((DEFAULT_IMAGE_RESULT_MAX_BYTES * 4) / 3) + 1024 ** 2

/** How one call goes out (issue 40 item 1). */
export interface HttpOptions {
  /** The outbound guard's policy: the provider's configured base trusted. */
  policy: OutboundPolicy
  /** What the URL is, for a refusal's words ("a result"); default "an address". */
  what?: string
}

/**
 * One HTTP call to a provider through the outbound guard, aborted by `signal`: a non-2xx
 * status is `upstream`, a body that is not JSON or fails `schema` is `malformed`, an abort
 * `timeout`, an address the guard refuses `refused` in words.
 */
export async function fetchJson<T extends z.ZodType>(
  provider: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  schema: T,
  options: HttpOptions,
): Promise<z.output<T>> {
  const response = await send(provider, url, init, options)
  let body: unknown
  try {
    const bytes = await readBodyBounded(response, JSON_MAX_BYTES, init.signal)
    body = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
  } catch (error) {
    throw abortedOr(provider, init.signal, error, () => malformed(provider, error))
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw malformed(provider, parsed.error)
  return parsed.data
}

/**
 * One HTTP download of bytes (e.g. a finished image), with the same error mapping, read into
 * memory only up to `limit.maxBytes` (issue 40 item 3): past it `refused` in words.
 */
export async function fetchBytes(
  provider: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  options: HttpOptions & { limit: { maxBytes: number; setting: string } },
): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  const response = await send(provider, url, init, options)
  try {
    const bytes = await readBodyBounded(response, options.limit.maxBytes, init.signal)
    return { bytes, contentType: response.headers.get('content-type') }
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new ProviderError(
        'refused',
        describeTooLarge(provider, options.what ?? 'a result', error, options.limit.setting),
        { cause: error },
      )
    }
    throw toProviderError(error, provider, init.signal)
  }
}

async function send(
  provider: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  options: HttpOptions,
): Promise<Response> {
  let response: Response
  try {
    response = await guardedFetch(url, init, options.policy)
  } catch (error) {
    if (error instanceof OutboundRefusedError) {
      throw new ProviderError(
        'refused',
        describeRefusal(provider, options.what ?? 'an address', error),
        { cause: error },
      )
    }
    throw toProviderError(error, provider, init.signal)
  }
  if (!response.ok) {
    const detail = await readTextPrefix(response, ERROR_BODY_MAX_BYTES)
    throw upstreamStatus(provider, response.status, {
      status: response.status,
      body: detail.slice(0, ERROR_BODY_LOG_CHARS),
    })
  }
  return response
}

function abortedOr(provider: string, signal: AbortSignal, error: unknown, otherwise: () => Error) {
  return signal.aborted ? toProviderError(error, provider, signal) : otherwise()
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
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

/** The caller's signal, also aborted after `timeoutMs`. */
export function withTimeout(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
}

/** The limit of an image result: `maxBytes` (`IMAGE_RESULT_MAX_BYTES`), else its default. */
export function imageLimitOf(maxBytes: number | undefined): { maxBytes: number; setting: string } {
  return { maxBytes: maxBytes ?? DEFAULT_IMAGE_RESULT_MAX_BYTES, setting: 'IMAGE_RESULT_MAX_BYTES' }
}
