import { randomUUID } from 'node:crypto'
import type { Connection, Extension, Hocuspocus, onConfigurePayload } from '@hocuspocus/server'
import { projectDocumentName, SYNC_ACCESS_CHANGED, SYNC_SESSION_ENDED } from '@reelgraph/shared'
import { Redis as RedisClient } from 'ioredis'
import { z } from 'zod'
import { ACCESS_PUBLISH_TIMEOUT_MS, GATEWAY_UNLOAD_TIMEOUT_MS } from './config.ts'
import type { SyncContext } from './extensions/auth.ts'
import type { PersistenceExtension } from './extensions/persistence.ts'
import { redisConnection } from './extensions/redis.ts'
import type { SyncLogger } from './logger.ts'

/**
 * A change of who may open a project, told to every sync server (issue 6 item 1):
 * - with `userId`: that member's role changed or they were removed; their connections to the
 *   project's document are closed with `SYNC_ACCESS_CHANGED`, so they authenticate again
 *   (the new role applies; a removed member is refused `project-not-found`);
 * - without `userId`: the project was deleted; every connection to its document is closed and
 *   the document unloaded without being stored.
 */
export const accessChangeSchema = z.object({
  projectId: z.number().int().positive(),
  userId: z.number().int().positive().optional(),
})

/** See {@link accessChangeSchema}. */
export type AccessChange = z.infer<typeof accessChangeSchema>

/**
 * Sessions that ended (sign-out, password reset; issue 6 / security), told to every sync
 * server: each closes the connections authenticated with one of `sessionIds` (`sessions.id`,
 * the cookie token's public half, not a secret) with `SYNC_SESSION_ENDED`; their providers
 * reconnect and are refused `unauthenticated`.
 */
export const sessionsEndedSchema = z.object({
  sessionIds: z.array(z.string().min(1).max(64)).min(1),
})

/** See {@link sessionsEndedSchema}. */
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>

/**
 * One message of the access channel: an {@link AccessChange} (`{ projectId, userId? }`) or
 * {@link SessionsEnded} (`{ sessionIds }`); told apart by their required fields.
 */
export const accessChannelMessageSchema = z.union([accessChangeSchema, sessionsEndedSchema])

/** See {@link accessChannelMessageSchema}. */
export type AccessChannelMessage = AccessChange | SessionsEnded

const senderSchema = z.object({ sender: z.string().min(1) })
/** What goes on the channel: the message and the process that sent it (it skips its own). */
const wireMessageSchema = z.union([
  accessChangeSchema.extend(senderSchema.shape),
  sessionsEndedSchema.extend(senderSchema.shape),
])

/** What a log line says about a message: session ids are counted, not listed. */
function describeMessage(message: AccessChannelMessage): Record<string, unknown> {
  return 'sessionIds' in message ? { sessionsEnded: message.sessionIds.length } : { ...message }
}

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
 * Applies a channel message to this process's connections (see {@link accessChangeSchema}
 * and {@link sessionsEndedSchema}).
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

/**
 * Applies `change` here at once and tells every other sync server sharing this one's Redis
 * (through `server.accessChannel`, when there is one); what the gateway's closing calls do.
 * Never rejects because of Redis (see {@link AccessChannel.publish}).
 */
export async function changeAccess(
  server: LocalSyncServer & { readonly accessChannel: AccessChannel | undefined },
  change: AccessChannelMessage,
  unloadTimeoutMs?: number,
): Promise<void> {
  await Promise.all([
    applyAccessChangeLocally(server, change, unloadTimeoutMs),
    server.accessChannel?.publish(change),
  ])
}

/** The Redis channel of access changes for `prefix` (default `reelgraph`). */
export function accessChannelName(prefix = 'reelgraph'): string {
  return `${prefix}:access`
}

export interface AccessChannelOptions {
  /** `redis://` URL shared by every sync-server process. */
  url: string
  /** Namespace shared with the document channels (default `reelgraph`). */
  prefix?: string | undefined
  logger: SyncLogger
  /**
   * This server's persistence, told to forget the document of a project deleted on another
   * process before it is unloaded (see {@link closeLocalDocument}).
   */
  persistence: PersistenceExtension
  /** Longest `publish` waits for Redis before resolving anyway (default 2,000 ms). */
  publishTimeoutMs?: number | undefined
}

/**
 * Carries {@link AccessChange}s and {@link SessionsEnded} between the sync servers sharing one
 * Redis (issue 6 item 1: "removing a member closes their open connections", whichever
 * process holds them; and signing out closes the signed-out session's sockets). A
 * Hocuspocus extension with its own ioredis publisher and subscriber on `<prefix>:access`;
 * each message is JSON `{ projectId, userId?, sender }` or `{ sessionIds, sender }`,
 * validated on receipt (anything else is logged and ignored). Every process but the sender applies it with
 * {@link applyAccessChangeLocally}; the sender has already done so.
 *
 * A Redis outage never crashes the process: client errors are logged (once per outage),
 * ioredis reconnects and the subscription is renewed on every reconnect. A change published
 * while another process is cut off from Redis does not reach it (Redis pub/sub keeps
 * nothing): its members keep their connection until they reconnect.
 *
 * Race (not handled, on purpose): a connection still authenticating when the change is
 * applied (role read before the update, connection registered after the close) keeps the
 * role it read until it reconnects; likewise a connection whose session was validated just
 * before the session was deleted stays open until it reconnects. The window is one
 * database read long; re-checking in later hooks would cost a query per connection or
 * message.
 */
