import pino from 'pino'

/**
 * What the sync server needs from a logger: pino's shape (an object first, then a message),
 * so the api can pass its own pino logger (or a child of it) and the standalone process
 * makes one with {@link createSyncLogger}.
 */
export interface SyncLogger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

/**
 * The standalone process's logger: JSON lines on stdout, cookies and tokens redacted.
 * @param level a pino level (`info`, `debug`, ..., `silent`).
 */
export function createSyncLogger(level: string): SyncLogger {
  return pino({
    level,
    base: { service: 'sync-server' },
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', '*.token', 'token'],
      censor: '[redacted]',
    },
  })
}
