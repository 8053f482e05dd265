import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'
import { projectDocumentName, SYNC_PATH } from '@reelgraph/shared'
import { WebSocket } from 'ws'
import * as Y from 'yjs'

/** A member's canvas in a test: the project's document as their provider holds it. */
export interface TestCanvas {
  doc: Y.Doc
  /** Whether the provider is authenticated and has the server's document. */
  synced(): boolean
  close(): void
}

/**
 * Opens project `projectId` as the canvas does: a Hocuspocus provider on the sync WebSocket
 * of the server at `wsBase` (`ws://127.0.0.1:<port>`), carrying the session `cookie`.
 */
export function openCanvas(wsBase: string, cookie: string, projectId: number): TestCanvas {
  const doc = new Y.Doc()
  const socket = new HocuspocusProviderWebsocket({
    url: `${wsBase}${SYNC_PATH}`,
    WebSocketPolyfill: class extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie } })
      }
    },
  })
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: projectDocumentName(projectId),
    document: doc,
  })
  provider.attach()
  return {
    doc,
    synced: () => provider.isAuthenticated && provider.isSynced,
    close() {
      provider.destroy()
      socket.destroy()
    },
  }
}
