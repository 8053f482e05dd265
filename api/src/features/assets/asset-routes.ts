import {
  assetIdSchema,
  audioUploadOutput,
  audioUploadQuery,
  GENERATED_IMAGE_FILENAME,
  MAX_AUDIO_UPLOAD_BYTES,
  MAX_AUDIO_UPLOAD_MS,
  safeFileName,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { attachmentDisposition } from '../../lib/content-disposition.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import {
  type AssetInfo,
  assetNotFound,
  findAsset,
  MEDIA_ASSET_TYPES,
  readAsset,
  toJpeg,
} from './asset-service.ts'
import { uploadMusic } from './music-upload-service.ts'

const TAG = 'Assets'

/** Stored bytes gone missing under a row: as if there were no such asset. */
const notFound = () =>
  new AppError('NOT_FOUND', 'This file does not exist, or you do not have access to it.')

/** Assets never change under their id: cache for a year, privately (they need a session). */
const CACHE_CONTROL = 'private, max-age=31536000, immutable'

/**
 * Most bytes one open-ended range (`bytes=N-`, what a `<video>` asks while it plays) answers:
 * the player asks again from where the part ended, and a request never holds a whole video
 * in memory (RFC 9110 lets a 206 cover less than was asked for).
 */
export const RANGE_CHUNK_MAX_BYTES = 4 * 1024 * 1024

/**
 * The one byte range of a `Range` header over `size` bytes (RFC 9110 §14.1.2), an open end
 * answered up to {@link RANGE_CHUNK_MAX_BYTES}; or 'unsatisfiable'; or null to answer the
 * whole (no header, several ranges, or a malformed one).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!match || (match[1] === '' && match[2] === '')) return null
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(match[1])
  const end =
    match[2] === ''
      ? Math.min(size - 1, start + RANGE_CHUNK_MAX_BYTES - 1)
      : Math.min(Number(match[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

/**
 * The download name: images as `generated-image.jpg` (spec §9); a render's files after their
 * project (`<project name>.mp4`, `.srt`, `.vtt`; issue 13 item 4), as a quoted ASCII fallback
 * and the exact UTF-8 name (RFC 6266).
 */
function contentDisposition(asset: Pick<AssetInfo, 'mimeType' | 'projectName'>): string {
  const ext = MEDIA_ASSET_TYPES[asset.mimeType as keyof typeof MEDIA_ASSET_TYPES]
  if (!ext) return `attachment; filename="${GENERATED_IMAGE_FILENAME}"`
  // One rule with the export's names: no device names, no bidi or invisible controls.
  return attachmentDisposition(`${safeFileName(asset.projectName, 'video')}.${ext}`)
}

/**
 * Generated files (issue 4 item 4; ARCHITECTURE decision 8): `GET /api/assets/:id` gives
 * the bytes to the project's members (issue 6 item 1), with single byte ranges (206, or 416
 * when unsatisfiable) so a video seeks; `?download=1` gives an image as `generated-image.jpg`
 * (spec §9) and a render's MP4, SRT or VTT as `<project name>.<ext>` (issue 13 item 4).
 * Anyone else gets 404, anonymous requests 401.
 */
export const assetRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .post(
    '/audio',
    docs({
      summary: 'Upload a music file for a Video node’s timeline (issue 24)',
      description: `The raw request body is the file (any audio container: MP3, WAV, AAC/M4A, OGG, FLAC, AIFF), at most ${MAX_AUDIO_UPLOAD_BYTES / 1024 / 1024} MiB and ${MAX_AUDIO_UPLOAD_MS / 60_000} minutes. A playlist or list is refused; the audio is re-encoded to a 48 kHz stereo 16-bit FLAC (lossless, compressed) and stored as an \`audio/flac\` asset of the project; its URL is the timeline's \`music\` setting. Editors only (a stranger gets 404); 400 for a file that is not audio, 413 over the size limit; nothing is stored on an error.`,
      tag: TAG,
      response: audioUploadOutput,
      status: 201,
      requestFile: ['audio/*', 'application/octet-stream'],
    }),
    validate('query', audioUploadQuery),
    async (c) => {
      const { user } = requireAuth(c)
      const length = c.req.header('content-length')
      const upload = await uploadMusic(c.var.deps, {
        userId: user.id,
        projectId: c.req.valid('query').projectId,
        body: c.req.raw.body,
        contentLength: length === undefined ? null : Number(length),
        signal: c.req.raw.signal,
      })
      return c.json(upload, 201)
    },
  )
  .get(
    '/:id',
    docs({
      summary: 'A generated file (image, video, subtitles)',
      description:
        'The bytes with their content type; single `Range` requests answer 206. `?download=1` answers an attachment: generated-image.jpg (JPEG) for images, `<project name>.mp4|.srt|.vtt` for a render.',
      tag: TAG,
      file: '*/*',
      parameters: [
        {
          in: 'query',
          name: 'download',
          enum: ['1'],
          description: 'Answer an attachment with a file name (any other value: the bytes inline).',
        },
      ],
    }),
    // `:id` through shared's `assetIdSchema`; any other id is a file that does not exist (404).
    validate('param', z.object({ id: assetIdSchema }), { onInvalid: () => assetNotFound() }),
    async (c) => {
      const { user } = requireAuth(c)
      const { db } = c.var
      const storage = c.var.deps.assets
      const info = await findAsset(db, { userId: user.id, assetId: c.req.valid('param').id })
      const download = c.req.query('download') === '1'
      const asJpeg = download && info.mimeType.startsWith('image/')
      const etag = `"${info.id}${download ? '-download' : ''}"`
      const headers: Record<string, string> = {
        'Cache-Control': CACHE_CONTROL,
        'X-Content-Type-Options': 'nosniff',
        ETag: etag,
      }
      const ifNoneMatch = c.req.header('if-none-match')
      if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
        return c.body(null, 304, headers)
      }
      headers['Content-Type'] = asJpeg ? 'image/jpeg' : info.mimeType
      if (download) headers['Content-Disposition'] = contentDisposition(info)
      if (asJpeg) {
        // Converted on the fly: its length is known only once made, so no ranges.
        const bytes = await toJpeg(
          await readAsset(db, storage, { userId: user.id, assetId: info.id }),
        )
        headers['Content-Length'] = String(bytes.byteLength)
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers)
      }
      headers['Accept-Ranges'] = 'bytes'
      const ifRange = c.req.header('if-range')
      const range =
        ifRange === undefined || ifRange === etag
          ? parseRange(c.req.header('range'), info.byteSize)
          : null
      if (range === 'unsatisfiable') {
        headers['Content-Range'] = `bytes */${info.byteSize}`
        return c.body(null, 416, headers)
      }
      if (range) {
        // Only the bytes asked for are read (a video seeks through a large file).
        const part = await storage.getRange(info.storageKey, range.start, range.end)
        if (!part) throw notFound()
        headers['Content-Range'] =
          `bytes ${range.start}-${range.start + part.byteLength - 1}/${info.byteSize}`
        headers['Content-Length'] = String(part.byteLength)
        return c.body(part as Uint8Array<ArrayBuffer>, 206, headers)
      }
      // Streamed: a whole video is never held in memory.
      const body = await storage.stream(info.storageKey)
      if (!body) throw notFound()
      headers['Content-Length'] = String(info.byteSize)
      return c.body(body, 200, headers)
    },
  )
