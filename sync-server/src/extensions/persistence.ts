import type {
  connectedPayload,
  Extension,
  LocalTransactionOrigin,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server'
import type { DB } from '@reelgraph/db'
import {
  applyGraphToDoc,
  docToGraph,
  type Graph,
  PERSIST_MAX_ATTEMPTS,
  PERSIST_RETRY_BASE_MS,
  PERSIST_RETRY_MAX_MS,
  projectIdOfDocument,
  type SavedMessage,
  type SaveFailedMessage,
  SYNC_CLOSE_REASONS,
  SYNC_MESSAGE_TYPES,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import type { SyncLogger } from '../logger.ts'
import { SyncRefusal } from '../refusal.ts'
import { graphFromStoredJson } from '../stored-graph.ts'

export interface PersistenceOptions {
  db: Kysely<DB>
  logger: SyncLogger
  /** First wait after a failed store, doubled after each failure (default PERSIST_RETRY_BASE_MS). */
  retryBaseMs?: number | undefined
  /** Longest wait between store attempts (default PERSIST_RETRY_MAX_MS). */
  retryMaxMs?: number | undefined
  /** Attempts of one store before it waits for the next change (default PERSIST_MAX_ATTEMPTS). */
  maxAttempts?: number | undefined
}

/** What the extension knows about one loaded document. */
interface DocState {
  projectId: number
  /** Updates applied since the load (a counter: unlike a state vector it also counts deletions). */
  changes: number
  /** `changes` as of the last successful store (or the load: the loaded state is stored). */
  storedChanges: number
  /** The `saved` message of the last store (or the load), for clients that connect later. */
  lastSaved: SavedMessage
  waiters: Set<StoreWaiter>
}

interface StoreWaiter {
  target: number
  resolve(): void
  reject(error: Error): void
}

/** The origin of the load's `applyUpdate`: local, and never a reason to store. */
const LOAD_ORIGIN: LocalTransactionOrigin = { source: 'local', skipStoreHooks: true }

/** The `saved` message for a document state that is in Postgres. */
function savedMessage(document: Y.Doc, savedAt: Date): SavedMessage {
  return {
    type: SYNC_MESSAGE_TYPES.saved,
    stateVector: Buffer.from(Y.encodeStateVector(document)).toString('base64'),
    snapshot: Buffer.from(Y.encodeSnapshot(Y.snapshot(document))).toString('base64'),
    savedAt: savedAt.toISOString(),
  }
}

/**
 * Keeps each project's Y.Doc in Postgres (issue 3 item 3, ARCHITECTURE decision 6).
 *
 * - Load: the project's `project_documents.state` (a `Y.encodeStateAsUpdate`) is applied to
 *   the new document. A project without a row is seeded from its `projects.nodes` /
 *   `connections` JSON exactly once across processes: the seeded state is inserted with
 *   `on conflict do nothing`, and whoever loses the race loads the winner's state instead.
 *   No project: refused with `SYNC_CLOSE_REASONS.notFound`; a database error: refused with
 *   `.loadFailed`.
 * - Only documents whose load succeeded are ever stored, so a failed or empty load can never
 *   overwrite stored data (Hocuspocus issue #382).
 * - Store (Hocuspocus debounces it: 1 s after the last change, at least every 10 s): one
 *   transaction locks the `projects` row, merges the document into the stored state (other
 *   sync-server processes store too), and updates `projects` (nodes/connections =
 *   `docToGraph` of the merge, updated_at) and upserts `project_documents`, unless the merge
 *   adds nothing; a project deleted meanwhile is skipped and never resurrected. Then
 *   a stateless `saved` message goes to every client. A failed store sends `save-failed` and
 *   is retried (PERSIST_RETRY_BASE_MS doubling to PERSIST_RETRY_MAX_MS), at most
 *   PERSIST_MAX_ATTEMPTS times; then clients are told it waits for the next change (or the
 *   unload), and the document keeps its changes in memory meanwhile. Updates are validated
 *   before they are applied (`ValidationExtension`), so only an infrastructure failure can
 *   fail a store: no data can block later edits (issue 11). A store with nothing new writes
 *   nothing.
 * - A client that connects is told at once what is stored (`saved` of the last store).
 */
export class PersistenceExtension implements Extension {
  readonly extensionName = 'reelgraph-persistence'
  private readonly db: Kysely<DB>
  private readonly logger: SyncLogger
  private readonly retryBaseMs: number
  private readonly retryMaxMs: number
  private readonly maxAttempts: number
  private readonly docs = new WeakMap<Y.Doc, DocState>()
  private stopping = false
  private readonly sleepers = new Set<() => void>()

  constructor(options: PersistenceOptions) {
    this.db = options.db
    this.logger = options.logger
    this.retryBaseMs = options.retryBaseMs ?? PERSIST_RETRY_BASE_MS
    this.retryMaxMs = options.retryMaxMs ?? PERSIST_RETRY_MAX_MS
    this.maxAttempts = options.maxAttempts ?? PERSIST_MAX_ATTEMPTS
  }

  async onLoadDocument({ document, documentName }: onLoadDocumentPayload): Promise<void> {
    const projectId = projectIdOfDocument(documentName)
    if (projectId === null) throw new SyncRefusal(SYNC_CLOSE_REASONS.notFound)
    let loaded: { state: Uint8Array; savedAt: Date; seeded: boolean } | null
    try {
      loaded = await this.loadOrSeed(projectId)
    } catch (err) {
      this.logger.error({ err, projectId }, 'loading a project document failed; nothing is stored')
      throw new SyncRefusal(SYNC_CLOSE_REASONS.loadFailed)
    }
    if (!loaded) throw new SyncRefusal(SYNC_CLOSE_REASONS.notFound)
    Y.applyUpdate(document, loaded.state, LOAD_ORIGIN)
    const state: DocState = {
      projectId,
      changes: 0,
      storedChanges: 0,
      lastSaved: savedMessage(document, loaded.savedAt),
      waiters: new Set(),
    }
    document.on('update', () => {
      state.changes += 1
    })
    this.docs.set(document, state)
    this.logger.debug(
      { projectId, bytes: loaded.state.byteLength, seeded: loaded.seeded },
      'project document loaded',
    )
  }

  /**
   * With several sync servers (Redis), a change made on another process also schedules a
   * store here, so it reaches Postgres even when that process dies before storing it. The
   * store merges with what is stored and writes nothing when it adds nothing.
   */
  async onChange({ instance, document, documentName, transactionOrigin }: onChangePayload) {
    if (!isRedisOrigin(transactionOrigin) || !this.docs.has(document)) return
    void instance.storeDocumentHooks(document, {
      instance,
      clientsCount: document.getConnectionsCount(),
      document,
      documentName,
      lastContext: {},
      lastTransactionOrigin: transactionOrigin,
    })
  }

  async connected({ connection }: connectedPayload): Promise<void> {
    const state = this.docs.get(connection.document)
    if (state) connection.sendStateless(JSON.stringify(state.lastSaved))
  }

  async onStoreDocument({ document }: onStoreDocumentPayload): Promise<void> {
    const state = this.docs.get(document)
    if (!state) return
    let delay = this.retryBaseMs
    for (let attempt = 1; ; attempt++) {
      // Forgotten (project deleted) while waiting: nothing more to write.
      if (this.docs.get(document) !== state) return
      const changes = state.changes
      if (changes === state.storedChanges) return this.settle(state)
      const update = Y.encodeStateAsUpdate(document)
      const savedAt = new Date()
      const started = performance.now()
      let result: WriteResult | null
      try {
        result = await this.write(state.projectId, update, savedAt)
        if (!result) {
          this.logger.info({ projectId: state.projectId }, 'project deleted; document not stored')
          this.forget(document)
          return
        }
      } catch (err) {
        if (this.stopping) {
          this.logger.error({ err, projectId: state.projectId }, 'storing a document failed')
          this.rejectWaiters(state, new Error('The project could not be stored before shutdown.'))
          throw err
        }
        if (attempt >= this.maxAttempts) {
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
          this.rejectWaiters(state, new Error('The project could not be stored.'))
          return
        }
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
        await this.sleep(delay)
        delay = Math.min(delay * 2, this.retryMaxMs)
        continue
      }
      state.storedChanges = changes
      state.lastSaved = result.saved
      this.settle(state)
      // Nothing new (another process stored it first, and told its clients and ours through
      // Redis): no second `saved` message.
      if (!result.written) return
      document.broadcastStateless(JSON.stringify(result.saved))
      this.logger.debug(
        {
          projectId: state.projectId,
          bytes: result.bytes,
          ms: Math.round(performance.now() - started),
        },
        'project document stored',
      )
      return
    }
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
    return new Promise<void>((resolve, reject) => {
      const waiter: StoreWaiter = {
        target,
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      }
      const timer = setTimeout(() => {
        state.waiters.delete(waiter)
        reject(new Error(`The project document was not stored within ${timeoutMs} ms.`))
      }, timeoutMs)
      state.waiters.add(waiter)
    })
  }

  /**
   * Stops storing `document` (its project was deleted): later stores write nothing, and
   * whoever waits for a store is told it will not happen.
   */
  forget(document: Y.Doc): void {
    const state = this.docs.get(document)
    if (!state) return
    this.docs.delete(document)
    this.rejectWaiters(state, new Error('The project was deleted.'))
  }

  /** Shutting down: a failing store is tried once more, then given up (and logged). */
  stop(): void {
    this.stopping = true
    for (const wake of this.sleepers) wake()
  }

  private settle(state: DocState): void {
    for (const waiter of state.waiters) {
      if (state.storedChanges >= waiter.target) {
        state.waiters.delete(waiter)
        waiter.resolve()
      }
    }
  }

  private rejectWaiters(state: DocState, error: Error): void {
    for (const waiter of state.waiters) waiter.reject(error)
    state.waiters.clear()
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.sleepers.add(wake)
    })
  }

  /** The stored state, or the seeded one when there was none; null when there is no project. */
  private async loadOrSeed(
    projectId: number,
  ): Promise<{ state: Uint8Array; savedAt: Date; seeded: boolean } | null> {
    const stored = await this.readState(projectId)
    if (stored) return { ...stored, seeded: false }
    const project = await this.db
      .selectFrom('projects')
      .select(['nodes', 'connections'])
      .where('id', '=', projectId)
      .executeTakeFirst()
    if (!project) return null
    const state = seedState(graphFromStoredJson(project.nodes, project.connections))
    const savedAt = new Date()
    const inserted = await this.db
      .insertInto('project_documents')
      .values({ project_id: projectId, state, updated_at: savedAt })
      .onConflict((oc) => oc.column('project_id').doNothing())
      .returning('project_id')
      .executeTakeFirst()
    if (inserted) return { state, savedAt, seeded: true }
    // Another process seeded it first: use its state, so every copy starts from the same items.
    const winner = await this.readState(projectId)
    return winner ? { ...winner, seeded: false } : null
  }

  private async readState(projectId: number): Promise<{ state: Uint8Array; savedAt: Date } | null> {
    const row = await this.db
      .selectFrom('project_documents')
      .select(['state', 'updated_at'])
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    return row ? { state: row.state, savedAt: row.updated_at } : null
  }

  /**
   * One transaction: locks the project row (every store does, so stores of one project from
   * any process are serialized), merges `update` into the stored state (Yjs merges never lose
   * or duplicate items) and writes the merged state and its materialized JSON, unless the merge
   * adds nothing. Null when the project no longer exists (nothing written).
   */
  private write(projectId: number, update: Uint8Array, now: Date): Promise<WriteResult | null> {
    return this.db.transaction().execute(async (trx) => {
      // The lock and the stored state in one round trip (the project row is what is locked).
      const project = await trx
        .selectFrom('projects as p')
        .leftJoin('project_documents as d', 'd.project_id', 'p.id')
        .select('d.state')
        .where('p.id', '=', projectId)
        .forUpdate('p')
        .executeTakeFirst()
      if (!project) return null
      const stored = project.state ? { state: project.state } : null
      const merged = new Y.Doc()
      try {
        let before: Y.Snapshot | null = null
        if (stored) {
          Y.applyUpdate(merged, stored.state)
          before = Y.snapshot(merged)
        }
        Y.applyUpdate(merged, update)
        const saved = savedMessage(merged, now)
        if (before && Y.equalSnapshots(before, Y.snapshot(merged))) {
          return { written: false, saved, bytes: 0 }
        }
        const state = stored ? Y.encodeStateAsUpdate(merged) : update
        const graph = docToGraph(merged)
        await trx
          .updateTable('projects')
          .set({
            nodes: JSON.stringify(graph.nodes),
            connections: JSON.stringify(graph.connections),
            updated_at: now,
          })
          .where('id', '=', projectId)
          .execute()
        await trx
          .insertInto('project_documents')
          .values({ project_id: projectId, state, updated_at: now })
          .onConflict((oc) => oc.column('project_id').doUpdateSet({ state, updated_at: now }))
          .execute()
        return { written: true, saved, bytes: state.byteLength }
      } finally {
        merged.destroy()
      }
    })
  }
}

/** What a store did: `written` false when the stored state already held everything. */
interface WriteResult {
  written: boolean
  /** The `saved` message of the state now stored (the merge). */
  saved: SavedMessage
  bytes: number
}

/** A change that came from another sync-server process through Redis. */
function isRedisOrigin(origin: unknown): boolean {
  return (
    typeof origin === 'object' && origin !== null && 'source' in origin && origin.source === 'redis'
  )
}

/** The Yjs state of a new document holding `graph`. */
export function seedState(graph: Graph): Uint8Array {
  const doc = new Y.Doc()
  try {
    applyGraphToDoc(doc, graph)
    return Y.encodeStateAsUpdate(doc)
  } finally {
    doc.destroy()
  }
}
