import sharp, { type Metadata } from 'sharp'
import { malformed } from './errors.ts'
import type { GeneratedImage } from './types.ts'

/**
 * Checks that `bytes` is an image and returns it at exactly `width` x `height`: unchanged
 * when it already is a PNG or JPEG of that size, else cropped to fill and re-encoded as PNG.
 * @throws ProviderError `malformed` when the bytes are not an image.
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

/** Decodes base64 (optionally a `data:` URL) into bytes; `malformed` when it is not base64. */
export function decodeBase64(provider: string, text: string): Uint8Array {
  const payload = text.startsWith('data:') ? text.slice(text.indexOf(',') + 1) : text
  const clean = payload.replace(/\s+/g, '')
  if (clean.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(clean)) throw malformed(provider)
  return new Uint8Array(Buffer.from(clean, 'base64'))
}
