import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'
import { createSession, type DB, insertProjectWithOwner } from '@reelgraph/db'
import {
  createNodeId,
  type Graph,
  type GraphNode,
  SYNC_PATH,
  type SyncMessage,
  syncMessageSchema,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import type { SyncLogger } from '../logger.ts'

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

/** Node 24 from the `node` devDependency when present (Vitest may run on another Node). */
export function nodeBinary(): string {
  const local = `${ROOT}node_modules/.bin/node`
  return existsSync(local) ? local : process.execPath
}

/**
 * Waits until `condition()` is truthy (polling), and returns its value.
 * @throws Error naming `what` after `timeoutMs`.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await condition()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A logger that keeps what it is told (for asserting) and prints nothing. */
export function captureLogger(): SyncLogger & {
  entries: { level: string; obj: object; msg?: string | undefined }[]
} {
  const entries: { level: string; obj: object; msg?: string | undefined }[] = []
  const at = (level: string) => (obj: object, msg?: string) => {
    entries.push({ level, obj, msg })
  }
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

let userCount = 0

/** A user with a session; `cookie` is the `session=<token>` header value (non-secure name). */
export async function createUser(db: Kysely<DB>): Promise<{ userId: number; cookie: string }> {
  userCount += 1
  const user = await db
    .insertInto('users')
    .values({
      name: `Sync User ${userCount}`,
      email: `sync-${userCount}-${Math.random().toString(36).slice(2)}@example.com`,
      password_hash: 'not-a-real-hash',
      stripe_customer_id: null,
      stripe_subscription_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const { token } = await createSession(db, user.id)
  return { userId: user.id, cookie: `session=${token}` }
}

/** A project of `userId` holding `graph` as its JSON (no document yet). */
export async function createProject(
  db: Kysely<DB>,
  userId: number,
  graph: Graph = { nodes: [], connections: [] },
): Promise<number> {
  return insertProjectWithOwner(db, {
    user_id: userId,
    name: 'Sync Project',
    description: 'for sync tests',
    nodes: JSON.stringify(graph.nodes),
    connections: JSON.stringify(graph.connections),
  })
}

/** A text node at `x`. */
export function textNode(content: string, x = 0): GraphNode {
  return {
    id: createNodeId('editable-text'),
    type: 'editable-text',
    label: 'Text',
    position: { x, y: 0 },
    data: { content },
    connectionPoints: 'both',
  }
}

/** Two connected text nodes, in `docToGraph` order (by id). */
export function sampleGraph(): Graph {
  const a = textNode('first', 0)
  const b = textNode('second', 400)
  const nodes = [a, b].sort((x, y) => (x.id < y.id ? -1 : 1))
  return { nodes, connections: [{ source: a.id, target: b.id }] }
}

/** A `ws` WebSocket that sends `cookie` with its upgrade request, as a browser would. */
export function cookieWebSocket(
  cookie: string | undefined,
): new (url: string | URL, protocols?: string | string[]) => WebSocket {
  return class CookieWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, cookie ? { headers: { cookie } } : {})
    }
  }
}

/** A provider on one project document, with what it heard from the server. */
export interface TestClient {
  doc: Y.Doc
  provider: HocuspocusProvider
  socket: HocuspocusProviderWebsocket
  /** Stateless sync messages received, oldest first. */
  messages: SyncMessage[]
  /** `permission-denied` reasons received. */
  refusals: string[]
  /** True once authenticated and synced with the server. */
  isSynced(): boolean
  /** True once the server acknowledged every update this client sent. */
  isAcknowledged(): boolean
  /** True once a `saved` message covers everything in this client's doc (deletions too). */
  isSaved(): boolean
  destroy(): void
}

/**
 * A `@hocuspocus/provider` in Node on `ws://127.0.0.1:<port>/sync`, sending `cookie`,
 * reconnecting quickly (tests restart servers).
 */
export function connectClient(options: {
  port: number
  projectId: number
  cookie?: string | undefined
  doc?: Y.Doc
}): TestClient {
  const doc = options.doc ?? new Y.Doc()
  const messages: SyncMessage[] = []
  const refusals: string[] = []
  const socket = new HocuspocusProviderWebsocket({
    url: `ws://127.0.0.1:${options.port}${SYNC_PATH}`,
    WebSocketPolyfill: cookieWebSocket(options.cookie),
    delay: 50,
    minDelay: 50,
    maxDelay: 200,
    factor: 1.5,
  })
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: String(options.projectId),
    document: doc,
    onStateless: ({ payload }) => {
      const parsed = syncMessageSchema.safeParse(JSON.parse(payload))
      if (parsed.success) messages.push(parsed.data)
    },
    onAuthenticationFailed: ({ reason }) => {
      refusals.push(reason)
    },
  })
  provider.attach()
  return {
    doc,
    provider,
    socket,
    messages,
    refusals,
    isSynced: () => provider.isAuthenticated && provider.isSynced,
    isAcknowledged: () => provider.isSynced && !provider.hasUnsyncedChanges,
    isSaved: () => {
      const saved = messages.findLast((m) => m.type === 'saved')
      if (!saved?.snapshot) return false
      const snapshot = Y.decodeSnapshot(Buffer.from(saved.snapshot, 'base64'))
      return Y.snapshotContainsUpdate(snapshot, Y.encodeStateAsUpdate(doc))
    },
    destroy() {
      provider.destroy()
      socket.destroy()
    },
  }
}

/** A sync server running in a child process (`sync-server-process.ts`). */
export interface SyncServerProcess {
  port: number
  child: ChildProcess
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
  /** What the process wrote to stderr so far (shown when a test fails). */
  stderr(): string
}

/**
 * Starts `sync-server-process.ts` with `args` and resolves once it listens.
 * @throws Error with its stderr when it exits first.
 */
export async function spawnSyncServer(args: string[]): Promise<SyncServerProcess> {
  const script = fileURLToPath(new URL('./sync-server-process.ts', import.meta.url))
  const child = spawn(nodeBinary(), [script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n').find((l) => l.startsWith('{"port"'))
      if (line) resolve((JSON.parse(line) as { port: number }).port)
    })
    void exited.then((code) => reject(new Error(`sync server exited (${code}): ${stderr}`)))
  })
  return { port, child, exited, stderr: () => stderr }
}
