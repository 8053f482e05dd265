import type * as Y from 'yjs'
import type { Graph, KnownNodes } from './graph.ts'

/**
 * The live project documents, as the api and the job worker see them (issue 3 item 3: a
 * REST PATCH is applied to the live document). Implemented by `sync-server`'s
 * `createDocumentGateway` over its Hocuspocus instance; the api never imports `sync-server`,
 * its server entry wires the gateway in (`AppDeps.documents`).
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
   * The nodes of the project's graph as this process last wrote them through
   * {@link applyGraph}, all valid, or undefined when it keeps none: a PATCH body's node equal
   * to one of them need not be parsed again (`parsePatchProjectInput`; issue 23). A hint that
   * never changes an answer: another process simply has none.
   */
  knownNodes(projectId: number): KnownNodes | undefined
  /**
   * {@link knownNodes}, or when there are none the nodes of the project's stored document
   * (read now, and kept for the {@link applyGraph} that follows), or undefined (the project
   * has no stored document, or is open here and written live): what a project's first PATCH
   * compares its body with instead of parsing every node (issue 23). Reads the document:
   * call it once the caller is known to be an editor of the project.
   * @throws Error when the database fails
   */
  readKnownNodes(projectId: number): Promise<KnownNodes | undefined>
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
   * through the sync server's access channel.
   * Never throws for Redis: a failed or slow publish is logged (the other servers then
   * keep their connections until those reconnect), and it resolves anyway.
   */
  closeDocument(projectId: number): Promise<void>
  /**
   * Closes `userId`'s connections to the project's document on every sync server sharing
   * this one's Redis (here at once; elsewhere through the access channel) with
   * `SYNC_ACCESS_CHANGED`, so they authenticate again with their current role (their role
   * changed or they were removed; issue 6 item 1). Call it after the role change or removal
   * is committed. Resolves once this process's are closed and the change is published (at
   * most ACCESS_PUBLISH_TIMEOUT_MS, 2 s, while Redis is unreachable). Never throws for
   * Redis: a failed publish is logged and the local connections are closed regardless.
   */
  closeUserConnections(projectId: number, userId: number): Promise<void>
  /**
   * Closes every connection, to any document, authenticated with one of `sessionIds`
   * (`sessions.id`) on every sync server sharing this one's Redis (here at once; elsewhere
   * through the access channel) with `SYNC_SESSION_ENDED`: the providers reconnect and are
   * refused `unauthenticated`, and the web app signs the person out (issue 6 / security:
   * signing out closes the sockets already open). Call it after the sessions are deleted
   * (logout, password reset) and the deletion is committed. An empty list does nothing.
   * Resolves once this process's are closed and the change is published (at most
   * ACCESS_PUBLISH_TIMEOUT_MS, 2 s, while Redis is unreachable). Never throws for Redis: a
   * failed publish is logged and the local connections are closed regardless.
   */
  closeSessionConnections(sessionIds: readonly string[]): Promise<void>
}
