/**
 * Why a speech call failed: the same kinds as the api's `ProviderError` (media may not import
 * api), so a job or a route maps both the same way.
 * - `timeout`: the caller's signal or the provider's timeout ended the call.
 * - `upstream`: the provider answered with an error status, or could not be reached.
 * - `malformed`: the provider answered, but not with audio we can read.
 * - `unavailable`: the provider cannot run here (e.g. the builtin engine failed to start).
 */
export type SpeechErrorKind = 'timeout' | 'upstream' | 'malformed' | 'unavailable'

/**
 * A speech call that failed. `message` is safe to show a person (no keys, no raw upstream
 * bodies); `cause` keeps the detail for the log. `retryable` says whether the same call may
 * succeed later unchanged: timeouts, network failures, HTTP 408, 429 and 5xx are; 4xx
 * (a wrong key, an unknown voice), malformed answers and an unavailable engine are not.
 * @see issue 13 item 1
 */
export class SpeechError extends Error {
  readonly kind: SpeechErrorKind
  readonly retryable: boolean
  /** The upstream HTTP status, when there was one. */
  readonly status: number | undefined
  constructor(
    kind: SpeechErrorKind,
    message: string,
    options: { retryable: boolean; status?: number | undefined; cause?: unknown },
  ) {
    super(message, { cause: options.cause })
    this.name = 'SpeechError'
    this.kind = kind
    this.retryable = options.retryable
    this.status = options.status
  }
}

/** Whether an HTTP status is worth retrying: the provider is busy or failed, not refusing us. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/** An `upstream` SpeechError for an HTTP error status (401/403 say the key is wrong). */
export function statusError(provider: string, status: number, cause?: unknown): SpeechError {
  const message =
    status === 401 || status === 403
      ? `${provider} refused the request: check the server's API key.`
      : status === 429
        ? `${provider} is busy or the quota is used up (HTTP 429). Please try again later.`
        : status === 404 || status === 422 || status === 400
          ? `${provider} refused the request (HTTP ${status}): check the voice and model.`
          : `${provider} failed (HTTP ${status}). Please try again.`
  return new SpeechError('upstream', message, {
    retryable: isRetryableStatus(status),
    status,
    cause,
  })
}

/** A `malformed` SpeechError: the provider answered, but not in the expected shape. */
export function malformedError(provider: string, cause?: unknown): SpeechError {
  return new SpeechError(
    'malformed',
    `${provider} sent an answer we could not understand. Please try again.`,
    { retryable: false, cause },
  )
}

/**
 * Any failure of a provider call as a SpeechError: an abort or timeout (the signal aborted,
 * or an error named like one) is `timeout`, anything else `upstream`, both retryable.
 * A SpeechError or RangeError passes through unchanged.
 */
export function toSpeechError(
  error: unknown,
  provider: string,
  signal?: AbortSignal,
): SpeechError | RangeError {
  if (error instanceof SpeechError || error instanceof RangeError) return error
  if (signal?.aborted || isAbortOrTimeout(error)) {
    return new SpeechError('timeout', `${provider} did not answer in time. Please try again.`, {
      retryable: true,
      cause: error,
    })
  }
  return new SpeechError(
    'upstream',
    `${provider} could not be reached or failed. Please try again.`,
    {
      retryable: true,
      cause: error,
    },
  )
}

function isAbortOrTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true
  // The SDKs' own names for a timeout and for an aborted request.
  const ctor = error.constructor.name
  return (
    ctor === 'APIConnectionTimeoutError' ||
    ctor === 'APIUserAbortError' ||
    ctor === 'ElevenLabsTimeoutError'
  )
}
