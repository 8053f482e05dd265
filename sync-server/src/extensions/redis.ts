import { randomUUID } from 'node:crypto'
import { Redis } from '@hocuspocus/extension-redis'
import type { onStoreDocumentPayload } from '@hocuspocus/server'

export interface ReelgraphRedisOptions {
  /** `redis://` URL shared by every sync-server process. */
  url: string
  /** Namespace of the Redis channels (default `reelgraph`); tests use one per run. */
  prefix?: string | undefined
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
 */
export class ReelgraphRedis extends Redis {
  constructor(options: ReelgraphRedisOptions) {
    super({
      prefix: options.prefix ?? 'reelgraph',
      identifier: `sync-${randomUUID()}`,
      ...redisConnection(options.url),
    })
  }

  override async onStoreDocument(_payload: onStoreDocumentPayload): Promise<void> {
    // No lock: see the class comment.
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
