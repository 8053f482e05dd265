import type { SyncCloseReason } from '@reelgraph/shared'

/**
 * Thrown from a hook to refuse a connection: Hocuspocus answers the client with
 * `permission-denied` carrying `reason` (the provider's `onAuthenticationFailed({ reason })`).
 *
 * The message is left empty on purpose: Hocuspocus prints every hook error that has a
 * message with `console.error`; refusals are expected and logged through our logger instead.
 */
export class SyncRefusal extends Error {
  readonly reason: SyncCloseReason

  constructor(reason: SyncCloseReason) {
    super()
    this.name = 'SyncRefusal'
    this.reason = reason
  }
}
