import { type HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider'

/**
 * Connects `socket` again once it has closed: at once when it already has, else at its next
 * `disconnected` status. For a socket the page closed itself (`disconnect()`) to come back
 * later: a refusal as busy (issue 23) or a document the server could not load.
 *
 * `connect()` does nothing while the socket still reads as connected, and closing is not
 * instant: the close handshake waits for the server, which is slow when it is busy. A retry
 * timer that fires before the close completes would leave the socket closed for good, the
 * canvas editing its device copy with nothing ever saved (seen in the 2,000-editor benchmark:
 * two editors stuck so, refused three times each).
 */
export function reconnectWhenClosed(socket: HocuspocusProviderWebsocket): void {
  if (socket.status === WebSocketStatus.Disconnected) {
    void socket.connect()
    return
  }
  const onStatus = ({ status }: { status: WebSocketStatus }) => {
    if (status !== WebSocketStatus.Disconnected) return
    socket.off('status', onStatus)
    void socket.connect()
  }
  socket.on('status', onStatus)
}
