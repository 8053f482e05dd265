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

/**
 * The default memory budget for open documents: this share of the V8 heap limit (issue 23
 * item 2). The rest is for what each open document costs beyond the estimate, sockets,
 * buffers and the garbage collector's room; a budget set with SYNC_MEMORY_BUDGET_MB replaces it.
 * Half, not more: with 60% (1,170 open 300-node documents on a 4.3 GB heap) the collector
 * saturated the event loop on this 2-core machine and saves slowed to seconds; with half
 * (about 1,050) the process stayed near 65% of a core (decision 012, `bench/src/editors-per-box.ts`).
 */
export const MEMORY_BUDGET_HEAP_SHARE = 0.5

/**
 * Whatever the estimates say, no document is opened while the V8 heap is past this share of
 * its limit (issue 23: a heap-out-of-memory is a defect, so the estimate gets a safety net).
 */
export const HEAP_REFUSE_SHARE = 0.85

/**
 * ... nor, whatever the limit's size, while less than this is left below it, in bytes. V8's
 * `heap_size_limit` counts the young generation's reserve (three semi-spaces: 192 MiB on
 * Node 24 here, with or without `--max-old-space-size`), which the old generation, where a
 * heap-out-of-memory happens, cannot use: a process given a 160 MiB old generation (a
 * container's heap) reads a limit of 352 MiB, 85% of which is past the point where it dies.
 */
export const HEAP_REFUSE_HEADROOM_BYTES = 256 * 1024 * 1024

/**
 * The default budget is also at most this share of where the heap refusal starts
 * (`heapRefusalThresholdBytes`), so that on a small heap the documents leave room for the
 * rest of the process and the collector. With Node's default heap here (4,288 MiB) the
 * MEMORY_BUDGET_HEAP_SHARE is the lower, and decides.
 */
export const MEMORY_BUDGET_REFUSAL_SHARE = 0.6

/**
 * Heap bytes an open Y.Doc takes per byte of its encoded state: measured on the 300-node
 * fixture (`make-graph.mjs 300 7`: 241,779 encoded bytes, 1.93 MB of heap once applied, a
 * ratio of 8.0), rounded up for the Hocuspocus document around it.
 */
export const HEAP_BYTES_PER_DOCUMENT_BYTE = 8.5

/** Heap an open document costs whatever its size (its Hocuspocus document, awareness, state). */
export const DOCUMENT_BASE_COST_BYTES = 64 * 1024

/**
 * What a document about to load is counted at until its size is known: a 300-node project
 * (the size benchmarks use), so a storm of loads cannot all pass the budget at once.
 */
export const DOCUMENT_RESERVATION_BYTES = 2 * 1024 * 1024

/**
 * Documents loaded at once (issue 23 item 2): each load reads its rows and applies them on
 * the event loop; more at once only makes every one of them slower.
 */
export const LOAD_CONCURRENCY = 4

/**
 * Documents that may wait for a load turn; one more is refused as busy and retries later.
 * A few seconds of loads on this 2-core machine (a 300-node project loads in 5 to 10 ms, about
 * a hundred a second with LOAD_CONCURRENCY): well within Hocuspocus' connection timeout,
 * so those admitted are served in turn, and a storm's rest come back with jittered backoff
 * (64 refused most of a storm of 1,000 editors, whose backoff then stretched the admission).
 */
export const LOAD_QUEUE_MAX = 256

/**
 * How long the REST path keeps its copy of a project's stored document unused (issue 23
 * item 3): an autosave every second keeps it; a project nobody PATCHes gives the room back
 * soon after.
 */
export const REST_DOCUMENT_CACHE_IDLE_MS = 30_000

/**
 * How long after reading a project's stored document to check a PATCH body against it (a
 * project's first save in this process) the write may take that read as current without
 * asking the log again (issue 23): the write follows the body's parse at once, and a read
 * this recent is as current as the one the write would make (another process's append in
 * between is caught by the next write, as after any write).
 */
export const REST_READ_FRESH_MS = 1000
