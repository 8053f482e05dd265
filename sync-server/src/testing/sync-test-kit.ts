import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider'
import {
  compactProjectDocument,
  createDb,
  createSession,
  type DB,
  insertProjectWithOwner,
  mergeStoredDocument,
  migrateToLatest,
  type ProjectRole,
  projectDocumentIsStale,
  readProjectDocument,
} from '@reelgraph/db'
import { migratedPgliteTemplate, type TestDatabaseKind } from '@reelgraph/db/testing'
import {
  createNodeId,
  decodeSavedSnapshot,
  docToGraph,
  type Graph,
  type GraphNode,
  SYNC_PATH,
  type SyncMessage,
  syncMessageSchema,
} from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
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
export async function createUser(
  db: Kysely<DB>,
): Promise<{ userId: number; cookie: string; sessionId: string }> {
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
  return { userId: user.id, ...(await signIn(db, user.id)) }
}

/** Another session of `userId`: its id (`sessions.id`) and the cookie carrying it. */
export async function signIn(
  db: Kysely<DB>,
  userId: number,
): Promise<{ cookie: string; sessionId: string }> {
  const { token } = await createSession(db, userId)
  return { cookie: `session=${token}`, sessionId: token.split('.')[0]! }
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

/**
 * Makes `userId` a member of `projectId` with `role`, or changes their role (issue 6). The
 * sync server reads it on the next authentication: close their connections after.
 */
export async function setMemberRole(
  db: Kysely<DB>,
  projectId: number,
  userId: number,
  role: Exclude<ProjectRole, 'owner'>,
): Promise<void> {
  await db
    .insertInto('project_members')
    .values({ project_id: projectId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ role }))
    .execute()
}

/** Removes `userId` from the members of `projectId`. */
export async function removeMember(db: Kysely<DB>, projectId: number, userId: number) {
  await db
    .deleteFrom('project_members')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute()
}

/**
 * The stored document (snapshot merged with its update log) as a graph, and the REST JSON
 * as `GET /api/projects/:id` serves it: `projects.nodes/connections` after materializing the
 * log (a compaction, as the api's read does when the log is not empty; issue 15 item 3).
 */
export async function storedGraphs(
  db: Kysely<DB>,
  projectId: number,
): Promise<{ json: Graph; state: Graph | null }> {
  const state = await storedDocumentGraph(db, projectId)
  if (await projectDocumentIsStale({ db, projectId })) {
    await compactProjectDocument({ db, projectId })
  }
  const row = await db
    .selectFrom('projects')
    .select(['nodes', 'connections'])
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow()
  return { json: { nodes: row.nodes, connections: row.connections } as Graph, state }
}

/** The stored document (snapshot merged with its update log) as a graph; null when none. */
export async function storedDocumentGraph(
  db: Kysely<DB>,
  projectId: number,
): Promise<Graph | null> {
  const stored = await readProjectDocument({ db, projectId })
  if (!stored) return null
  const doc = new Y.Doc()
  try {
    Y.applyUpdate(doc, mergeStoredDocument(stored))
    return docToGraph(doc)
  } finally {
    doc.destroy()
  }
}

/**
 * The `postgres://` URL of the database `db` is connected to (a per-file test database made
 * from TEST_DATABASE_URL), for child processes (`spawnSyncServer`).
 */
