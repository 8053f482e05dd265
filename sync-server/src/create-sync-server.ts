import { Hocuspocus } from '@hocuspocus/server'
import type { DB } from '@reelgraph/db'
import { PERSIST_THROTTLE_MS } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { Registry } from 'prom-client'
import { LOAD_CONCURRENCY, LOAD_QUEUE_MAX, SHUTDOWN_TIMEOUT_MS } from './config.ts'
import { AccessChannel } from './extensions/access-channel.ts'
import { AdmissionExtension } from './extensions/admission.ts'
import { AuthExtension, type SyncContext } from './extensions/auth.ts'
import { PersistenceExtension } from './extensions/persistence.ts'
import { ReelgraphRedis } from './extensions/redis.ts'
import { ValidationExtension } from './extensions/validation.ts'
import { LoadGate } from './load/load-gate.ts'
import { MemoryBudget } from './load/memory-budget.ts'
import type { SyncLogger } from './logger.ts'
import { SyncMetrics } from './metrics.ts'
import { StoredDocumentWriter } from './persistence/stored-document-writer.ts'

/**
 * The sync server: its Hocuspocus instance (whose connections carry a {@link SyncContext})
 * and the extensions other code calls directly, as handles made once by
 * {@link createSyncServer} (nothing looks them up in the extension list).
 */
export interface SyncServer {
  readonly hocuspocus: Hocuspocus<SyncContext>
  /** Loads and stores the documents; `whenStored`, `forget` and `stop` are called from outside. */
  readonly persistence: PersistenceExtension
  /** Tells the other sync servers about access changes; undefined without `redisUrl`. */
  readonly accessChannel: AccessChannel | undefined
  /** Publishes changes to the other sync servers; undefined without `redisUrl`. */
  readonly redis: ReelgraphRedis | undefined
  /** What the open documents cost against the process's memory budget (issue 23). */
  readonly budget: MemoryBudget
  /** The metrics this server registered (issue 23 item 4). */
  readonly metrics: SyncMetrics
  /** The registry they are in: what `/metrics` serves. */
  readonly registry: Registry
  /**
   * Writes REST graph replacements into documents not open here, without opening them
   * (issue 23 item 3; the gateway's `applyGraph`).
   */
  readonly writer: StoredDocumentWriter
}

export interface SyncServerOptions {
  db: Kysely<DB>
  logger: SyncLogger
  /** True in production: the session cookie is then `__Host-session`. */
  secureCookies: boolean
  /** Browser Origins allowed to open the socket (the api's); absent or empty: not checked. */
  allowedOrigins?: readonly string[] | undefined
  /**
   * Longest wait from a document's first unsaved update to its store, in ms (default
   * PERSIST_THROTTLE_MS, 500; issue 15 item 6).
   */
  storeThrottleMs?: number | undefined
  /** Log rows that start a compaction (default LOG_COMPACT_UPDATES; tests lower it). */
  compactUpdates?: number | undefined
  /** Ms after a project's last append before it is compacted (default LOG_COMPACT_IDLE_MS). */
  compactIdleMs?: number | undefined
  /** First wait after a failed store in milliseconds, doubling (default 500). */
  retryBaseMs?: number | undefined
  /** Attempts of one store before it waits for the next change (default 7, issue 11). */
  maxStoreAttempts?: number | undefined
  /**
   * `redis://` URL: when set, documents are shared with every other sync server on the same
   * Redis (several processes behind one `/sync`), and so are access changes (a member's role
   * changed or removed, a project deleted: `extensions/access-channel.ts`, issue 6). Absent: this
   * process is the only one.
   */
  redisUrl?: string | undefined
  /** Namespace of the Redis channels (default `reelgraph`; tests use one per run). */
  redisPrefix?: string | undefined
  /**
   * Estimated heap the open documents may take, in bytes (issue 23 item 2; default
   * MEMORY_BUDGET_HEAP_SHARE of the V8 heap limit).
   */
  memoryBudgetBytes?: number | undefined
  /** Documents loaded at once (default LOAD_CONCURRENCY). */
  loadConcurrency?: number | undefined
  /** Documents that may wait for a load before more are refused as busy (default LOAD_QUEUE_MAX). */
  loadQueueMax?: number | undefined
  /**
   * The prom-client registry to register the metrics in (the process's, with its default
   * metrics); default: a registry of this server's own.
   */
  registry?: Registry | undefined
}

