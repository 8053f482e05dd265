import { Hocuspocus } from '@hocuspocus/server'
import type { DB } from '@reelgraph/db'
import { PERSIST_THROTTLE_MS } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { SHUTDOWN_TIMEOUT_MS } from './config.ts'
import { AccessChannel } from './extensions/access-channel.ts'
import { AuthExtension, type SyncContext } from './extensions/auth.ts'
import { PersistenceExtension } from './extensions/persistence.ts'
import { ReelgraphRedis } from './extensions/redis.ts'
import { ValidationExtension } from './extensions/validation.ts'
import type { SyncLogger } from './logger.ts'

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
  const validation = new ValidationExtension({ logger })
  const persistence = new PersistenceExtension({
    db,
    logger,
    throttleMs,
    retryBaseMs: options.retryBaseMs,
    maxAttempts: options.maxStoreAttempts,
    compactUpdates: options.compactUpdates,
    compactIdleMs: options.compactIdleMs,
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
      auth,
      validation,
      persistence,
      ...(redis && accessChannel ? [redis, accessChannel] : []),
    ],
  })
  return { hocuspocus, persistence, accessChannel }
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