export async function childDatabaseUrl(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db)
  const url = new URL(process.env.TEST_DATABASE_URL ?? '')
  url.pathname = `/${rows[0]?.name}`
  return url.toString()
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
  /** Close events of its socket (code and reason), oldest first. */
  closes: { code: number; reason: string }[]
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
  const closes: { code: number; reason: string }[] = []
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
    onClose: ({ event }) => {
      closes.push({ code: event.code, reason: event.reason })
    },
  })
  provider.attach()
  return {
    doc,
    provider,
    socket,
    messages,
    refusals,
    closes,
    isSynced: () => provider.isAuthenticated && provider.isSynced,
    isAcknowledged: () => provider.isSynced && !provider.hasUnsyncedChanges,
    isSaved: () => {
      const saved = messages.findLast((m) => m.type === 'saved')
      const snapshot = saved && decodeSavedSnapshot(saved.snapshot)
      return !!snapshot && Y.snapshotContainsUpdate(snapshot, Y.encodeStateAsUpdate(doc))
    },
    destroy() {
      provider.destroy()
      // A socket still connecting (to a server a test just killed) reports its abort as an
      // 'error' event on the next tick, when the provider no longer listens: keep it from
      // becoming an uncaught exception.
      if (socket.webSocket instanceof WebSocket) socket.webSocket.on('error', () => {})
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
  /** What the process wrote to stdout so far (its JSON log lines). */
  stdout(): string
  /** SIGTERMs it unless it has already exited, and resolves once it has. */
  stop(): Promise<void>
  /** Its `GET /metrics` (Prometheus text), asked with {@link SYNC_PROCESS_METRICS_TOKEN}. */
  metrics(): Promise<string>
}

/**
 * The METRICS_TOKEN every `sync-server-process.ts` started by {@link spawnSyncServer} runs
 * with (issue 40 item 6: without one, `/metrics` is not served on the public port).
 */
export const SYNC_PROCESS_METRICS_TOKEN = 'sync-server-process-metrics-token'

/**
 * Starts `sync-server-process.ts` with `args` and resolves once it listens.
 * @throws Error with its stderr when it exits first.
 */
export async function spawnSyncServer(
  args: string[],
  /** Options for Node itself (e.g. `--expose-gc`), before the script. */
  nodeArgs: string[] = [],
): Promise<SyncServerProcess> {
  const script = fileURLToPath(new URL('./sync-server-process.ts', import.meta.url))
  const child = spawn(
    nodeBinary(),
    [...nodeArgs, script, '--metrics-token', SYNC_PROCESS_METRICS_TOKEN, ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  let stdout = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const line = stdout.split('\n').find((l) => l.startsWith('{"port"'))
      if (line) resolve((JSON.parse(line) as { port: number }).port)
    })
    void exited.then((code) => reject(new Error(`sync server exited (${code}): ${stderr}`)))
  })
  return {
    port,
    child,
    exited,
    stderr: () => stderr,
    stdout: () => stdout,
    async metrics() {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${SYNC_PROCESS_METRICS_TOKEN}` },
      })
      if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`)
      return res.text()
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}

/** The `redis-server` binary when installed (the Redis restart test needs its own server). */
export function redisServerBinary(): string | undefined {
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p))
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A private `redis-server` for fault tests (never the shared one on 6379). */
export interface RedisServerProcess {
  port: number
  /** `redis://127.0.0.1:<port>` */
  url: string
  /** Starts it (again) on the same port; resolves once it answers PING. */
  start(): Promise<void>
  /** SIGKILLs it and resolves once it has exited (a crash: nothing kept, `--save ''`). */
  kill(): Promise<void>
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1 without persistence, and resolves once
 * it answers PING. Kill it with `kill()` when done.
 * @throws Error when the binary is missing or it does not answer within 10 s.
 */
export async function startRedisServer(): Promise<RedisServerProcess> {
  const binary = redisServerBinary()
  if (!binary) throw new Error('redis-server is not installed')
  const port = await freePort()
  let child: ChildProcess | undefined
  let exited: Promise<unknown> = Promise.resolve()
  const server: RedisServerProcess = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      )
      child = started
      exited = new Promise((resolve) => started.once('exit', resolve))
      await waitFor(() => redisAnswers(port), `redis-server on port ${port}`, 10_000)
    },
    async kill() {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
  await server.start()
  return server
}

/** True when something on `port` answers a Redis PING with PONG. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket()
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')))
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'))
  })
}

/** A database a child process can open, and how the test opens it around the child's life. */
export interface ChildDatabase {
  /** Arguments of `sync-server-process.ts` naming the database. */
  args: string[]
  /** The database for this process: set up before the child runs, checked after. */
  open(): Promise<Kysely<DB>>
  /** Lets go of it while a child runs (PGlite is single-process). */
  release(db: Kysely<DB>): Promise<void>
  dispose(): Promise<void>
}

/**
 * A fresh database of `kind` for a sync server in a child process (`spawnSyncServer`):
 * PGlite in a temporary folder (single-process: the test lets go of it while the child
 * runs), or a Postgres database of its own.
 */
export async function childDatabase(kind: TestDatabaseKind): Promise<ChildDatabase> {
  if (kind.name === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'reelgraph-sync-'))
    let created = false
    return {
      args: ['--pglite-dir', dir],
      async open() {
        // The first open starts from the migrated template; later ones find the database.
        const db = createDb({
          pgliteDir: dir,
          ...(created ? {} : { pgliteDataDirArchive: await migratedPgliteTemplate() }),
        })
        created = true
        await migrateToLatest(db)
        return db
      },
      release: (db) => db.destroy(),
      dispose: () => rm(dir, { recursive: true, force: true }),
    }
  }
  const database = await kind.create()
  return {
    args: ['--database-url', await childDatabaseUrl(database.db)],
    open: async () => database.db,
    release: async () => {},
    dispose: () => database.dispose(),
  }
}
