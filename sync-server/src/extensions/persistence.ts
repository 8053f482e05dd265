import type {
  afterLoadDocumentPayload,
  afterUnloadDocumentPayload,
  connectedPayload,
  Extension,
  LocalTransactionOrigin,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server'
import {
  appendProjectUpdate,
  applyStoredDocument,
  type DB,
  readProjectDocument,
  readProjectDocumentChanges,
  seedSnapshot,
  type StoredProjectDocument,
} from '@reelgraph/db'
import {
  type Graph,
  encodeSavedSnapshot,
  PERSIST_THROTTLE_MS,
  projectIdOfDocument,
  type SavedMessage,
  type SaveFailedMessage,
  SYNC_CLOSE_REASONS,
  SYNC_MESSAGE_TYPES,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import { refuseBusy, type SocketContext } from '../load/busy.ts'
import { LoadGate, LoadGateFull } from '../load/load-gate.ts'
import { MemoryBudget } from '../load/memory-budget.ts'
import { LOAD_CONCURRENCY, LOAD_QUEUE_MAX } from '../config.ts'
import type { SyncLogger } from '../logger.ts'
import type { SyncMetrics } from '../metrics.ts'
import { LogCompaction } from '../persistence/log-compaction.ts'
import { StoreRetry } from '../persistence/store-retry.ts'
import { StoreWaiters } from '../persistence/store-waiters.ts'
import { SyncRefusal } from '../refusal.ts'
import { graphFromStoredJson } from '../stored-graph.ts'

export interface PersistenceOptions {
  db: Kysely<DB>
  logger: SyncLogger
  /** What open documents cost against the process's budget (issue 23 item 2; default: its own). */
  budget?: MemoryBudget | undefined
  /** Loads wait their turn here (issue 23 item 2; default: its own). */
  gate?: LoadGate | undefined
  /** Where refusals and store latencies are counted (default: nowhere). */
  metrics?: SyncMetrics | undefined
  /** Longest wait from a document's first unsaved update to its store, in ms (default PERSIST_THROTTLE_MS). */
  throttleMs?: number | undefined
  /** First wait after a failed store, doubled after each failure (default PERSIST_RETRY_BASE_MS). */
  retryBaseMs?: number | undefined
  /** Longest wait between store attempts (default PERSIST_RETRY_MAX_MS). */
  retryMaxMs?: number | undefined
  /** Attempts of one store before it waits for the next change (default PERSIST_MAX_ATTEMPTS). */
  maxAttempts?: number | undefined
  /** Log rows since the last compaction that start one (default LOG_COMPACT_UPDATES). */
  compactUpdates?: number | undefined
  /**
   * Read the log once more after a load, once the Redis extension has subscribed the
   * document (issue 23 item 3): rows appended meanwhile by a process that does not hold the
   * document (the gateway's REST path) were published before this one listened.
   */
  catchUpAfterLoad?: boolean | undefined
  /** Log bytes since the last compaction that start one (default LOG_COMPACT_BYTES). */
  compactBytes?: number | undefined
  /** Ms after a project's last append here before it is compacted (default LOG_COMPACT_IDLE_MS). */
  compactIdleMs?: number | undefined
}

/** What the extension knows about one loaded document. */
interface DocState {
  projectId: number
  /** An upper bound of the document's encoded size: loaded bytes plus every update since. */
  encodedBytes: number
  /** Updates applied since the load (a counter: unlike a state vector it also counts deletions). */
  changes: number
  /** `changes` as of the last successful store (or the load: the loaded state is stored). */
  storedChanges: number
  /** The updates applied since the last successful append, oldest first: what the next store appends. */
  pending: Uint8Array[]
  /** The trailing store armed by the first unsaved update (issue 15 item 6), if any. */
  throttle: NodeJS.Timeout | null
  /** The `saved` message of the last store (or the load), for clients that connect later. */
  lastSaved: SavedMessage
  /** Who waits for a store to reach a change count (`whenStored`). */
  waiters: StoreWaiters
  /** What the load read (for the catch-up after it), until then. */
  loaded: { snapshotAt: Date; ids: Set<string> } | null
}

/** The origin of the load's `applyUpdate`: local, and never a reason to store. */
const LOAD_ORIGIN: LocalTransactionOrigin = { source: 'local', skipStoreHooks: true }

/**
 * The origin of an update that is already in the project's log (a REST PATCH the gateway
 * appended, or rows a load catches up with; issue 23 item 3): applied so editors see it,
 * never appended again.
 */
export const STORED_ORIGIN: LocalTransactionOrigin = {
  source: 'local',
  skipStoreHooks: true,
  context: { source: 'log' },
}

/** The `saved` message of a stored document's snapshot (`shared/save-ack.ts`). */
function savedMessage(snapshot: string, savedAt: Date): SavedMessage {
  return { type: SYNC_MESSAGE_TYPES.saved, snapshot, savedAt: savedAt.toISOString() }
}

/**
 * Keeps each project's Y.Doc in Postgres as a snapshot plus an append-only log (issue 3
 * item 3, issue 15, ARCHITECTURE decision 6, decision 008).
 *
 * - Load: the project's `project_documents.state` merged with its `project_document_updates`
 *   (one statement), applied to the new document. A project without a snapshot is seeded
 *   from its `projects.nodes` / `connections` JSON exactly once across processes: the seeded
 *   state is inserted with `on conflict do nothing`, and whoever loses the race loads the
 *   winner's state instead. No project: refused with `SYNC_CLOSE_REASONS.notFound`; a
 *   database error: refused with `.loadFailed`.
 * - Only documents whose load succeeded are ever stored, so a failed or empty load can never
 *   overwrite stored data (Hocuspocus issue #382); a store only ever appends anyway.
 * - Store, at most `throttleMs` (PERSIST_THROTTLE_MS, 500 ms) after the first unsaved update,
 *   whatever its origin (a client, the api, another process through Redis: if that process
 *   dies before storing, this one has it): appends the updates applied since the last store,
 *   merged into one row (`appendProjectUpdate`; bytes in proportion to the edit, no row lock),
 *   then sends a stateless `saved` message (state vector and snapshot of the document as it
 *   was when the store started) to every client. Several processes may append the same
 *   update: Yjs updates are idempotent. A project deleted meanwhile is skipped and never
 *   resurrected. A failed store sends `save-failed` and is retried
 *   (PERSIST_RETRY_BASE_MS doubling to PERSIST_RETRY_MAX_MS), at most PERSIST_MAX_ATTEMPTS
 *   times ({@link StoreRetry}); then clients are told it waits for the next change (or the unload), and the
 *   updates stay pending in memory meanwhile. Updates are validated before they are applied
 *   (`ValidationExtension`), so only an infrastructure failure can fail a store.
 * - Compaction, in the background and never on the save path: once the rows this process
 *   appended (or loaded) since its last compaction of the project pass `compactUpdates` or
 *   `compactBytes`, or `compactIdleMs` after its last append here, `compactProjectDocument`
 *   merges the log into the snapshot and materializes `projects.nodes/connections`
 *   ({@link LogCompaction}).
 * - A client that connects is told at once what is stored (`saved` of the last store).
 * - `whenStored` (the gateway's wait for a change to be stored) hands out
 *   {@link StoreWaiters}' promises, settled by each store.
 */
export class PersistenceExtension implements Extension {
  readonly extensionName = 'reelgraph-persistence'
  private readonly db: Kysely<DB>
  private readonly logger: SyncLogger
  private readonly throttleMs: number
  private readonly retry: StoreRetry
  private readonly compaction: LogCompaction
  private readonly budget: MemoryBudget
  private readonly gate: LoadGate
  private readonly metrics: SyncMetrics | undefined
  private readonly catchUpAfterLoad: boolean
  private readonly docs = new WeakMap<Y.Doc, DocState>()
  private stopping = false

  constructor(options: PersistenceOptions) {
    this.db = options.db
    this.logger = options.logger
    this.budget = options.budget ?? new MemoryBudget({})
    this.gate =
      options.gate ?? new LoadGate({ concurrency: LOAD_CONCURRENCY, maxQueued: LOAD_QUEUE_MAX })
    this.metrics = options.metrics
    this.catchUpAfterLoad = options.catchUpAfterLoad ?? false
    this.throttleMs = options.throttleMs ?? PERSIST_THROTTLE_MS
    this.retry = new StoreRetry({
      baseMs: options.retryBaseMs,
      maxMs: options.retryMaxMs,
      maxAttempts: options.maxAttempts,
    })
    this.compaction = new LogCompaction({
      db: options.db,
      logger: options.logger,
      compactUpdates: options.compactUpdates,
      compactBytes: options.compactBytes,
      compactIdleMs: options.compactIdleMs,
    })
  }

  /**
   * Loads the document in its turn ({@link LoadGate}) once its room in the memory budget is
   * reserved (issue 23 item 2). A client connection is refused as busy when the budget has
   * no room or the queue is full; a server-side load (the gateway's, no socket) is never
   * refused, only queued.
   */
  async onLoadDocument({ document, documentName, context }: onLoadDocumentPayload): Promise<void> {
    const projectId = projectIdOfDocument(documentName)
    if (projectId === null) throw new SyncRefusal(SYNC_CLOSE_REASONS.notFound)
    const client = (context as SocketContext | undefined)?.socket !== undefined
    const busy = (reason: 'memory' | 'heap' | 'load-queue') =>
      refuseBusy({
        context: context as SocketContext,
        reason,
        documentName,
        metrics: this.metrics,
        logger: this.logger,
      })
    const refusal = this.budget.reserve(documentName)
    if (refusal && client) busy(refusal)
    let loaded: Loaded
    try {
      loaded = await this.gate.run(() => this.load(document, projectId), { wait: !client })
    } catch (err) {
      this.budget.delete(documentName)
      if (err instanceof LoadGateFull) busy('load-queue')
      throw err
    }
    const encodedBytes = loaded.stored.snapshot.byteLength + loaded.logBytes
    this.budget.set(documentName, encodedBytes)
    const state: DocState = {
      projectId,
      encodedBytes,
      changes: 0,
      storedChanges: 0,
      pending: [],
      throttle: null,
      lastSaved: savedMessage(encodeSavedSnapshot(document), loaded.savedAt),
      waiters: new StoreWaiters(),
      loaded: this.catchUpAfterLoad
        ? {
            snapshotAt: loaded.stored.snapshotAt ?? loaded.savedAt,
            ids: new Set(loaded.stored.ids),
          }
        : null,
    }
    document.on('update', (update: Uint8Array, origin: unknown) => {
      state.encodedBytes += update.byteLength
      this.budget.set(documentName, state.encodedBytes)
      if (origin === STORED_ORIGIN) return
      state.changes += 1
      state.pending.push(update)
    })
    this.docs.set(document, state)
    if (loaded.logUpdates > 0) {
      this.compaction.note(projectId, loaded.logUpdates, loaded.logBytes)
    }
    this.logger.debug(
      {
        projectId,
        bytes: encodedBytes,
        logUpdates: loaded.logUpdates,
        seeded: loaded.seeded,
      },
      'project document loaded',
    )
  }

  /** Reads the project's stored document (or seeds it) and applies it to `document`. */
  private async load(
    document: onLoadDocumentPayload['document'],
    projectId: number,
  ): Promise<Loaded> {
    let loaded: Loaded | null
    try {
      loaded = await this.loadOrSeed(projectId)
    } catch (err) {
      this.logger.error({ err, projectId }, 'loading a project document failed; nothing is stored')
      throw new SyncRefusal(SYNC_CLOSE_REASONS.loadFailed)
    }
    if (!loaded) throw new SyncRefusal(SYNC_CLOSE_REASONS.notFound)
    applyStoredDocument(document, loaded.stored, LOAD_ORIGIN)
    // Hocuspocus batches broadcasts per event loop turn and merges what is pending: sent now
    // (to no one yet), the whole loaded state is never merged with the first change, which
    // cost a full re-encode of the document on every REST PATCH of an unloaded project.
    // (A plain Y.Doc, as tests pass, has nothing to flush.)
    const batched: { flush?: () => unknown } = document
    batched.flush?.()
    return loaded
  }

  /**
   * With Redis, once the document listens to its channel: applies what the log got since
   * the load read it (rows appended by a process that does not hold the document publish
   * before this one listened). Errors are logged: the next load reads everything anyway.
   */
  async afterLoadDocument({ document }: afterLoadDocumentPayload): Promise<void> {
    const state = this.docs.get(document)
    const loaded = state?.loaded
    if (!state || !loaded) return
    state.loaded = null
    try {
      const changes = await readProjectDocumentChanges({
        db: this.db,
        projectId: state.projectId,
        snapshotAt: loaded.snapshotAt,
        knownIds: loaded.ids,
      })
      if (!changes || (!changes.snapshot && changes.updates.length === 0)) return
      document.transact(() => {
        if (changes.snapshot) Y.applyUpdate(document, changes.snapshot, STORED_ORIGIN)
        for (const { update } of changes.updates) Y.applyUpdate(document, update, STORED_ORIGIN)
      }, STORED_ORIGIN)
    } catch (err) {
      this.logger.warn({ err, projectId: state.projectId }, 'catching up with the log failed')
    }
  }

  /**
   * A project's stored document, or the seeded one when there was none; null when there is
   * no project (what a load reads, for the gateway's REST path).
   */
  async storedDocument(projectId: number): Promise<StoredProjectDocument | null> {
    return (await this.loadOrSeed(projectId))?.stored ?? null
  }

  /** Stops counting an unloaded document against the budget. */
  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload): Promise<void> {
    this.budget.delete(documentName)
  }

  /** An upper bound of a loaded document's encoded size in bytes (undefined when not loaded here). */
  encodedBytesOf(document: Y.Doc): number | undefined {
    return this.docs.get(document)?.encodedBytes
  }

  /** The document's encoded size was measured exactly: the bound starts again from it. */
  measuredBytes(document: Y.Doc, bytes: number): void {
    const state = this.docs.get(document)
    if (state) state.encodedBytes = bytes
  }

  /**
   * Counts rows another writer here appended to a project's log (the gateway's REST path),
   * for the background compaction.
   */
  noteAppended(projectId: number, bytes: number): void {
    this.compaction.note(projectId, 1, bytes)
  }

  /**
   * Arms the trailing store at the document's first unsaved update: it runs `throttleMs`
   * later however many updates follow (a throttle, not a debounce; issue 15 item 6). A
   * change from another process (Redis) arms it too, so it reaches Postgres even when that
   * process dies before storing it.
   */
  async onChange({ instance, document, documentName, transactionOrigin }: onChangePayload) {
    const state = this.docs.get(document)
    if (!state || state.throttle || state.pending.length === 0) return
    state.throttle = setTimeout(() => {
      state.throttle = null
      void instance.storeDocumentHooks(
        document,
        {
          instance,
          clientsCount: document.getConnectionsCount(),
          document,
          documentName,
          lastContext: {},
          lastTransactionOrigin: transactionOrigin,
        },
        true,
      )
    }, this.throttleMs)
  }

  async connected({ connection }: connectedPayload): Promise<void> {
    const state = this.docs.get(connection.document)
    if (state) connection.sendStateless(JSON.stringify(state.lastSaved))
  }

  async onStoreDocument({ document }: onStoreDocumentPayload): Promise<void> {
    const state = this.docs.get(document)
    if (!state) return
    // This store takes every pending update: the next one arms a new trailing store.
    if (state.throttle) {
      clearTimeout(state.throttle)
      state.throttle = null
    }
    for (let attempt = 1; ; attempt++) {
      // Forgotten (project deleted) while waiting: nothing more to write.
      if (this.docs.get(document) !== state) return
      const changes = state.changes
      const count = state.pending.length
      if (count === 0) {
        state.storedChanges = changes
        return state.waiters.settle(state.storedChanges)
      }
      const update = count === 1 ? state.pending[0]! : Y.mergeUpdates(state.pending.slice(0, count))
      // The document as this store takes it: later updates are not in this append.
      const snapshot = encodeSavedSnapshot(document)
      const started = performance.now()
      let appended: boolean
      try {
        const stopTimer = this.metrics?.storeSeconds.startTimer()
        try {
          appended = await appendProjectUpdate({ db: this.db, projectId: state.projectId, update })
        } finally {
          stopTimer?.()
        }
        if (!appended) {
          this.logger.info({ projectId: state.projectId }, 'project deleted; document not stored')
          this.forget(document)
          return
        }
      } catch (err) {
        if (this.stopping) {
          this.logger.error({ err, projectId: state.projectId }, 'storing a document failed')
          state.waiters.rejectAll(new Error('The project could not be stored before shutdown.'))
          throw err
        }
        if (this.retry.isLastAttempt(attempt)) {
          this.logger.error(
            { err, projectId: state.projectId, attempts: attempt },
            'storing a document failed; retrying at the next change',
          )
          const failed: SaveFailedMessage = {
            type: SYNC_MESSAGE_TYPES.saveFailed,
            message:
              'Your changes could not be saved. They stay on this device and are sent again with your next change.',
            retryInMs: null,
          }
          document.broadcastStateless(JSON.stringify(failed))
          state.waiters.rejectAll(new Error('The project could not be stored.'))
          return
        }
        const delay = this.retry.delayAfter(attempt)
        this.logger.error(
          { err, projectId: state.projectId, retryInMs: delay },
          'storing a document failed; retrying',
        )
        const failed: SaveFailedMessage = {
          type: SYNC_MESSAGE_TYPES.saveFailed,
          message: 'Your changes could not be saved yet. Retrying.',
          retryInMs: delay,
        }
        document.broadcastStateless(JSON.stringify(failed))
        await this.retry.wait(delay)
        continue
      }
      state.pending.splice(0, count)
      state.storedChanges = changes
      state.lastSaved = savedMessage(snapshot, new Date())
      state.waiters.settle(state.storedChanges)
      document.broadcastStateless(JSON.stringify(state.lastSaved))
      this.logger.debug(
        {
          projectId: state.projectId,
          bytes: update.byteLength,
          updates: count,
          ms: Math.round(performance.now() - started),
        },
        'project document stored',
      )
      this.compaction.note(state.projectId, 1, update.byteLength)
      return
    }
  }

  /** Waits for compactions under way (the database is closed after this). */
  async onDestroy(): Promise<void> {
    await this.compaction.drain()
  }

  /**
   * Resolves once a store has written every change made to `document` so far (at once when
   * there is none), e.g. after the api applied a REST PATCH.
   * @throws Error when `timeoutMs` passes first, when the document was never loaded here or
   * its project was deleted, or when the server stops before it could store.
   */
  whenStored(document: Y.Doc, timeoutMs: number): Promise<void> {
    const state = this.docs.get(document)
    if (!state) return Promise.reject(new Error('The project document is not open.'))
    const target = state.changes
    if (state.storedChanges >= target) return Promise.resolve()
    return state.waiters.wait(target, timeoutMs)
  }

  /**
   * Stops storing `document` (its project was deleted): later stores write nothing, and
   * whoever waits for a store is told it will not happen.
   */
  forget(document: Y.Doc): void {
    const state = this.docs.get(document)
    if (!state) return
    this.docs.delete(document)
    if (state.throttle) clearTimeout(state.throttle)
    state.throttle = null
    this.compaction.forget(state.projectId)
    state.waiters.rejectAll(new Error('The project was deleted.'))
  }

  /** Shutting down: a failing store is tried once more, then given up (and logged). */
  stop(): void {
    this.stopping = true
    this.compaction.stop()
    this.retry.wakeAll()
  }

  /** The stored document, or the seeded one when there was none; null when there is no project. */
  private async loadOrSeed(projectId: number): Promise<Loaded | null> {
    const stored = await this.readStored(projectId)
    if (stored) return stored
    const project = await this.db
      .selectFrom('projects')
      .select(['nodes', 'connections'])
      .where('id', '=', projectId)
      .executeTakeFirst()
    if (!project) return null
    const snapshot = seedSnapshot(graphFromStoredJson(project.nodes, project.connections))
    const savedAt = new Date()
    const inserted = await this.db
      .insertInto('project_documents')
      .values({ project_id: projectId, ...snapshot, updated_at: savedAt })
      .onConflict((oc) => oc.column('project_id').doNothing())
      .returning('project_id')
      .executeTakeFirst()
    if (inserted) {
      const stored = {
        snapshot: snapshot.state,
        updates: [],
        ids: [],
        savedAt,
        logBytes: 0,
        snapshotAt: savedAt,
        graphIndex: snapshot.graph_index,
      }
      return { stored, savedAt, seeded: true, logUpdates: 0, logBytes: 0 }
    }
    // Another process seeded it first: use its state, so every copy starts from the same items.
    return this.readStored(projectId)
  }

  private async readStored(projectId: number): Promise<Loaded | null> {
    const stored = await readProjectDocument({ db: this.db, projectId })
    if (!stored) return null
    return {
      stored,
      savedAt: stored.savedAt,
      seeded: false,
      logUpdates: stored.updates.length,
      logBytes: stored.logBytes,
    }
  }
}

/** A loaded document: its snapshot and log, and what the log held. */
interface Loaded {
  stored: StoredProjectDocument
  savedAt: Date
  seeded: boolean
  logUpdates: number
  logBytes: number
}

/** The Yjs state of a new document holding `graph` (benchmarks seed stored documents with it). */
export function seedState(graph: Graph): Uint8Array {
  return seedSnapshot(graph).state
}
