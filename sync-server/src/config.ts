/** Tunables of the sync server, with their units and reasons. */

/** Largest WebSocket message accepted: a full sync of the largest project (5 MiB of JSON) fits. */
export const SYNC_MAX_MESSAGE_BYTES = 16 * 1024 * 1024

/** How long shutdown waits for pending stores before giving up on them (and logging). */
export const SHUTDOWN_TIMEOUT_MS = 15_000

/** How long a closing socket gets to finish its close handshake before it is cut. */
export const SOCKET_CLOSE_GRACE_MS = 1000

/** How long the api waits for a REST PATCH applied to a live document to be stored. */
export const GATEWAY_STORE_TIMEOUT_MS = 15_000

/** How long `closeDocument` waits for a deleted project's document to be unloaded. */
export const GATEWAY_UNLOAD_TIMEOUT_MS = 5000

/**
 * Longest the api waits for Redis to take an access change (issue 6): the local connections
 * are closed already, so a Redis outage must not hold a REST call much longer.
 */
export const ACCESS_PUBLISH_TIMEOUT_MS = 2000
