import type { DB } from '@reelgraph/db'
import { Redis } from 'ioredis'
import { CompiledQuery, type Kysely } from 'kysely'
import type { Logger } from 'pino'
import {
  type IRateLimiterOptions,
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import type { RateLimitRule, RateLimitRules } from '../config.ts'
import { AppError } from '../lib/app-error.ts'

/** One named limit over keys (an address, an account, ...). */
export interface RateLimit {
  /**
   * Counts one event for `key`, atomically in the shared store, before the work it limits.
   * @throws AppError 429 RATE_LIMITED (with Retry-After, in seconds) when this event puts the
   *   key over its limit or the key is blocked; the event stays counted.
   * @throws Error when the store fails (Postgres down; Redis down falls back to memory).
   */
  consume(key: string, message: string): Promise<void>
  /** Gives one counted event back (it turned out not to be a failure, e.g. a good password). */
  reward(key: string): Promise<void>
  /** Forgets the key and any block on it. */
  reset(key: string): Promise<void>
}

/** Every limit of {@link RateLimitRules}, by name. */
export type RateLimits = { [K in keyof RateLimitRules]: RateLimit }

/**
 * Where the counts live. `redis` and `postgres` are shared by every api process, so N
 * processes allow each limit once, not N times (issue 11 item 6). `memory` counts in this
 * process only: unit tests.
 */
export type RateLimitStore =
  | {
      kind: 'redis'
      client: Redis
      /** Start of every key (default `rate-limit`); tests use one per run. */
      prefix?: string | undefined
    }
  | {
      /**
       * The app's database through its Kysely instance: the `pg` Pool with DATABASE_URL, else
       * the embedded PGlite (one process, and RateLimiterPostgres's queries run on it as they
       * are). The table comes from migration 0007-rate-limits.
       */
      kind: 'postgres'
      db: Kysely<DB>
    }
  | { kind: 'memory' }

/** The table of migration 0007-rate-limits. */
const RATE_LIMITS_TABLE = 'rate_limits'

function tooMany(res: RateLimiterRes, message: string): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000))
  const minutes = Math.ceil(seconds / 60)
  const wait = seconds < 90 ? `${seconds} seconds` : `${minutes} minutes`
  return new AppError('RATE_LIMITED', `${message} Try again in ${wait}.`, {
    headers: { 'Retry-After': String(seconds) },
  })
}

/**
 * RateLimiterPostgres's client contract (`query({ text, values })` resolving to `{ rows,
 * rowCount }`) over Kysely, so the limiter uses the app's own pool, or PGlite, whose
 * `query(text, params)` takes no query object. rowCount: the rows a select returned, the rows
 * a delete removed.
 */
function kyselyStoreClient(db: Kysely<DB>) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []))
      const rowCount = result.rows.length || Number(result.numAffectedRows ?? 0)
      return { rows: result.rows, rowCount }
    },
  }
}

function createLimiter(
  name: string,
  rule: RateLimitRule,
  store: RateLimitStore,
  sweepExpired: boolean,
): RateLimiterAbstract {
  const options: IRateLimiterOptions = {
    keyPrefix: name,
    points: rule.points,
    duration: rule.durationSeconds,
    blockDuration: rule.blockSeconds,
  }
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory(options)
    case 'redis':
      return new RateLimiterRedis({
        ...options,
        keyPrefix: `${store.prefix ?? 'rate-limit'}:${name}`,
        storeClient: store.client,
        // A Redis outage must not fail every sign-in: each process counts on its own until
        // Redis is back (limits are then per process, as before issue 11).
        insuranceLimiter: new RateLimiterMemory(options),
      })
    case 'postgres':
      return new RateLimiterPostgres({
        ...options,
        storeClient: kyselyStoreClient(store.db),
        storeType: 'client',
        tableName: RATE_LIMITS_TABLE,
        tableCreated: true,
        // Every limit shares the table: one sweeper of expired rows per process is enough.
        clearExpiredByTimeout: sweepExpired,
      })
  }
}

function createLimit(limiter: RateLimiterAbstract): RateLimit {
  return {
    async consume(key, message) {
      try {
        await limiter.consume(key)
      } catch (err) {
        if (err instanceof RateLimiterRes) throw tooMany(err, message)
        throw err
      }
    },
    async reward(key) {
      await limiter.reward(key)
    },
    async reset(key) {
      await limiter.delete(key)
    },
  }
}

/**
 * The api's rate limits (`rules`, see config.ts), counted in `store`. Each `consume` is one
 * atomic increment in the store, so parallel requests cannot all pass a check made before
 * the count (issue 11 item 4) and every process sharing the store shares the limits (item
 * 6).
 * @param store Redis (REDIS_URL) or the app's database in the server; omitted: this
 *   process's memory, for unit tests only.
 * @see issue 11 items 4 and 6
 */
export function createRateLimits(
  rules: RateLimitRules,
  store: RateLimitStore = { kind: 'memory' },
): RateLimits {
  return Object.fromEntries(
    Object.entries(rules).map(([name, rule], i) => [
      name,
      createLimit(createLimiter(name, rule, store, i === 0)),
    ]),
  ) as RateLimits
}

/**
 * A Redis client for {@link createRateLimits}, from a `redis://` or `rediss://` URL. A
 * command fails after one reconnection attempt (the limits then count in memory until Redis
 * is back); an outage is logged once, and its end. Close it with `quit()` or `disconnect()`.
 * @see issue 11 item 6
 */
export function connectRateLimitRedis(url: string, logger: Logger): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  let failing = false
  client.on('error', (err: Error) => {
    if (failing) return
    failing = true
    logger.warn({ err }, 'rate limits: Redis is unreachable; each process counts on its own')
  })
  client.on('ready', () => {
    if (!failing) return
    failing = false
    logger.info('rate limits: Redis is back; the limits are shared again')
  })
  return client
}
