import type { Hocuspocus, LocalTransactionOrigin } from '@hocuspocus/server'
import { applyGraphToDoc, docToGraph, type Graph, projectDocumentName } from '@reelgraph/shared'
import type * as Y from 'yjs'
import { applyAccessChangeLocally } from './access-channel/close-connections.ts'
import type { AccessChannelMessage } from './access-channel/messages.ts'
import { GATEWAY_STORE_TIMEOUT_MS, GATEWAY_UNLOAD_TIMEOUT_MS } from './config.ts'
import type { SyncServer } from './create-sync-server.ts'
import { SyncRefusal } from './refusal.ts'

/**
 * The api's view of live project documents (structurally the api's `DocumentGateway`; the
 * api does not import this package, its server entry wires it in).
 */
export interface DocumentGateway {
  /**
   * Makes the project's document hold exactly `graph`: the Yjs changes it implies against
   * the live document (only what differs is written, in one transaction; issue 15 item 4),
   * so open editors see them at once, and resolves once they are appended to the project's
   * log, with the document's graph as stored (the REST JSON columns catch up at the next
   * compaction).
   * @throws Error when the project does not exist, its document cannot be loaded, or the
   * change is not stored within the timeout (it stays in the live document and is retried).
   */
  applyGraph(projectId: number, graph: Graph): Promise<Graph>
  /**
   * Runs `change` on the project's live document (loaded if no one has it open), which must
   * pass `origin` (a server-side origin: such writes skip the client-update validation, so
   * they must write valid nodes) to every transaction it makes; open editors see the change
   * at once, on every sync server sharing this one's Redis. Resolves with `change`'s result
   * once the change is stored (document and materialized JSON). Used by the job worker to
   * write job states and results (issue 12).
   * @throws Error when the project does not exist (its message says so), its document cannot
   * be loaded, or the change is not stored within the timeout (it stays in the live document
   * and is retried).
   */
  transact<T>(projectId: number, change: (doc: Y.Doc, origin: unknown) => T): Promise<T>
  /**
   * Disconnects every client of the project's document and unloads it without storing
   * (call it after the project is deleted; clients reconnecting are refused as not found),
   * on every sync server sharing this one's Redis: here before it resolves, elsewhere
   * through the access channel (`extensions/access-channel.ts`).
   * Never throws for Redis: a failed or slow publish is logged (the other servers then
   * keep their connections until those reconnect), and it resolves anyway.
   */
  closeDocument(projectId: number): Promise<void>
  /**
   * Closes `userId`'s connections to the project's document on every sync server sharing
   * this one's Redis (here at once; elsewhere through the access channel) with
   * `SYNC_ACCESS_CHANGED`, so they authenticate again with their current role (issue 6).
   * Call it after the role change or removal is committed. Resolves once published (at most
   * ACCESS_PUBLISH_TIMEOUT_MS, 2 s, while Redis is unreachable). Never throws for Redis: a
   * failed publish is logged and the local connections are closed regardless.
   */
  closeUserConnections(projectId: number, userId: number): Promise<void>
  /**
   * Closes every connection, to any document, authenticated with one of `sessionIds`
   * (`sessions.id`) on every sync server sharing this one's Redis (here at once; elsewhere
   * through the access channel) with `SYNC_SESSION_ENDED`: the providers reconnect and are
   * refused `unauthenticated`, and the web app signs the person out (issue 6 / security:
   * signing out closes the sockets already open). Call it after the sessions are deleted
   * (logout, password reset). An empty list does nothing. Resolves once published (at most
   * ACCESS_PUBLISH_TIMEOUT_MS, 2 s, while Redis is unreachable). Never throws for Redis: a
   * failed publish is logged and the local connections are closed regardless.
   */
  closeSessionConnections(sessionIds: readonly string[]): Promise<void>
}

