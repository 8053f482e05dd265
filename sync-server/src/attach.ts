import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Hocuspocus } from '@hocuspocus/server'
import { SYNC_PATH } from '@reelgraph/shared'
import { type RawData, type WebSocket, WebSocketServer } from 'ws'
import { SOCKET_CLOSE_GRACE_MS, SYNC_MAX_MESSAGE_BYTES } from './config.ts'
import type { SocketContext, SocketHandle } from './load/busy.ts'

/** A sync server attached to an HTTP server. */
export interface SyncAttachment {
  /**
   * Stops accepting WebSockets and closes the open ones (code 1001, going away), which stores
   * their documents' pending changes; resolves once every socket is closed.
   */
  close(): Promise<void>
}

/** Close code for "the server is going away" (RFC 6455 §7.4.1). */
const GOING_AWAY = 1001

/**
 * Serves Hocuspocus on the WebSocket upgrades of `httpServer` for `path` (default
 * `SYNC_PATH`, `/sync`; the query string is ignored). Upgrades for other paths are left to
 * the server's other `upgrade` listeners; when there is none they are answered 404.
 * Each socket is handed to `hocuspocus.handleConnection` with the upgrade request as a Fetch
 * `Request`, so its headers (the session cookie, Origin) reach the auth hook.
 * @see issue 3 item 3 (mounted at /sync on the api's server)
 */
export function attachSyncServer(
  httpServer: Server,
  hocuspocus: Hocuspocus,
  path: string = SYNC_PATH,
): SyncAttachment {
  const wss = new WebSocketServer({ noServer: true, maxPayload: SYNC_MAX_MESSAGE_BYTES })
  let closing = false

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathnameOf(request.url) !== path) {
      if (httpServer.listenerCount('upgrade') === 1) refuseUpgrade(socket, 404, 'Not Found')
      return
    }
    if (closing) return refuseUpgrade(socket, 503, 'Service Unavailable')
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws, request))
  }

  const serve = (ws: WebSocket, request: IncomingMessage) => {
    // Every document on this socket shares the handle: a busy refusal closes the socket
    // only while it carries no other document (issue 23 item 2).
    const socket: SocketHandle = {
      established: 0,
      close: (code, reason) => {
        if (ws.readyState === ws.OPEN) ws.close(code, reason)
      },
    }
    const context: SocketContext = { socket }
    const client = hocuspocus.handleConnection(ws, toFetchRequest(request), context)
    ws.on('message', (data) => client.handleMessage(toBytes(data)))
    ws.on('close', (code, reason) => client.handleClose({ code, reason: reason.toString() }))
    // A protocol error: ws closes the socket after this, and 'close' does the rest.
    ws.on('error', () => {})
  }

  httpServer.on('upgrade', onUpgrade)
  return {
    async close() {
      closing = true
      httpServer.off('upgrade', onUpgrade)
      const sockets = [...wss.clients]
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve()
              const timer = setTimeout(() => ws.terminate(), SOCKET_CLOSE_GRACE_MS)
              ws.once('close', () => {
                clearTimeout(timer)
                resolve()
              })
              ws.close(GOING_AWAY, 'Server shutting down')
            }),
        ),
      )
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}

function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/'
  const q = raw.indexOf('?')
  return q === -1 ? raw : raw.slice(0, q)
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

/** The upgrade request as a Fetch Request: what Hocuspocus 4 hands to its hooks. */
export function toFetchRequest(request: IncomingMessage): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, v)
      } catch {}
    }
  }
  let url: URL
  try {
    url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`)
  } catch {
    url = new URL('http://localhost/')
  }
  return new Request(url, { headers })
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data)
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  return data
}
