import pino, { type Logger } from 'pino'

/**
 * The process logger (JSON lines on stdout). Cookies, authorization headers, passwords and
 * tokens are redacted wherever they appear in a logged object.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        '*.password',
        '*.token',
        'password',
        'token',
      ],
      censor: '[redacted]',
    },
  })
}
