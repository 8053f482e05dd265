import { randomUUID } from 'node:crypto'
import { Redis } from '@hocuspocus/extension-redis'
import {
  type beforeBroadcastStatelessPayload,
  OutgoingMessage,
  type onStoreDocumentPayload,
} from '@hocuspocus/server'
import type { SyncLogger } from '../logger.ts'

export interface ReelgraphRedisOptions {
  /** `redis://` URL shared by every sync-server process. */
  url: string
  /** Namespace of the Redis channels (default `reelgraph`); tests use one per run. */
  prefix?: string | undefined
  /** Where Redis outages and resyncs are logged (default: nowhere). */
  logger?: SyncLogger | undefined
}

/**
 * `@hocuspocus/extension-redis` for several sync-server processes: every document change is
 * published on `<prefix>:<document>` so clients on different processes edit one document live
 * (issue 6 item 5). Each process gets its own identifier (`sync-<hostname-free uuid>`).
 *
 * Stores: upstream, `onStoreDocument` takes a Redis lock and, when another process holds it,
 * throws `SkipFurtherHooksError`, so our persistence never runs for that store and it is not
 * retried. The lock holder may not have received this process's latest edits yet, so that
 * store would be lost (and `whenStored` would never resolve here). We therefore take no lock:
 * every process stores the edits its own clients made, and `PersistenceExtension` merges with
 * the stored state under a Postgres row lock, so concurrent stores can neither lose nor
 * duplicate anything (a store that adds nothing writes nothing).
 *
 * Redis restarts (issue 6 "A Redis restart does not lose edits either"): pub/sub keeps
 * nothing, so what processes publish while Redis is down (or before the others have
 * subscribed again) never reaches them, and upstream resyncs two processes only when a
 * document loads. Their copies would stay apart until the next edit. So each time both
 * Redis clients are ready again, this process subscribes again to every loaded document's channel
 * (and its reply channel), then publishes a sync step 1 and an awareness query for each:
 * every peer answers with what this process lacks and its own sync step 1, which this one
 * answers in turn (the same exchange as the initial sync in `afterLoadDocument`). Whichever
 * process subscribes last reaches all the others. Stores never depended on Redis. Client
 * errors are logged once per outage (ioredis reconnects by itself), never thrown.
 */
export class ReelgraphRedis extends Redis {
  private readonly logger: SyncLogger | undefined
  private destroyed = false

  constructor(options: ReelgraphRedisOptions) {
    super({
      prefix: options.prefix ?? 'reelgraph',
      identifier: `sync-${randomUUID()}`,
      ...redisConnection(options.url),
    })
    this.logger = options.logger
    this.guardPublishes()
    this.watchErrors(this.pub, 'publisher')
    this.watchErrors(this.sub, 'subscriber')
    // Once both clients are back: a publish queued on a publisher still reconnecting after a
    // long outage may be dropped by ioredis (maxRetriesPerRequest).
    const resyncWhenBothReady = () => {
      if (this.pub.status !== 'ready' || this.sub.status !== 'ready') return
      this.resyncWithPeers().catch((err: unknown) => {
        this.logger?.warn({ err }, 'resync through Redis failed; the next edit resyncs')
      })
    }
    this.pub.on('ready', resyncWhenBothReady)
    this.sub.on('ready', resyncWhenBothReady)
  }

