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

/**
 * Compact a project's update log once this many rows were appended since the last
 * compaction (issue 15 item 2): a load then applies at most this many small updates beyond
 * the snapshot (a few ms), and the snapshot plus the REST JSON (about 250 KB for 300 nodes)
 * is rewritten once per this many edits instead of once per store.
 */
export const LOG_COMPACT_UPDATES = 200

/**
 * ...or once the rows appended since the last compaction hold this many bytes (issue 15
 * item 2): a paste or a burst of long texts compacts sooner, so a load never reads more than
 * about this much log beyond the snapshot.
 */
export const LOG_COMPACT_BYTES = 1024 * 1024

/**
 * Compact (and so materialize `projects.nodes/connections`) a project this long after its
 * last append here (issue 15 item 3): a project that stops changing gets its REST JSON and
 * `updated_at` brought up to date and its log emptied without anyone reading it, while a
 * project edited continuously is compacted by LOG_COMPACT_UPDATES only, off the save path.
 */
export const LOG_COMPACT_IDLE_MS = 10_000