export class AccessChannel implements Extension {
  readonly extensionName = 'reelgraph-access-channel'
  private readonly options: AccessChannelOptions
  private readonly channel: string
  private readonly sender = randomUUID()
  private readonly pub: RedisClient
  private readonly sub: RedisClient
  private instance: Hocuspocus | undefined
  private subscribed: Promise<void>
  private destroyed = false

  constructor(options: AccessChannelOptions) {
    this.options = options
    this.channel = accessChannelName(options.prefix)
    const { host, port, options: connection } = redisConnection(options.url)
    this.pub = new RedisClient(port, host, connection)
    this.sub = new RedisClient(port, host, connection)
    this.watchErrors(this.pub, 'publisher')
    this.watchErrors(this.sub, 'subscriber')
    this.sub.on('message', (channel: string, text: string) => {
      if (channel === this.channel) void this.receive(text)
    })
    this.subscribed = this.subscribe()
    // Also after a reconnect: a subscribe that failed during an outage is not renewed by ioredis.
    this.sub.on('ready', () => {
      this.subscribed = this.subscribe()
    })
  }

  async onConfigure({ instance }: onConfigurePayload): Promise<void> {
    this.instance = instance
  }

  /** Resolves once this process listens on the channel (never rejects; failures are logged). */
  whenSubscribed(): Promise<void> {
    return this.subscribed
  }

  /**
   * Tells every other sync server about `change` (an access change or ended sessions).
   * Never fails because of Redis: resolves once Redis took the message, or after
   * `publishTimeoutMs` while Redis is unreachable (ioredis still sends it when Redis is
   * back, within its retry limit), or when publishing failed; both are logged.
   * @returns true when Redis took the message in time.
   * @throws ZodError (rejects) when `change` matches neither {@link accessChangeSchema} nor
   *   {@link sessionsEndedSchema}.
   */
  async publish(change: AccessChannelMessage): Promise<boolean> {
    const text = JSON.stringify({
      ...accessChannelMessageSchema.parse(change),
      sender: this.sender,
    })
    const { logger } = this.options
    const summary = describeMessage(change)
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(
        () => resolve('timeout'),
        this.options.publishTimeoutMs ?? ACCESS_PUBLISH_TIMEOUT_MS,
      )
    })
    try {
      const result = await Promise.race([this.pub.publish(this.channel, text), timedOut])
      if (result === 'timeout') {
        logger.warn(
          { change: summary },
          'access change not published yet (Redis unreachable); other sync servers keep those connections until Redis is back',
        )
        return false
      }
      return true
    } catch (err) {
      logger.error(
        { err, change: summary },
        'publishing an access change failed; other sync servers keep those connections',
      )
      return false
    } finally {
      clearTimeout(timer)
    }
  }

  async onDestroy(): Promise<void> {
    this.destroyed = true
    this.pub.disconnect(false)
    this.sub.disconnect(false)
  }

  private async subscribe(): Promise<void> {
    try {
      await this.sub.subscribe(this.channel)
    } catch (err) {
      if (!this.destroyed) {
        this.options.logger.warn({ err }, 'subscribing to the access channel failed; retrying')
      }
    }
  }

  private async receive(text: string): Promise<void> {
    let change: z.infer<typeof wireMessageSchema>
    try {
      const parsed = wireMessageSchema.safeParse(JSON.parse(text))
      if (!parsed.success) throw parsed.error
      change = parsed.data
    } catch (err) {
      this.options.logger.warn({ err }, 'ignored a malformed access-channel message')
      return
    }
    const { sender, ...message } = change
    if (sender === this.sender || !this.instance) return
    try {
      await applyAccessChangeLocally(
        { hocuspocus: this.instance, persistence: this.options.persistence },
        message,
      )
    } catch (err) {
      this.options.logger.error(
        { err, change: describeMessage(message) },
        'applying an access change failed',
      )
    }
  }

  /** Logs a Redis outage once (not every reconnect attempt), and when it ends. */
  private watchErrors(client: RedisClient, role: string): void {
    let failing = false
    client.on('error', (err: Error) => {
      if (failing || this.destroyed) return
      failing = true
      this.options.logger.warn({ err, role }, 'access channel lost Redis; reconnecting')
    })
    client.on('ready', () => {
      if (!failing) return
      failing = false
      this.options.logger.info({ role }, 'access channel reconnected to Redis')
    })
  }
}
