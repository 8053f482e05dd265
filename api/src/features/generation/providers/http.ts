import type { z } from 'zod'
import { malformed, toProviderError, upstreamStatus } from './errors.ts'

/** How much of an upstream error body goes into the log (never into the user's message). */
const ERROR_BODY_LOG_CHARS = 500

/**
 * One HTTP call to a provider with `fetch`, aborted by `signal`: a non-2xx status is
 * `upstream`, a body that is not JSON or fails `schema` is `malformed`, an abort `timeout`.
 */
export async function fetchJson<T extends z.ZodType>(
  provider: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
  schema: T,
): Promise<z.output<T>> {
  const response = await send(provider, url, init)
  let body: unknown
  try {
    body = await response.json()
  } catch (error) {
    throw abortedOr(provider, init.signal, error, () => malformed(provider, error))
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw malformed(provider, parsed.error)
  return parsed.data
}

/** One HTTP download of bytes (e.g. a finished image), with the same error mapping. */
export async function fetchBytes(
  provider: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  const response = await send(provider, url, init)
  try {
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { bytes, contentType: response.headers.get('content-type') }
  } catch (error) {
    throw toProviderError(error, provider, init.signal)
  }
}

async function send(
  provider: string,
  url: string,
  init: RequestInit & { signal: AbortSignal },
): Promise<Response> {
  let response: Response
  try {
    response = await fetch(url, init)
  } catch (error) {
    throw toProviderError(error, provider, init.signal)
  }
  if (!response.ok) {
    const detail = await response.text().catch(() => '')
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
