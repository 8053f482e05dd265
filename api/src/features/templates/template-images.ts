import type { DB } from '@reelgraph/db'
import {
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_MESSAGES,
  type TemplateVariable,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import sharp from 'sharp'
import { AppError } from '../../lib/app-error.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { findAsset } from '../assets/asset-service.ts'

/**
 * The pictures a project made from a template is given (issue 42 item 2): an image
 * variable's value is a file the caller may open (`/api/assets/<id>`) or an uploaded picture
 * (`data:image/png|jpeg|webp;base64,`). Either is read and checked here, before anything is
 * stored: its bytes must really be such a picture (magic bytes, then decoded by sharp to its
 * dimensions), of at most TEMPLATE_IMAGE_MAX_BYTES.
 */

/** A picture ready to be stored in the new project. */
export interface TemplateImage {
  bytes: Uint8Array
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp'
}

/** The raster types a value may be, by their first bytes. */
const MAGIC: readonly { mimeType: TemplateImage['mimeType']; test: (b: Uint8Array) => boolean }[] =
  [
    {
      mimeType: 'image/png',
      test: (b) => b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
    },
    {
      mimeType: 'image/jpeg',
      test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
    },
    {
      mimeType: 'image/webp',
      test: (b) =>
        b.length > 12 &&
        String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
        String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
    },
  ]
/** sharp's format name of each type. */
const SHARP_FORMAT = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const

const DATA_URL = /^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/=]+)$/

/** A 400 naming the variable. */
function refused(variable: string, message: string): AppError {
  return new AppError('BAD_REQUEST', message, { fields: { [variable]: message } })
}

/**
 * `bytes` as a picture of type `declared` (or any raster type when absent): its first bytes
 * say so and sharp decodes it to a size.
 * @throws AppError 400 naming `variable` when it is not.
 */
async function checkedImage(
  variable: string,
  bytes: Uint8Array,
  declared?: string,
): Promise<TemplateImage> {
  const type = MAGIC.find((m) => m.test(bytes))
  if (!type || (declared !== undefined && declared !== type.mimeType)) {
    throw refused(variable, TEMPLATE_MESSAGES.imageUnreadable(variable))
  }
  try {
    const meta = await sharp(bytes).metadata()
    if (meta.format !== SHARP_FORMAT[type.mimeType] || !(meta.width > 0 && meta.height > 0)) {
      throw new Error(`read as ${meta.format} ${meta.width}x${meta.height}`)
    }
    // Decoding the pixels, not only the header, finds a truncated or corrupt file.
    await sharp(bytes).resize(8, 8).raw().toBuffer()
  } catch {
    throw refused(variable, TEMPLATE_MESSAGES.imageUnreadable(variable))
  }
  return { bytes, mimeType: type.mimeType }
}

/**
 * The pictures `values` give the image variables of `variables`, by variable name, read and
 * checked (values already passed shared's `templateValueProblems`).
 * @throws AppError 400 naming the variable: a data URL over TEMPLATE_IMAGE_MAX_BYTES or whose
 *   bytes are not the picture it says; a file the caller cannot open or that is no picture.
 */
export async function readTemplateImages(
  deps: { db: Kysely<DB>; assets: AssetStorage },
  {
    userId,
    variables,
    values,
  }: {
    userId: number
    variables: readonly TemplateVariable[]
    values: Readonly<Record<string, string>>
  },
): Promise<Map<string, TemplateImage>> {
  const images = new Map<string, TemplateImage>()
  for (const variable of variables) {
    if (variable.kind !== 'image') continue
    const name = variable.name
    const value = values[name] ?? ''
    const data = DATA_URL.exec(value)
    if (data) {
      const base64 = data[2]!
      // Decoded size, from the text's length, before decoding anything.
      const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0
      if ((base64.length / 4) * 3 - padding > TEMPLATE_IMAGE_MAX_BYTES) {
        throw refused(name, TEMPLATE_MESSAGES.imageTooLarge(name))
      }
      const bytes = new Uint8Array(Buffer.from(base64, 'base64'))
      images.set(name, await checkedImage(name, bytes, data[1]))
      continue
    }
    const assetId = value.replace(/^\/api\/assets\//, '')
    let storageKey: string
    try {
      const info = await findAsset(deps.db, { userId, assetId })
      if (info.byteSize > TEMPLATE_IMAGE_MAX_BYTES) {
        throw refused(name, TEMPLATE_MESSAGES.imageTooLarge(name))
      }
      storageKey = info.storageKey
    } catch (error) {
      if (error instanceof AppError && error.status === 404) {
        throw refused(name, TEMPLATE_MESSAGES.notAnImage(name))
      }
      throw error
    }
    const bytes = await deps.assets.get(storageKey)
    if (!bytes) throw refused(name, TEMPLATE_MESSAGES.notAnImage(name))
    images.set(name, await checkedImage(name, bytes))
  }
  return images
}
