import type { AddressInfo, Socket } from 'node:net'
import { HocuspocusProviderWebsocket, MessageType, WebSocketStatus } from '@hocuspocus/provider'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer } from 'ws'
import { reconnectWhenClosed } from './reconnect'

/**
 * The provider's real socket against a local WebSocket server whose first connection is slow
 * to close: the server answers (a ping), then stops reading that socket for a while, so the
 * close the page starts completes only later, as with a busy sync server (issue 23).
 */
async function slowClosingServer(holdMs: number) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  let connections = 0
  server.on('connection', (ws) => {
    connections += 1
    ws.send(new Uint8Array([MessageType.Ping]))
    if (connections > 1) return
    // The close frame waits in the server's socket until it reads again.
    const raw = (ws as unknown as { _socket: Socket })._socket
    raw.pause()
    setTimeout(() => raw.resume(), holdMs)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `ws://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate()
        server.close(() => resolve())
      }),
  }
}

/** Waits until `check` holds (vitest's `vi.waitFor`), failing after 5 s. */
const until = (check: () => boolean) =>
  vi.waitFor(() => expect(check()).toBe(true), { timeout: 5000, interval: 10 })

describe('reconnectWhenClosed (issue 23)', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })

  /** A server whose first connection holds its close `holdMs`, and the provider's socket on it, connected. */
  async function connected(holdMs: number) {
    const server = await slowClosingServer(holdMs)
    cleanups.push(server.close)
    const socket = new HocuspocusProviderWebsocket({
      url: server.url,
      WebSocketPolyfill: WebSocket,
    })
    cleanups.push(() => socket.destroy())
    await until(() => socket.status === WebSocketStatus.Connected)
    return { server, socket }
  }

  it('comes back on a new connection when the retry is due before the close completes', async () => {
    const { server, socket } = await connected(300)
    // Refused as busy: the page closes the socket and retries before the close has completed.
    socket.disconnect()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(socket.status).toBe(WebSocketStatus.Connected)
    reconnectWhenClosed(socket)
    await until(() => server.connections() === 2)
    await until(() => socket.status === WebSocketStatus.Connected)
  })

  it('connects at once a socket that has already closed', async () => {
    const { server, socket } = await connected(0)
    socket.disconnect()
    await until(() => socket.status === WebSocketStatus.Disconnected)
    reconnectWhenClosed(socket)
    await until(() => server.connections() === 2)
  })
})