  /**
   * Subscribes again to every loaded document and asks the other processes for what this one
   * lacks (sync step 1), and for their awareness. Called whenever both Redis clients are
   * ready again; nothing to do at boot (no document yet). Whichever process runs it last
   * reaches every other (each subscribed before running it).
   */
  async resyncWithPeers(): Promise<void> {
    const documents = this.instance ? [...this.instance.documents.values()] : []
    if (documents.length === 0 || this.destroyed) return
    const prefix = this.configuration.prefix
    // ioredis subscribes again by itself; asking once more is harmless and, once answered,
    // proves the subscriptions are in place before anyone is asked to reply.
    await this.sub.subscribe(
      `${prefix}#reply:${this.configuration.identifier}`,
      ...documents.map((d) => `${prefix}:${d.name}`),
    )
    await Promise.all(
      documents.flatMap((document) => {
        const channel = `${prefix}:${document.name}`
        const step1 = new OutgoingMessage(document.name)
          .createSyncMessage()
          .writeFirstSyncStepFor(document)
          .toUint8Array()
        const query = new OutgoingMessage(document.name).writeQueryAwareness().toUint8Array()
        return [step1, query].map((m) =>
          this.pub.publish(channel, Buffer.concat([this.messagePrefix, Buffer.from(m)])),
        )
      }),
    )
    this.logger?.info({ documents: documents.length }, 'resynced documents through Redis')
  }

  /**
   * Publishes `update` on the document's channel, as a change made here: every sync server
   * holding the document applies it (issue 23 item 3: the gateway's REST path appends a
   * change without opening the document here).
   */
  async publishUpdate(documentName: string, update: Uint8Array): Promise<void> {
    const message = new OutgoingMessage(documentName)
      .createSyncMessage()
      .writeUpdate(update)
      .toUint8Array()
    await this.pub.publish(
      `${this.configuration.prefix}:${documentName}`,
      Buffer.concat([this.messagePrefix, Buffer.from(message)]),
    )
  }

  override async onDestroy(): Promise<void> {
    this.destroyed = true
    await super.onDestroy()
  }

  override async onStoreDocument(_payload: onStoreDocumentPayload): Promise<void> {
    // No lock: see the class comment.
  }

  /**
   * Upstream publishes the stateless message (our `saved`) and Hocuspocus does not wait for
   * it nor catch it: once ioredis gives up on a command queued during a long outage, the
   * rejection would be unhandled and end the process. Local clients get the message anyway.
   */
  override async beforeBroadcastStateless(data: beforeBroadcastStatelessPayload): Promise<number> {
    try {
      return await super.beforeBroadcastStateless(data)
    } catch (err) {
      this.logger?.warn({ err, documentName: data.documentName }, 'stateless message not relayed')
      return 0
    }
  }

  /**
   * Upstream also publishes replies to other processes without awaiting or catching them
   * (`MessageReceiver` replies): a reply in flight when Redis dies is queued, and rejected by
   * ioredis after maxRetriesPerRequest, which would end the process as an unhandled
   * rejection. Every publish promise gets a handler here; callers still see the rejection.
   */
  private guardPublishes(): void {
    const pub = this.pub as Redis['pub'] & { publish: (...args: unknown[]) => Promise<number> }
    const publish = pub.publish.bind(pub)
    pub.publish = (...args: unknown[]) => {
      const sent = publish(...args)
      sent.catch((err: unknown) => {
        this.logger?.debug({ err }, 'a Redis publish was dropped')
      })
      return sent
    }
  }

  /** Logs a Redis outage once (ioredis emits an error per reconnect attempt), and its end. */
  private watchErrors(client: Redis['pub'], role: string): void {
    let failing = false
    client.on('error', (err: Error) => {
      if (failing || this.destroyed) return
      failing = true
      this.logger?.warn({ err, role }, 'document channel lost Redis; reconnecting')
    })
    client.on('ready', () => {
      if (!failing) return
      failing = false
      this.logger?.info({ role }, 'document channel reconnected to Redis')
    })
  }
}

/** ioredis connection settings from a `redis://` or `rediss://` URL (`/<db>` optional). */
export function redisConnection(url: string): {
  host: string
  port: number
  options: { username?: string; password?: string; db: number; tls?: object }
} {
  const parsed = new URL(url)
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL')
  }
  const db = Number(parsed.pathname.slice(1) || '0')
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || '6379'),
    options: {
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      db: Number.isInteger(db) ? db : 0,
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  }
}
