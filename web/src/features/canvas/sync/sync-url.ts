import { SYNC_PATH } from '@reelgraph/shared'

/** The sync server's WebSocket URL on this origin: wss on https pages, ws otherwise. */
export function syncUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SYNC_PATH}`
}
