/**
 * Tunables of the video (and image) providers of the model catalog, with their units and
 * reasons (issue 22 item 2).
 */

/**
 * Attempts of one provider HTTP call (the first and its retries) on HTTP 429, 5xx or a network
 * failure, before the failure is handed to the job queue, which retries the whole job later.
 * Four attempts ride out a burst limit or a deploy (about 7 s of backoff without Retry-After).
 */
export const PROVIDER_HTTP_ATTEMPTS = 4

/** First wait before a retry that has no `Retry-After`, in ms; it doubles each time. */
export const PROVIDER_RETRY_BASE_MS = 1_000

/**
 * Longest wait before one retry, in ms, even when `Retry-After` asks for more: past it the
 * job queue's own retry (and its delay) is the better place to wait.
 */
export const PROVIDER_RETRY_MAX_MS = 30_000

/**
 * How often a queued or running clip is asked how far it is, in ms. fal's and Replicate's own
 * clients poll every 0.5-1 s; a clip takes minutes, so 2 s feels live and stays polite.
 */
export const CLIP_POLL_INTERVAL_MS = 2_000

/** How long a cancel request may take, in ms, before the abort goes on without its answer. */
export const PROVIDER_CANCEL_TIMEOUT_MS = 5_000

/**
 * How long the call that starts a generation (fal's submit, Replicate's prediction, ComfyUI's
 * prompt) may take, in ms, its retries included (PROVIDER_HTTP_ATTEMPTS with waits of up to
 * PROVIDER_RETRY_MAX_MS). A cancelled job lets it finish within this: the provider may have
 * taken it, and only its answer says how to cancel it there.
 */
export const PROVIDER_SUBMIT_TIMEOUT_MS = 120_000

/**
 * Replicate: start images up to this many bytes go in the input as data URIs, larger ones
 * through Replicate's file upload (`POST /v1/files`): Replicate recommends data URIs only
 * under 1 MB.
 */
export const REPLICATE_DATA_URI_MAX_BYTES = 1_000_000

/** Characters of a provider's own error detail quoted in a message a person reads. */
export const PROVIDER_DETAIL_MAX_CHARS = 200

/** Characters of an upstream error body kept for the log (never shown). */
export const PROVIDER_LOG_BODY_CHARS = 500
