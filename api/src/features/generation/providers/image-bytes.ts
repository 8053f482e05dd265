import sharp, { type Metadata } from 'sharp'
import { BodyTooLargeError, describeTooLarge } from '../../../lib/outbound/outbound-errors.ts'
import { ProviderError } from '../../../lib/provider-error.ts'
import { malformed } from './errors.ts'
import type { GeneratedImage } from './types.ts'

/** The formats (sharp's names) a provider's image result may be. */
const RASTER_FORMATS = new Set<string>(['png', 'jpeg', 'webp'])

/**
 * Checks that `bytes` is a raster image (PNG, JPEG or WebP, by sharp's reading of it) and
 * returns it at exactly `width` x `height`: unchanged when it already is a PNG or JPEG of that
 * size, else cropped to fill and re-encoded as PNG.
 * @throws ProviderError `malformed` when the bytes are not an image, `refused` for another
 *   format (SVG, GIF, TIFF...).
 */
export async function exactSizeImage(
  provider: string,
  bytes: Uint8Array,
  width: number,
  height: number,
): Promise<GeneratedImage> {
  let meta: Metadata
  try {
    meta = await sharp(bytes).metadata()
  } catch (error) {
    throw malformed(provider, error)
  }
  // An SVG can name other files and addresses, a GIF or TIFF is no generated picture: raster
  // pictures only (issue 40 item 3).
  if (!RASTER_FORMATS.has(meta.format)) {
    throw new ProviderError(
      'refused',
      `${provider} sent a picture as ${meta.format.toUpperCase()}, which Reelgraph does not take: only PNG, JPEG and WebP are.`,
      { cause: { format: meta.format } },
    )
  }
  if (meta.width === width && meta.height === height) {
    if (meta.format === 'png') return { bytes, mimeType: 'image/png' }
    if (meta.format === 'jpeg') return { bytes, mimeType: 'image/jpeg' }
  }
  try {
    const png = await sharp(bytes).resize(width, height, { fit: 'cover' }).png().toBuffer()
    return { bytes: new Uint8Array(png), mimeType: 'image/png' }
  } catch (error) {
    throw malformed(provider, error)
  }
}

/**
 * Decodes base64 (optionally a `data:` URL) into bytes; `malformed` when it is not base64,
 * `refused` when it would decode to more than `limit.maxBytes` (issue 40 item 3).
 */
export function decodeBase64(
  provider: string,
  text: string,
  limit?: { maxBytes: number; setting: string },
): Uint8Array {
  const payload = text.startsWith('data:') ? text.slice(text.indexOf(',') + 1) : text
  const clean = payload.replace(/\s+/g, '')
  if (clean.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(clean)) throw malformed(provider)
  if (limit && Math.floor((clean.length * 3) / 4) > limit.maxBytes) {
    throw new ProviderError(
      'refused',
      describeTooLarge(
        provider,
        'an image',
        new BodyTooLargeError(limit.maxBytes, Math.floor((clean.length * 3) / 4)),
        limit.setting,
      ),
    )
  }
  return new Uint8Array(Buffer.from(clean, 'base64'))
}
