import { z } from 'zod'

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1')

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))

/**
 * Every setting of the api process, read from the environment once at boot.
 * `.env.example` documents each variable.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /** TCP port for HTTP (and, embedded, the /sync WebSocket). */
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Interface to listen on. */
    HOST: z.string().default('0.0.0.0'),
    /** Public URL of the app, used in emailed links and as the allowed Origin. */
    APP_URL: z.url().optional(),
    /** Extra allowed Origins for state-changing requests, comma-separated. */
    ALLOWED_ORIGINS: z.string().default(''),
    /** Where embedded state lives: PGlite in `pg/`, emails in `mail/`, assets in `assets/`. */
    DATA_DIR: z.string().default('./data'),
    /** Postgres URL; when unset the embedded PGlite database is used. */
    DATABASE_URL: optionalString.pipe(z.url().optional()),
    /** SMTP URL for nodemailer; when unset emails are written to DATA_DIR/mail. */
    SMTP_URL: optionalString.pipe(z.url().optional()),
    /** The From header of outgoing email. */
    MAIL_FROM: z.string().default('Reelgraph <no-reply@reelgraph.local>'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** Trust X-Forwarded-For for the client address (only behind a reverse proxy you run). */
    TRUST_PROXY: bool,
    /** Directory of the built web app to serve; empty to serve none (dev). */
    WEB_DIST_DIR: z.string().default('./web/dist'),
  })
  .transform((env) => {
    const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`
    const allowedOrigins = [
      new URL(appUrl).origin,
      ...env.ALLOWED_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => new URL(o).origin),
    ]
    return { ...env, APP_URL: appUrl.replace(/\/$/, ''), allowedOrigins }
  })

/** The parsed settings. */
export type Env = z.infer<typeof envSchema>

/**
 * Parses settings from `source` (default `process.env`).
 * @throws Error listing every missing or invalid variable.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${problems.join('\n')}`)
  }
  return result.data
}
