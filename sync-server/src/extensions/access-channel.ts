import { randomUUID } from 'node:crypto'
import type { Extension, Hocuspocus, onConfigurePayload } from '@hocuspocus/server'
import { Redis as RedisClient } from 'ioredis'
import { applyAccessChangeLocally } from '../access-channel/close-connections.ts'
import {
  type AccessChannelMessage,
  accessChannelMessageSchema,
  describeMessage,
  type WireMessage,
  wireMessageSchema,
} from '../access-channel/messages.ts'
import { ACCESS_PUBLISH_TIMEOUT_MS } from '../config.ts'
import type { SyncLogger } from '../logger.ts'
import type { PersistenceExtension } from './persistence.ts'
import { redisConnection } from './redis.ts'

/** The Redis channel of access changes for `prefix` (default `reelgraph`). */
export function accessChannelName(prefix = 'reelgraph'): string {
  return `${prefix}:access`
}

/** What an {@link AccessChannel} connects to, and the persistence it acts on. */
export interface AccessChannelOptions {
  /** `redis://` URL shared by every sync-server process. */
  url: string
  /** Namespace shared with the document channels (default `reelgraph`). */
  prefix?: string | undefined
  logger: SyncLogger
  /**
   * This server's persistence, told to forget the document of a project deleted on another
   * process before it is unloaded (see `closeLocalDocument`).
   */
  persistence: PersistenceExtension
  /** Longest `publish` waits for Redis before resolving anyway (default 2,000 ms). */
  publishTimeoutMs?: number | undefined
}

/**
 * Carries access changes and ended sessions (`access-channel/messages.ts`) between the sync
 * servers sharing one Redis (issue 6 item 1: "removing a member closes their open
 * connections", whichever process holds them; and signing out closes the signed-out
 * session's sockets): the Redis pub/sub side of the access channel. A
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
   * @throws ZodError (rejects) when `change` matches neither `accessChangeSchema` nor
   *   `sessionsEndedSchema`.
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
    let change: WireMessage
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
