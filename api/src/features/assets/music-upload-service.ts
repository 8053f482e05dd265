import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { RenderError, transcodeMusicToFlac } from '@reelgraph/media'
import { type AudioUpload, MAX_AUDIO_UPLOAD_BYTES, MAX_AUDIO_UPLOAD_MS } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { uploadWorkDir } from '../../lib/upload-dir.ts'
import { storeMediaAsset } from './asset-service.ts'

/** The upload, as the route hands it over. */
export interface MusicUploadRequest {
  userId: number
  projectId: number
  /** The request body: the file's bytes. */
  body: ReadableStream<Uint8Array> | null
  /** The `Content-Length` header, when the client sent one. */
  contentLength: number | null
  signal: AbortSignal
}

const tooLarge = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${MAX_AUDIO_UPLOAD_BYTES / 1024 / 1024} MB. Upload a shorter or more compressed audio file.`,
  )

/** Counts the bytes that pass and fails the stream once they are more than `max`. */
function byteLimit(max: number): Transform {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.byteLength
      done(seen > max ? tooLarge() : null, chunk)
    },
  })
}

/**
 * A music file for the Video node's timeline (issue 24 item 1): the body is streamed to a
 * work file (at most MAX_AUDIO_UPLOAD_BYTES, never held in memory), refused if a playlist or
 * list, read by ffmpeg from an audio container only, re-encoded to a 48 kHz stereo 16-bit
 * FLAC (lossless and compressed: issue 40 item 5) of at most MAX_AUDIO_UPLOAD_MS and stored
 * as an `audio/flac` asset of the project; nothing else ever reads the upload as sent.
 * Rate limited per user (`musicUploadsPerUser`).
 * @throws AppError 404 for a project the user may not edit; 413 over the size limit; 400 for
 *   an empty body or a file that is not audio ffmpeg can read, or too long; 429 when limited.
 *   Nothing is stored on any error.
 */
export async function uploadMusic(
  deps: Pick<AppDeps, 'db' | 'env' | 'assets' | 'rateLimits'>,
  { userId, projectId, body, contentLength, signal }: MusicUploadRequest,
): Promise<AudioUpload> {
  await requireProjectRole(deps.db, { userId, projectId, needed: 'editor' })
  if (contentLength !== null && contentLength > MAX_AUDIO_UPLOAD_BYTES) throw tooLarge()
  await deps.rateLimits.musicUploadsPerUser.consume(
    String(userId),
    'Too many music uploads. Please wait a while and try again.',
  )
  if (!body || contentLength === 0) {
    throw new AppError('BAD_REQUEST', 'The upload is empty. Choose an audio file.')
  }
  const dir = join(uploadWorkDir(deps.env), randomUUID())
  await mkdir(dir, { recursive: true })
  try {
    const upload = join(dir, 'upload')
    await pipeline(
      Readable.fromWeb(body as WebReadableStream<Uint8Array>),
      byteLimit(MAX_AUDIO_UPLOAD_BYTES),
      createWriteStream(upload),
      { signal },
    )
    const flacPath = join(dir, 'music.flac')
    let durationMs: number
    try {
      ;({ durationMs } = await transcodeMusicToFlac(upload, flacPath, {
        maxMs: MAX_AUDIO_UPLOAD_MS,
        ffmpegPath: deps.env.FFMPEG_PATH,
        signal,
      }))
    } catch (error) {
      if (error instanceof RenderError && error.code === 'invalid-input') {
        throw new AppError(
          'BAD_REQUEST',
          `${error.message} Upload an audio file (MP3, WAV, AAC or M4A, OGG, FLAC, AIFF), at most ${MAX_AUDIO_UPLOAD_MS / 60_000} minutes.`,
        )
      }
      throw error
    }
    const stored = await storeMediaAsset(deps.db, deps.assets, {
      userId,
      projectId,
      content: { path: flacPath },
      mimeType: 'audio/flac',
    })
    return { url: stored.url, durationMs }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
