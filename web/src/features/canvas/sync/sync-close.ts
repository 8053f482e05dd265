import { SYNC_UPDATE_REFUSED } from '@reelgraph/shared'

/**
 * True when a close is the sync server's "your update was refused" (issue 11), by code (a
 * socket close) or reason (Hocuspocus' per-document close message carries only a reason).
 */
export function isUpdateRefusedClose(
  event: { code?: number; reason?: string } | undefined,
): boolean {
  if (!event) return false
  return event.code === SYNC_UPDATE_REFUSED.code || event.reason === SYNC_UPDATE_REFUSED.reason
}
