import { SYNC_CLOSE_REASONS, SYNC_SERVER_BUSY } from '@reelgraph/shared'
import type { SyncLogger } from '../logger.ts'
import type { BusyReason, SyncMetrics } from '../metrics.ts'
import { SyncRefusal } from '../refusal.ts'

/**
 * The WebSocket a connection came on, as its hooks see it (`context.socket`, set by
 * `attachSyncServer`): how many of its documents are open, and how to close it.
 */
export interface SocketHandle {
  /** Documents established on this socket (a provider may multiplex several). */
  established: number
  close(code: number, reason: string): void
}

/** What a hook's context may carry about its socket (absent for direct connections). */
export interface SocketContext {
  socket?: SocketHandle | undefined
}

/**
 * Refuses a document connection because the server is busy (issue 23 item 2): counts it by
 * reason, answers the document with `SYNC_CLOSE_REASONS.serverBusy`, and, when its socket
 * carries no other document, closes the socket with {@link SYNC_SERVER_BUSY} right after
 * that answer, so the provider reconnects after its jittered backoff (through the proxy,
 * possibly to another replica).
 */
export function refuseBusy(options: {
  context: SocketContext | undefined
  reason: BusyReason
  documentName: string
  metrics: SyncMetrics | undefined
  logger: SyncLogger
}): never {
  const { context, reason, documentName, metrics, logger } = options
  metrics?.refused.inc({ reason })
  logger.debug({ documentName, reason }, 'sync connection refused: server busy')
  const socket = context?.socket
  if (socket && socket.established === 0) {
    // After Hocuspocus has sent the refusal, which it does as this throw unwinds.
    setImmediate(() => socket.close(SYNC_SERVER_BUSY.code, SYNC_SERVER_BUSY.reason))
  }
  throw new SyncRefusal(SYNC_CLOSE_REASONS.serverBusy)
}
