import {
  describeLookalike,
  findLookalikeSettings,
  metricsPortSchema,
  metricsTokenSchema,
  type SettingLookalike,
} from '@reelgraph/shared'
import { z } from 'zod'

/**
 * SYNC_MEMORY_BUDGET_MB (issue 23 item 2): MiB of estimated heap the open documents may
 * take, as bytes; unset or empty: undefined (the default share of the V8 heap limit).
 * The api reads the same variable for the sync server it embeds.
 */
export const syncMemoryBudgetSchema = z
  .string()
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .pipe(z.number().int().min(1).max(1_048_576).optional())
  .transform((mb) => (mb === undefined ? undefined : mb * 1024 * 1024))

/**
 * Every setting of the standalone sync-server process (production), read from the
 * environment once at boot. Embedded in the api (`npm start`), the api's settings apply.
 */
export const syncEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /** TCP port of the WebSocket server (path /sync). */
    SYNC_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
    /** Interface to listen on. */
    SYNC_HOST: z.string().default('0.0.0.0'),
    /** Postgres URL: required, the process is stateless and shares the api's database. */
    DATABASE_URL: z.url({ error: 'DATABASE_URL must be a postgres:// URL' }),
    /**
     * Redis shared by every sync-server process (`redis://host:6379`): required to run more
     * than one, so clients on different processes edit one document live.
     */
    REDIS_URL: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(z.url({ error: 'REDIS_URL must be a redis:// URL' }).optional()),
    /** Namespace of the Redis channels, so installations sharing one Redis stay apart (default `reelgraph`). */
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default('reelgraph'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** Public URL of the app: browsers may only open the socket from its origin. */
    APP_URL: z.url().optional(),
    /** Extra allowed Origins, comma-separated. */
    ALLOWED_ORIGINS: z.string().default(''),
    /**
     * Memory budget for open documents, in MiB of estimated heap (issue 23): one more
     * document past it is refused as busy. Unset: half the V8 heap limit, less on a small
     * heap (`defaultMemoryBudgetBytes`).
     */
    SYNC_MEMORY_BUDGET_MB: syncMemoryBudgetSchema,
    /**
     * Bearer token for `GET /metrics` on SYNC_PORT (issue 40 item 6): a scraper on another
     * machine or container sends `Authorization: Bearer <token>`. Unset: 404 there.
     */
    METRICS_TOKEN: metricsTokenSchema,
    /** A port of 127.0.0.1 serving only `GET /metrics`, no token (issue 40 item 6). */
    METRICS_PORT: metricsPortSchema,
  })
  .transform((env) => ({
    ...env,
    /** APP_URL's and ALLOWED_ORIGINS' origins; with neither, only a `Host` match allows a browser. */
    allowedOrigins: [env.APP_URL ?? '', ...env.ALLOWED_ORIGINS.split(',')]
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => new URL(o).origin),
    /** Production cookies are Secure with the `__Host-` prefix, as the api sets them. */
    secureCookies: env.NODE_ENV === 'production',
  }))

/** The parsed settings. */
export type SyncEnv = z.infer<typeof syncEnvSchema>

/**
 * Parses settings from `source` (default `process.env`).
 * @throws Error listing every missing or invalid variable, then every variable that looks
 *   like a setting but is none (a misspelt name is often why one is missing).
 */
export function loadSyncEnv(source: Record<string, string | undefined> = process.env): SyncEnv {
  const result = syncEnvSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    // A misspelt name is often why a variable is missing: name the look-alikes too.
    const hints = syncSettingLookalikes(source).map((f) => `  ${describeLookalike(f)}`)
    throw new Error(`Invalid environment:\n${[...problems, ...hints].join('\n')}`)
  }
  return result.data
}

/** Every variable the standalone sync server reads: the keys of {@link syncEnvSchema}. */
export const SYNC_SETTING_NAMES: readonly string[] = Object.keys(syncEnvSchema.in.shape)

/**
 * The variables of `source` that look like sync-server settings but are none (issue 11
 * item 9), e.g. `SYNC_PROT` or `REDIS_URI`; the process logs one warning for each.
 * @param source the environment (default `process.env`); only its names are read
 * @see issue 11 item 9
 */
export function syncSettingLookalikes(
  source: Record<string, string | undefined> = process.env,
): SettingLookalike[] {
  return findLookalikeSettings(Object.keys(source), SYNC_SETTING_NAMES)
}
