import { ProviderError } from './types.ts'

/**
 * Turns any failure of a provider call into a ProviderError a person can read: an abort or
 * timeout is `timeout`, anything else from the network or the upstream is `upstream`.
 * A ProviderError passes through unchanged.
 */
export function toProviderError(
  error: unknown,
  provider: string,
  signal?: AbortSignal,
): ProviderError {
  if (error instanceof ProviderError) return error
  if (signal?.aborted || isAbortOrTimeout(error)) {
    return new ProviderError('timeout', `${provider} did not answer in time. Please try again.`, {
      cause: error,
    })
  }
  return new ProviderError(
    'upstream',
    `${provider} could not be reached or failed. Please try again.`,
    {
      cause: error,
    },
  )
}

function isAbortOrTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (['AbortError', 'TimeoutError', 'OutboundTimeoutError'].includes(error.name)) return true
  // The openai SDK's names for its own timeout and for an aborted request.
  const ctor = error.constructor.name
  return ctor === 'APIConnectionTimeoutError' || ctor === 'APIUserAbortError'
}

/** A `malformed` ProviderError: the provider answered, but not in the expected shape. */
export function malformed(provider: string, cause?: unknown): ProviderError {
  return new ProviderError(
    'malformed',
    `${provider} sent an answer we could not understand. Please try again.`,
    {
      cause,
    },
  )
}

/** An `upstream` ProviderError for an HTTP error status (401/403 say the key is wrong). */
export function upstreamStatus(provider: string, status: number, cause?: unknown): ProviderError {
  const message =
    status === 401 || status === 403
      ? `${provider} refused the request: check the server's API key or token.`
      : status === 429
        ? `${provider} is busy or the quota is used up (HTTP 429). Please try again later.`
        : `${provider} failed (HTTP ${status}). Please try again.`
  return new ProviderError('upstream', message, { cause, status })
}
