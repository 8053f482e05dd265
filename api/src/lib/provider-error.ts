/**
 * The failure of a call to a service outside Reelgraph (an AI, speech or video provider): the
 * job runner reads `transient` to retry or fail, and `message` is shown to people. It lives
 * here, below the features, because generation, assets, video and the job runner all meet it.
 */

/**
 * Why a provider call failed. `refused`: the provider read the request and said no for good
 * (a safety refusal, an input the model does not take, a generation it reports as failed;
 * issue 22 item 2).
 */
export type ProviderErrorKind = 'timeout' | 'upstream' | 'malformed' | 'unavailable' | 'refused'

/**
 * A provider call that failed. `message` is safe to show a person (no keys, no raw
 * upstream bodies); `cause` keeps the detail for the log.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  /** The upstream HTTP status, when the provider answered one. */
  readonly status: number | undefined
  constructor(
    kind: ProviderErrorKind,
    message: string,
    options?: { cause?: unknown; status?: number | undefined },
  ) {
    super(message, options)
    this.name = 'ProviderError'
    this.kind = kind
    this.status = options?.status
  }

  /**
   * True when trying again later may succeed (issue 12: the job is retried with backoff):
   * HTTP 429 or 5xx, or an upstream failure without a status (the network). Malformed answers,
   * other 4xx (a wrong key, a refused prompt), refusals, cancellations and timeouts (the whole
   * budget was spent waiting; retrying would multiply it) are final.
   */
  get transient(): boolean {
    if (this.kind !== 'upstream') return false
    return this.status === undefined || this.status === 429 || this.status >= 500
  }
}
