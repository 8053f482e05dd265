/**
 * Defaults of the outbound guard (issue 40 items 1 and 3), with their units and reasons; the
 * operator's settings (`OUTBOUND_TIMEOUT_MS`, `IMAGE_RESULT_MAX_BYTES`, `CLIP_MAX_BYTES`) start from them.
 */

/**
 * Longest single outbound request, in ms, its body included (a poll, a result download, a
 * delivery). 5 min: a 200 MiB clip at 10 Mbit/s takes under 3 min, and AUTOMATIC1111 draws an
 * image inside one request; a host that trickles bytes forever is cut off here.
 */
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 300_000

/**
 * Redirects followed per request, each checked again. Storage behind a CDN uses one or two;
 * more is a loop or a walk towards somewhere else.
 */
export const OUTBOUND_MAX_REDIRECTS = 3

/**
 * Largest image result read into memory, in bytes. 20 MiB: a provider's 1-4 megapixel result
 * is 1-10 MiB even as PNG; more is not the picture that was asked for.
 */
export const DEFAULT_IMAGE_RESULT_MAX_BYTES = 20 * 1024 ** 2

/**
 * Largest clip saved when the caller names no limit, in bytes: `CLIP_MAX_BYTES`'s default
 * (200 MiB: a 20 s 1080p clip at a generous 50 Mbit/s is about 120 MiB).
 */
export const DEFAULT_CLIP_MAX_BYTES = 200 * 1024 ** 2

/**
 * Largest JSON answer of a provider read into memory, in bytes, beyond the image limit: fal
 * may answer an image inline as a data URI (4/3 of its bytes), plus its fields.
 */
export const JSON_ANSWER_EXTRA_BYTES = 1024 ** 2

/** Bytes of an error body read for the log and the provider's words (the rest is dropped). */
export const ERROR_BODY_MAX_BYTES = 64 * 1024
