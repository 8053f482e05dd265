import { z } from 'zod'

/**
 * METRICS_TOKEN (issue 40 item 6): the bearer token `/metrics` on the public port asks for;
 * unset or empty: undefined (`/metrics` there answers 404). At least 16 visible ASCII
 * characters, so it fits a header and is not guessed. The api and the sync server read it.
 */
export const metricsTokenSchema = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(
    z
      .string()
      .regex(/^[\x21-\x7e]{16,}$/, {
        error:
          'METRICS_TOKEN must be at least 16 characters, without spaces (e.g. the output of openssl rand -hex 32)',
      })
      .optional(),
  )

/**
 * METRICS_PORT (issue 40 item 6): a port of 127.0.0.1 that serves only `/metrics`, without a
 * token; unset or empty: undefined (no such server). The api and the sync server read it.
 */
export const metricsPortSchema = z
  .string()
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .pipe(
    z.number({ error: 'METRICS_PORT must be a port number' }).int().min(1).max(65535).optional(),
  )
