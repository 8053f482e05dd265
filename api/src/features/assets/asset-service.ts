import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import type { DB } from '@reelgraph/db'
import { ASSET_ID_PATTERN } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import sharp from 'sharp'
import { AppError } from '../../lib/app-error.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { projectAllowed } from '../access/project-limit.ts'
import type { AssetStorage } from './asset-storage.ts'
import { checkStorageQuota, insertAssetRowsWithinQuota, type NewAssetRow } from './storage-quota.ts'

/**
 * Generated files (ARCHITECTURE decision 8; issue 4 item 4): bytes in an {@link AssetStorage},
 * one `assets` row each, served at `/api/assets/:id` only to the project's members (issue 6
 * item 1). The Y.Doc holds the URL, never the bytes.
 */

/** Random bytes in an asset id: 160 bits, unguessable. */
const ASSET_ID_BYTES = 20
/** RFC 4648 base32, lower case: URL- and file-safe. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'
const NOT_FOUND_MESSAGE = 'This image does not exist, or you do not have access to it.'

/**
 * The answer to an asset that does not exist (or whose id is not shaped like shared's
 * `ASSET_ID_PATTERN`) and to one of a project the user is not a member of: 404 NOT_FOUND.
 */
export function assetNotFound(): AppError {
  return new AppError('NOT_FOUND', NOT_FOUND_MESSAGE)
}

