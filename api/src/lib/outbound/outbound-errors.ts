/**
 * What the outbound guard throws (issue 40 items 1 and 3). Each names what it refused, so a
 * caller (a provider, a webhook delivery) words it for a person with its own name; none holds
 * a key or a header.
 */

/** Why a request was refused before or while connecting. */
export type OutboundRefusal =
  /** Not `https:` (nor a trusted or allowed `http:` origin), or no web URL at all. */
  | 'scheme'
  /** The address (literal, or resolved at connect time) is not a public one. */
  | 'address'
  /** More redirects than the policy follows. */
  | 'redirects'

/**
 * A request the guard would not make. `shown` is what to quote to a person: the address it
 * refused (`127.0.0.1`, `::1`), or the scheme and host (`http://10.0.0.1:8080`).
 * @see issue 40 item 1
 */
export class OutboundRefusedError extends Error {
  readonly reason: OutboundRefusal
  readonly shown: string
  /** True when a redirect led there (the first URL was fine). */
  readonly viaRedirect: boolean
  constructor(reason: OutboundRefusal, shown: string, viaRedirect = false) {
    super(`outbound request refused (${reason}): ${shown}`)
    this.name = 'OutboundRefusedError'
    this.reason = reason
    this.shown = shown
    this.viaRedirect = viaRedirect
  }

  /** The same refusal, reached through a redirect. */
  redirected(): OutboundRefusedError {
    return new OutboundRefusedError(this.reason, this.shown, true)
  }
}

/** The policy's time limit ended the request (not the caller's own signal). */
export class OutboundTimeoutError extends Error {
  /** The limit, in ms, when known (a body reader knows only that the stream was cut). */
  readonly timeoutMs: number | undefined
  constructor(timeoutMs: number | undefined, options?: { cause?: unknown }) {
    super(`outbound request took longer than ${timeoutMs ?? 'its limit in'} ms`, options)
    this.name = 'OutboundTimeoutError'
    this.timeoutMs = timeoutMs
  }
}

/**
 * A body larger than its limit: refused by its Content-Length before a byte was read, or
 * stopped as the bytes arrived (`receivedBytes` past `limitBytes`).
 * @see issue 40 item 3
 */
export class BodyTooLargeError extends Error {
  readonly limitBytes: number
  /** The declared Content-Length, when that is what refused it. */
  readonly declaredBytes: number | undefined
  constructor(limitBytes: number, declaredBytes?: number) {
    super(`body larger than ${limitBytes} bytes`)
    this.name = 'BodyTooLargeError'
    this.limitBytes = limitBytes
    this.declaredBytes = declaredBytes
  }
}

/** `bytes` in MiB for people: "10 MB" (whole, rounded up above 1). */
export function megabytes(bytes: number): string {
  const mb = bytes / 1024 ** 2
  return mb >= 1 ? `${Math.floor(mb)} MB` : `${Math.ceil(bytes / 1024)} KB`
}

/**
 * A refusal in words a person can act on, naming who sent the address and what it was:
 * "fal.ai sent a result at an address Reelgraph does not fetch (127.0.0.1): only public https
 * addresses are followed. An operator can allow it with OUTBOUND_ALLOW_HOSTS."
 * @param label who sent it ("fal.ai")
 * @param what what it sent ("a result", "a status URL")
 * @see issue 40 item 1
 */
export function describeRefusal(label: string, what: string, error: OutboundRefusedError): string {
  if (error.reason === 'redirects') {
    return `${label} sent ${what} that redirects ${error.shown} times: Reelgraph stops there.`
  }
  const where = error.viaRedirect
    ? `that redirects to an address Reelgraph does not fetch (${error.shown})`
    : `at an address Reelgraph does not fetch (${error.shown})`
  return `${label} sent ${what} ${where}: only public https addresses are followed. An operator can allow it with OUTBOUND_ALLOW_HOSTS.`
}

/**
 * A body past its limit in words: "fal.ai sent a clip larger than the 10 MB allowed
 * (CLIP_MAX_BYTES); nothing of it was kept."
 * @param setting the setting that raises the limit
 * @see issue 40 item 3
 */
export function describeTooLarge(
  label: string,
  what: string,
  error: BodyTooLargeError,
  setting: string,
): string {
  const size =
    error.declaredBytes === undefined
      ? 'larger than'
      : `of ${megabytes(error.declaredBytes)}, more than`
  return `${label} sent ${what} ${size} the ${megabytes(error.limitBytes)} allowed (${setting}); nothing of it was kept.`
}
