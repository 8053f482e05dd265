/**
 * Closing connections on this process when access changes (issue 6 item 1; issue 6 /
 * security): a member's sockets, an ended session's sockets, a deleted project's document.
 * The gateway calls these for changes made here, the access channel for changes told by
 * other processes.
 */
import type { Connection, Hocuspocus } from '@hocuspocus/server'
import { projectDocumentName, SYNC_ACCESS_CHANGED, SYNC_SESSION_ENDED } from '@reelgraph/shared'
import { GATEWAY_UNLOAD_TIMEOUT_MS } from '../config.ts'
import type { SyncContext } from '../extensions/auth.ts'
import type { PersistenceExtension } from '../extensions/persistence.ts'
import type { AccessChannelMessage } from './messages.ts'

/**
 * Closes `userId`'s connections to the project's document on this process only, with
 * `SYNC_ACCESS_CHANGED` (the provider reconnects and authenticates again). Closes the raw
 * WebSocket, so a socket multiplexing several documents closes for all of them.
 * @returns how many connections were closed.
 * @see issue 6 item 1 (removing a member closes their open connections)
 */
export function closeLocalUserConnections(
  hocuspocus: Hocuspocus,
  projectId: number,
  userId: number,
): number {
  const document = hocuspocus.documents.get(projectDocumentName(projectId))
  return closeSockets(
    document?.getConnections() ?? [],
    (context) => context.userId === userId,
    SYNC_ACCESS_CHANGED,
  )
}

/**
 * Closes every connection on this process (in every loaded document) that authenticated with
 * one of `sessionIds`, with `SYNC_SESSION_ENDED`: the provider reconnects and, its session
 * row being gone, is refused `unauthenticated`. Closes the raw WebSocket, like
 * {@link closeLocalUserConnections}. Call it after the sessions are deleted.
 * @returns how many connections were closed.
 * @see issue 6 / security: signing out closes the WebSockets already open
 */
export function closeLocalSessionConnections(
  hocuspocus: Hocuspocus,
  sessionIds: readonly string[],
): number {
  if (sessionIds.length === 0) return 0
  const ended = new Set(sessionIds)
  const connections = [...hocuspocus.documents.values()].flatMap((d) => d.getConnections())
  return closeSockets(
    connections,
    (context) => context.sessionId !== undefined && ended.has(context.sessionId),
    SYNC_SESSION_ENDED,
  )
}

/**
 * Closes the raw WebSocket of each of `connections` whose context `matches`, with `event`
 * (the provider reconnects and authenticates again; a socket multiplexing several
 * documents closes for all of them). Returns how many were closed.
 */
function closeSockets(
  connections: Iterable<Connection>,
  matches: (context: Partial<SyncContext>) => boolean,
  event: { code: number; reason: string },
): number {
  let closed = 0
  for (const connection of connections) {
    if (!matches(connection.context as Partial<SyncContext>)) continue
    connection.webSocket.close(event.code, event.reason)
    closed += 1
  }
  return closed
}

/**
 * What closing connections on this process acts on: the sync server's Hocuspocus instance
 * and its persistence (told to forget a deleted project's document).
 */
export interface LocalSyncServer {
  readonly hocuspocus: Hocuspocus
  readonly persistence: PersistenceExtension
}

/**
 * Disconnects every client of the project's document on this process only and unloads it
 * without storing (its project was deleted: reconnecting clients are refused as not found).
 * Resolves once the document is unloaded, or after `unloadTimeoutMs` (default
 * GATEWAY_UNLOAD_TIMEOUT_MS) while it is still unloading.
 */
export async function closeLocalDocument(
  { hocuspocus, persistence }: LocalSyncServer,
  projectId: number,
  unloadTimeoutMs = GATEWAY_UNLOAD_TIMEOUT_MS,
): Promise<void> {
  const name = projectDocumentName(projectId)
  await hocuspocus.loadingDocuments.get(name)?.catch(() => null)
  const document = hocuspocus.documents.get(name)
  if (!document) return
  persistence.forget(document)
  hocuspocus.closeConnections(name)
  if (hocuspocus.shouldUnloadDocument(document)) await hocuspocus.unloadDocument(document)
  const deadline = Date.now() + unloadTimeoutMs
  while (hocuspocus.documents.get(name) === document && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * Applies a channel message to this process's connections (see `accessChangeSchema` and
 * `sessionsEndedSchema` in `messages.ts`).
 */
export async function applyAccessChangeLocally(
  server: LocalSyncServer,
  change: AccessChannelMessage,
  unloadTimeoutMs = GATEWAY_UNLOAD_TIMEOUT_MS,
): Promise<void> {
  const { hocuspocus } = server
  if ('sessionIds' in change) closeLocalSessionConnections(hocuspocus, change.sessionIds)
  else if (change.userId === undefined)
    await closeLocalDocument(server, change.projectId, unloadTimeoutMs)
  else closeLocalUserConnections(hocuspocus, change.projectId, change.userId)
}