/** The transaction origin of a REST change (a local, server-side write). */
const REST_ORIGIN: LocalTransactionOrigin = { source: 'local', context: { source: 'rest' } }
/** The transaction origin of a job's write (a local, server-side write; issue 12). */
const JOB_ORIGIN: LocalTransactionOrigin = { source: 'local', context: { source: 'job' } }

/**
 * What {@link createDocumentGateway} works on: the handles of a sync server made by
 * `createSyncServer` (pass the {@link SyncServer} itself), and its timeouts.
 */
export interface DocumentGatewayOptions {
  readonly hocuspocus: Hocuspocus
  readonly persistence: SyncServer['persistence']
  readonly accessChannel: SyncServer['accessChannel']
  /** Longest wait for a change to be stored, in ms (default GATEWAY_STORE_TIMEOUT_MS). */
  readonly storeTimeoutMs?: number | undefined
  /** Longest wait for a deleted project's document to unload, in ms (default GATEWAY_UNLOAD_TIMEOUT_MS). */
  readonly unloadTimeoutMs?: number | undefined
}

/**
 * Applies `change` here at once and tells every other sync server sharing this one's Redis
 * (through `server.accessChannel`, when there is one); what the gateway's closing calls do.
 * Never rejects because of Redis (see `AccessChannel.publish`).
 */
async function changeAccess(
  server: Pick<DocumentGatewayOptions, 'hocuspocus' | 'persistence' | 'accessChannel'>,
  change: AccessChannelMessage,
  unloadTimeoutMs?: number,
): Promise<void> {
  await Promise.all([
    applyAccessChangeLocally(server, change, unloadTimeoutMs),
    server.accessChannel?.publish(change),
  ])
}

/**
 * The {@link DocumentGateway} over a sync server made by `createSyncServer`: changes go through
 * a Hocuspocus direct connection (no network), so they reach connected providers like any
 * other edit and are persisted by the same extension.
 * @see issue 3 item 3 (a REST PATCH is applied to the live document)
 */
export function createDocumentGateway(options: DocumentGatewayOptions): DocumentGateway {
  const { hocuspocus, persistence } = options
  const storeTimeoutMs = options.storeTimeoutMs ?? GATEWAY_STORE_TIMEOUT_MS
  const unloadTimeoutMs = options.unloadTimeoutMs ?? GATEWAY_UNLOAD_TIMEOUT_MS

  /** Opens the document, runs `change` on it, and resolves with its result once stored. */
  async function change<T>(projectId: number, run: (doc: Y.Doc) => T): Promise<T> {
    let connection
    try {
      connection = await hocuspocus.openDirectConnection(projectDocumentName(projectId))
    } catch (err) {
      const reason = err instanceof SyncRefusal ? err.reason : String(err)
      throw new Error(`The document of project ${projectId} could not be opened (${reason}).`, {
        cause: err,
      })
    }
    let stored: Promise<void>
    let result: T
    try {
      const document = connection.document
      if (!document) throw new Error(`The document of project ${projectId} is not loaded.`)
      result = run(document)
      stored = persistence.whenStored(document, storeTimeoutMs)
    } catch (err) {
      await connection.disconnect()
      throw err
    }
    // Stores at once (no debounce), and unloads the document when no one else has it open.
    await Promise.all([stored, connection.disconnect()])
    return result
  }

  return {
    applyGraph: (projectId, graph) =>
      change(projectId, (document) => {
        applyGraphToDoc(document, graph, REST_ORIGIN)
        return docToGraph(document)
      }),

    transact: (projectId, run) => change(projectId, (document) => run(document, JOB_ORIGIN)),

    closeDocument: (projectId) => changeAccess(options, { projectId }, unloadTimeoutMs),

    closeUserConnections: (projectId, userId) => changeAccess(options, { projectId, userId }),

    async closeSessionConnections(sessionIds) {
      if (sessionIds.length > 0) await changeAccess(options, { sessionIds: [...sessionIds] })
    },
  }
}
