import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../app-env.ts'
import { AppError } from '../lib/app-error.ts'

const UPLOAD_MEDIA_TYPE = /^(audio\/[\w.+-]+|application\/octet-stream)$/i

/**
 * A file upload's body is the file: `audio/*` (what a browser sends for a chosen audio file)
 * or `application/octet-stream`; anything else is 415 with what to send. What the bytes are is
 * decided by reading them (ffmpeg), never by this header.
 */
export const requireUploadBody = createMiddleware<AppEnv>(async (c, next) => {
  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? ''
  if (!UPLOAD_MEDIA_TYPE.test(mediaType)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the file as the request body with Content-Type audio/* or application/octet-stream.',
    )
  }
  return next()
})

/** Paths whose body is an uploaded file rather than JSON. */
export const UPLOAD_PATHS: ReadonlySet<string> = new Set(['/api/assets/audio'])