/**
 * Creates the sync server: Hocuspocus 4 with the session-cookie {@link AuthExtension}, the
 * {@link ValidationExtension} (every client update checked before it is applied, issue 11)
 * and the Postgres {@link PersistenceExtension}, appending each document's unsaved updates
 * at most `storeThrottleMs` after the first of them (issue 15) and compacting its log in the
 * background; with `redisUrl`, also {@link ReelgraphRedis}
 * and the {@link AccessChannel} (each with its own Redis clients, closed by
 * {@link closeSyncServer}). Each extension is made once here and handed to the ones that
 * use it (the access channel gets the persistence); the {@link SyncServer} returned carries
 * the handles the gateway and {@link closeSyncServer} need. It does not listen: attach
 * `hocuspocus` to an HTTP server with `attachSyncServer`, and stop it with
 * {@link closeSyncServer}.
 * @see issue 3 item 3; ARCHITECTURE decision 6
 */
export function createSyncServer(options: SyncServerOptions): SyncServer {
  const { db, logger, redisUrl, redisPrefix } = options
  const throttleMs = options.storeThrottleMs ?? PERSIST_THROTTLE_MS
  const auth = new AuthExtension({
    db,
    logger,
    secureCookies: options.secureCookies,
    allowedOrigins: options.allowedOrigins,
  })
  const registry = options.registry ?? new Registry()
  const budget = new MemoryBudget({ limitBytes: options.memoryBudgetBytes })
  const gate = new LoadGate({
    concurrency: options.loadConcurrency ?? LOAD_CONCURRENCY,
    maxQueued: options.loadQueueMax ?? LOAD_QUEUE_MAX,
  })
  // The metrics read the Hocuspocus instance, made below with the extensions that count.
  const made: { hocuspocus?: Hocuspocus<SyncContext> } = {}
  const metrics = new SyncMetrics({
    registry,
    openDocuments: () => made.hocuspocus?.getDocumentsCount() ?? 0,
    connections: () => made.hocuspocus?.getConnectionsCount() ?? 0,
    budget,
    gate,
    db,
  })
  const admission = new AdmissionExtension({ budget, gate, metrics, logger })
  const persistence = new PersistenceExtension({
    db,
    logger,
    budget,
    gate,
    metrics,
    throttleMs,
    retryBaseMs: options.retryBaseMs,
    maxAttempts: options.maxStoreAttempts,
    compactUpdates: options.compactUpdates,
    compactIdleMs: options.compactIdleMs,
    catchUpAfterLoad: redisUrl !== undefined,
  })
  const validation = new ValidationExtension({
    logger,
    sizes: {
      boundOf: (document) => persistence.encodedBytesOf(document),
      measured: (document, bytes) => persistence.measuredBytes(document, bytes),
    },
  })
  const redis = redisUrl
    ? new ReelgraphRedis({ url: redisUrl, prefix: redisPrefix, logger })
    : undefined
  const accessChannel = redisUrl
    ? new AccessChannel({ url: redisUrl, prefix: redisPrefix, logger, persistence })
    : undefined
  const hocuspocus = new Hocuspocus<SyncContext>({
    name: 'reelgraph-sync',
    quiet: true,
    // Hocuspocus' own debounce never stores sooner than the extension's throttle, which
    // makes the trailing store `storeThrottleMs` after the first unsaved update.
    debounce: throttleMs,
    maxDebounce: throttleMs,
    extensions: [
      admission,
      auth,
      validation,
      persistence,
      ...(redis && accessChannel ? [redis, accessChannel] : []),
    ],
  })
  made.hocuspocus = hocuspocus
  const writer = new StoredDocumentWriter({
    db,
    hocuspocus,
    budget,
    logger,
    redis,
    metrics,
    readStored: (projectId) => persistence.storedDocument(projectId),
    noteAppended: (projectId, bytes) => persistence.noteAppended(projectId, bytes),
  })
  return { hocuspocus, persistence, accessChannel, redis, budget, metrics, registry, writer }
}

/**
 * Stops the sync server gracefully: closes every document connection, stores every pending
 * change now (a failing store is tried once more, then given up and logged), and resolves
 * once every document is unloaded or after `timeoutMs` (default 15 s), logging what is left;
 * then disconnects its Redis clients (`onDestroy`), if any.
 * Close the sockets first (`SyncAttachment.close()`), the database after.
 */
export async function closeSyncServer(
  server: SyncServer,
  logger: SyncLogger,
  timeoutMs = SHUTDOWN_TIMEOUT_MS,
): Promise<void> {
  const { hocuspocus, persistence } = server
  server.writer.clear()
  persistence.stop()
  hocuspocus.closeConnections()
  hocuspocus.flushPendingStores()
  const deadline = Date.now() + timeoutMs
  while (hocuspocus.getDocumentsCount() > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const left = [...hocuspocus.documents.keys()]
  if (left.length > 0) logger.error({ documents: left }, 'documents still open at shutdown')
  await hocuspocus.hooks('onDestroy', { instance: hocuspocus })
}