/** Image types we store and serve, by the magic bytes that start them. */
const IMAGE_TYPES: { mimeType: string; ext: string; test: (b: Uint8Array) => boolean }[] = [
  {
    mimeType: 'image/png',
    ext: 'png',
    test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  },
  {
    mimeType: 'image/jpeg',
    ext: 'jpg',
    test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  {
    mimeType: 'image/webp',
    ext: 'webp',
    test: (b) =>
      String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
      String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
  },
  {
    mimeType: 'image/gif',
    ext: 'gif',
    test: (b) => String.fromCharCode(...b.subarray(0, 4)) === 'GIF8',
  },
]

/** A new random, unguessable asset id: base32 of 160 random bits (32 characters). */
export function createAssetId(): string {
  const bytes = randomBytes(ASSET_ID_BYTES)
  let bits = 0
  let value = 0
  let id = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      id += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return id
}

/** The URL an asset is served at. */
export function assetUrl(assetId: string): string {
  return `/api/assets/${assetId}`
}

/**
 * Stores a generated image into a project the user may edit (owner or editor; the row
 * records who generated it): the bytes first, then the `assets` row, so a row never points
 * at missing bytes. The type comes from the bytes themselves, not the provider's word, so
 * only real images are ever served.
 * @throws AppError 404 NOT_FOUND when the user is not a member of the project; 403
 *   FORBIDDEN when they are a viewer (issue 6 item 1).
 * @throws ProviderError `malformed` when the bytes are not a PNG, JPEG, WebP or GIF image.
 */
export async function storeGeneratedImage(
  db: Kysely<DB>,
  storage: AssetStorage,
  input: { userId: number; projectId: number; image: { bytes: Uint8Array; mimeType: string } },
): Promise<{ assetId: string; url: string }> {
  const { userId, projectId, image } = input
  const type = IMAGE_TYPES.find((t) => t.test(image.bytes))
  if (!type) {
    throw new ProviderError(
      'malformed',
      'The image service answered with something that is not an image.',
      {
        cause: new Error(`Declared ${image.mimeType}, ${image.bytes.byteLength} bytes`),
      },
    )
  }
  await requireProjectRole(db, { userId, projectId, needed: 'editor' })
  const [stored] = await storeAssetFiles(db, storage, {
    userId,
    projectId,
    files: [{ content: image.bytes, mimeType: type.mimeType, ext: type.ext }],
  })
  return stored!
}

/** One file to store as an asset: its bytes or a file, its type and file extension. */
interface AssetFile {
  content: Uint8Array | { path: string }
  mimeType: string
  ext: string
}

/**
 * Stores `files` as assets of `projectId` made by `userId`, all or none, within the storage
 * quota of the project's owner (issue 40 item 5): the quota checked first (a refusal writes no
 * byte), then the bytes, then the rows in one transaction that checks the quota again holding
 * the owner's row (`insertAssetRowsWithinQuota`), so a row never points at missing bytes and
 * two stores at once never both pass. On any failure every byte written is removed.
 * @throws AppError 413 PAYLOAD_TOO_LARGE past the quota, 404 NOT_FOUND when the project is
 *   gone (deleted meanwhile); the storage's error.
 */
async function storeAssetFiles(
  db: Kysely<DB>,
  storage: AssetStorage,
  input: { userId: number; projectId: number; files: readonly AssetFile[] },
): Promise<{ assetId: string; url: string }[]> {
  const { userId, projectId } = input
  const rows: NewAssetRow[] = []
  for (const file of input.files) {
    const id = createAssetId()
    rows.push({
      id,
      storage_key: `projects/${projectId}/${id}.${file.ext}`,
      mime_type: file.mimeType,
      byte_size:
        file.content instanceof Uint8Array
          ? file.content.byteLength
          : (await stat(file.content.path)).size,
    })
  }
  const addedBytes = rows.reduce((sum, row) => sum + row.byte_size, 0)
  await checkStorageQuota(db, { userId, projectId, addedBytes })
  const written: string[] = []
  try {
    for (const [i, file] of input.files.entries()) {
      const key = rows[i]!.storage_key
      written.push(key)
      if (file.content instanceof Uint8Array) await storage.put(key, file.content, file.mimeType)
      else await storage.putFile(key, file.content.path, file.mimeType)
    }
    await insertAssetRowsWithinQuota(db, { userId, projectId, rows })
  } catch (error) {
    for (const key of written) await storage.delete(key).catch(() => undefined)
    throw error
  }
  return rows.map((row) => ({ assetId: row.id, url: assetUrl(row.id) }))
}

/**
 * Files a render stores (issue 13 item 4), narrations (issue 21 item 4) and clips with their
 * poster frames (issue 22), by type: their file extension.
 */
export const MEDIA_ASSET_TYPES = {
  'video/mp4': 'mp4',
  'image/jpeg': 'jpg',
  'application/x-subrip': 'srt',
  'text/vtt': 'vtt',
  'audio/wav': 'wav',
  // Uploaded music since issue 40 item 5 (older uploads stay WAVs).
  'audio/flac': 'flac',
} as const
export type MediaAssetType = keyof typeof MEDIA_ASSET_TYPES

/**
 * The types a music asset may have: FLAC (uploads since issue 40 item 5) or PCM WAV (uploads
 * before it); the render and the export read both.
 */
export const MUSIC_ASSET_TYPES: readonly string[] = [
  'audio/flac',
  'audio/wav',
] satisfies MediaAssetType[]

/**
 * Stores a rendered file (MP4, SRT, VTT) as an asset of `projectId`, made by `userId`: bytes
 * first, then the row (as {@link storeGeneratedImage}), within the storage quota of the
 * project's owner (issue 40 item 5). The caller checked the role when the render was
 * submitted.
 * @throws AppError 413 PAYLOAD_TOO_LARGE past the quota (nothing stored), 404 NOT_FOUND when
 *   the project is gone.
 */
export async function storeMediaAsset(
  db: Kysely<DB>,
  storage: AssetStorage,
  input: {
    userId: number
    projectId: number
    /** The bytes, or a file to stream them from (a video is never held in memory). */
    content: Uint8Array | { path: string }
    mimeType: MediaAssetType
  },
): Promise<{ assetId: string; url: string }> {
  const [stored] = await storeMediaAssets(db, storage, {
    userId: input.userId,
    projectId: input.projectId,
    files: [{ content: input.content, mimeType: input.mimeType }],
  })
  return stored!
}

/**
 * Stores several files that belong together (a clip and its poster frame; a render's MP4,
 * SRT and VTT) as assets of `projectId`, all or none, within the storage quota of the
 * project's owner: their sizes together are judged at once (issue 40 item 5).
 * @returns each file's asset, in the order given.
 * @throws AppError 413 PAYLOAD_TOO_LARGE past the quota (nothing stored), 404 NOT_FOUND when
 *   the project is gone.
 */
export async function storeMediaAssets(
  db: Kysely<DB>,
  storage: AssetStorage,
  input: {
    userId: number
    projectId: number
    files: readonly { content: Uint8Array | { path: string }; mimeType: MediaAssetType }[]
  },
): Promise<{ assetId: string; url: string }[]> {
  return storeAssetFiles(db, storage, {
    userId: input.userId,
    projectId: input.projectId,
    files: input.files.map((f) => ({ ...f, ext: MEDIA_ASSET_TYPES[f.mimeType] })),
  })
}

/** The row of the asset at `url` (`/api/assets/:id`) when it belongs to `projectId`. */
async function projectAssetRow(db: Kysely<DB>, projectId: number, url: string) {
  const id = /^\/api\/assets\/([a-z2-7]{32})(?:\?.*)?$/.exec(url)?.[1]
  if (!id) return undefined
  return db
    .selectFrom('assets')
    .select(['storage_key', 'mime_type'])
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst()
}

/**
 * The bytes of the asset at `url` (`/api/assets/:id`) when it belongs to `projectId`, else
 * null: a render reads its scenes' images this way, never another project's.
 */
export async function readProjectAssetByUrl(
  db: Kysely<DB>,
  storage: AssetStorage,
  projectId: number,
  url: string,
): Promise<Uint8Array | null> {
  const row = await projectAssetRow(db, projectId, url)
  return row ? storage.get(row.storage_key) : null
}

/**
 * Writes the asset at `url` (`/api/assets/:id`) to the file `path`, streamed from storage
 * (a clip is never held in memory whole), when it belongs to `projectId`: a render reads its
 * scenes' clips this way (issue 22 item 4), never another project's. A partial file is
 * removed when the copy fails.
 * @returns its type, or null when the project has no such asset (nothing is written).
 * @throws the storage's or the file system's error.
 */
export async function copyProjectAssetToFile(
  db: Kysely<DB>,
  storage: AssetStorage,
  { projectId, url, path }: { projectId: number; url: string; path: string },
): Promise<{ mimeType: string } | null> {
  const row = await projectAssetRow(db, projectId, url)
  if (!row || !(await copyStoredAssetToFile(storage, { storageKey: row.storage_key, path }))) {
    return null
  }
  return { mimeType: row.mime_type }
}

/**
 * Writes the stored bytes under `storageKey` to the file `path`, streamed (never held in
 * memory whole), aborted by `signal`; a partial file is removed when the copy fails.
 * @returns false when storage has no such bytes (nothing is written)
 * @throws the storage's or the file system's error, or the signal's reason.
 */
export async function copyStoredAssetToFile(
  storage: AssetStorage,
  { storageKey, path, signal }: { storageKey: string; path: string; signal?: AbortSignal },
): Promise<boolean> {
  const stream = await storage.stream(storageKey)
  if (!stream) return false
  try {
    await pipeline(
      Readable.fromWeb(stream as NodeReadableStream<Uint8Array>),
      createWriteStream(path),
      { signal },
    )
  } catch (error) {
    await rm(path, { force: true })
    throw error
  }
  return true
}

/**
 * The image at `url` (`/api/assets/:id`) when it is an image asset of `projectId`, with its
 * type, else null: a clip's start image or last frame (issue 22), sent to a provider as bytes.
 */
export async function readProjectImage(
  db: Kysely<DB>,
  storage: AssetStorage,
  projectId: number,
  url: string,
): Promise<{ bytes: Uint8Array; mimeType: string } | null> {
  const row = await projectAssetRow(db, projectId, url)
  if (!row?.mime_type.startsWith('image/')) return null
  const bytes = await storage.get(row.storage_key)
  return bytes ? { bytes, mimeType: row.mime_type } : null
}

/** An asset's bytes and type. */
export interface AssetContent {
  id: string
  bytes: Uint8Array
  mimeType: string
  /** The name of its project (downloads of renders are named after it). */
  projectName: string
}

/** An asset a user may read: its row, without the bytes. */
export interface AssetInfo {
  id: string
  storageKey: string
  mimeType: string
  byteSize: number
  /** The name of its project (downloads of renders are named after it). */
  projectName: string
}

/**
 * The asset's row, when the user is a member (any role) of its project (issue 6 item 1).
 * @throws AppError 404 NOT_FOUND for an unknown id or an asset of a project the user is not
 *   a member of, or that the request's API token may not reach (issue 41 item 1).
 */
export async function findAsset(
  db: Kysely<DB>,
  { userId, assetId }: { userId: number; assetId: string },
): Promise<AssetInfo> {
  if (!ASSET_ID_PATTERN.test(assetId)) throw assetNotFound()
  const row = await db
    .selectFrom('assets')
    .innerJoin('project_members as m', 'm.project_id', 'assets.project_id')
    .innerJoin('projects as p', 'p.id', 'assets.project_id')
    .select([
      'assets.id',
      'assets.storage_key',
      'assets.mime_type',
      'assets.byte_size',
      'assets.project_id',
      'p.name as project_name',
    ])
    .where('assets.id', '=', assetId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
  if (!row || !projectAllowed(row.project_id)) throw assetNotFound()
  return {
    id: row.id,
    storageKey: row.storage_key,
    mimeType: row.mime_type,
    byteSize: row.byte_size,
    projectName: row.project_name,
  }
}

/**
 * The asset, when the user is a member (any role) of its project (issue 6 item 1).
 * @throws AppError 404 NOT_FOUND for an unknown id, an asset of a project the user is not
 *   a member of, or missing bytes.
 */
export async function readAsset(
  db: Kysely<DB>,
  storage: AssetStorage,
  { userId, assetId }: { userId: number; assetId: string },
): Promise<AssetContent> {
  const info = await findAsset(db, { userId, assetId })
  const bytes = await storage.get(info.storageKey)
  if (!bytes) throw assetNotFound()
  return { id: info.id, bytes, mimeType: info.mimeType, projectName: info.projectName }
}

/** JPEG quality of downloads converted from other types. */
const DOWNLOAD_JPEG_QUALITY = 90

/**
 * The asset as a JPEG for download (spec §9: `generated-image.jpg`): JPEG bytes as they
 * are, anything else converted with sharp (transparency flattened onto white).
 */
export async function toJpeg(asset: AssetContent): Promise<Uint8Array> {
  if (asset.mimeType === 'image/jpeg') return asset.bytes
  const jpeg = await sharp(asset.bytes)
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: DOWNLOAD_JPEG_QUALITY, mozjpeg: true })
    .toBuffer()
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength)
}

/**
 * Removes a project's assets: their rows, then their bytes (a missing file is fine). Call it
 * before deleting the project, whose cascade would otherwise drop the rows and leave the
 * bytes orphaned in storage. Answers how many assets were removed.
 */
export async function deleteProjectAssets(
  db: Kysely<DB>,
  storage: AssetStorage,
  projectId: number,
): Promise<number> {
  const rows = await db
    .deleteFrom('assets')
    .where('project_id', '=', projectId)
    .returning('storage_key')
    .execute()
  for (const row of rows) await storage.delete(row.storage_key)
  return rows.length
}
