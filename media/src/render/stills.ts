import { createHash } from 'node:crypto'
import sharp from 'sharp'
import {
  BACKDROP_BLUR_SIGMA,
  BACKDROP_BRIGHTNESS,
  BACKDROP_SCALE,
  KEN_BURNS_OVERSAMPLE,
  type VideoPreset,
} from './config.ts'
import { RenderError } from './errors.ts'

/**
 * How a scene image is fitted to the frame: `cover` fills the frame and crops what
 * overflows; `contain-blur` shows the whole image over a blurred, darkened, cropped copy of
 * itself (for images whose shape is far from the frame's).
 */
export type StillFit = 'cover' | 'contain-blur'

/**
 * Size in pixels of a preset's fitted still: the frame times `KEN_BURNS_OVERSAMPLE`, even.
 * @see issue 13 item 3
 */
export function stillSize(preset: VideoPreset): { width: number; height: number } {
  const even = (n: number) => 2 * Math.round((n * KEN_BURNS_OVERSAMPLE) / 2)
  return { width: even(preset.width), height: even(preset.height) }
}

/** JPEG quality of fitted stills: visually lossless, a few MB at 2880x1620. */
const STILL_JPEG_QUALITY = 95
/** Version of how stills are made: part of their cache key. */
const STILL_FORMAT_VERSION = 1

/**
 * Fits a scene image to a preset with sharp and returns it as a JPEG of `stillSize(preset)`
 * (quality 95, no chroma subsampling): the only form in which ffmpeg sees it (any format
 * sharp reads goes in; EXIF orientation is applied; transparency lies on black). JPEG, not
 * PNG or raw pixels: a few MB to keep in the cache, decoded by ffmpeg in milliseconds.
 * @throws RenderError `invalid-input` when sharp cannot read the image.
 * @see issue 13 item 3
 */
export async function fitStill(
  image: Uint8Array,
  preset: VideoPreset,
  fit: StillFit,
): Promise<Buffer> {
  const { width, height } = stillSize(preset)
  const black = { r: 0, g: 0, b: 0, alpha: 1 }
  const jpeg = { quality: STILL_JPEG_QUALITY, chromaSubsampling: '4:4:4' } as const
  const source = () => sharp(image, { failOn: 'error' }).rotate().flatten({ background: black })
  try {
    if (fit === 'cover') {
      return await source().resize(width, height, { fit: 'cover' }).jpeg(jpeg).toBuffer()
    }
    const small = await source()
      .resize(Math.ceil(width * BACKDROP_SCALE), Math.ceil(height * BACKDROP_SCALE), {
        fit: 'cover',
      })
      .blur(BACKDROP_BLUR_SIGMA)
      .modulate({ brightness: BACKDROP_BRIGHTNESS })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const front = await source()
      .resize(width, height, { fit: 'inside' })
      .removeAlpha()
      .png({ compressionLevel: 0 })
      .toBuffer({ resolveWithObject: true })
    return await sharp(small.data, { raw: small.info })
      .resize(width, height, { fit: 'fill' })
      .composite([
        {
          input: front.data,
          left: Math.floor((width - front.info.width) / 2),
          top: Math.floor((height - front.info.height) / 2),
        },
      ])
      .jpeg(jpeg)
      .toBuffer()
  } catch (error) {
    throw new RenderError('invalid-input', `The scene image cannot be read: ${String(error)}`, {
      cause: error,
    })
  }
}

/**
 * Name of a fitted still in the cache (pure): SHA-256 (hex) of the image's hash, the fit,
 * the still's size and the still format's version.
 * @see issue 13 item 3
 */
export function stillCacheKey(imageSha256: string, preset: VideoPreset, fit: StillFit): string {
  const { width, height } = stillSize(preset)
  return createHash('sha256')
    .update(
      JSON.stringify(['reelgraph-still', STILL_FORMAT_VERSION, imageSha256, fit, width, height]),
    )
    .digest('hex')
}
