import sharp from 'sharp'
import { KEN_BURNS_OVERSAMPLE, type VideoPreset } from './config.ts'
import { RenderError } from './errors.ts'

/**
 * How a scene image is fitted to the frame: `cover` fills the frame and crops what
 * overflows; `contain-blur` shows the whole image over a blurred, darkened, cropped copy of
 * itself (for images whose shape is far from the frame's).
 */
export type StillFit = 'cover' | 'contain-blur'

/** Side of the small copy that is blurred for `contain-blur`: blurring small is cheap. */
const BACKDROP_SCALE = 1 / 8
/** Gaussian blur sigma on that small copy, in its pixels. */
const BACKDROP_BLUR_SIGMA = 6
/** Brightness of the backdrop, so the image in front stands out. */
const BACKDROP_BRIGHTNESS = 0.6

/** Size in pixels of a preset's fitted still: the frame times `KEN_BURNS_OVERSAMPLE`, even. */
export function stillSize(preset: VideoPreset): { width: number; height: number } {
  const even = (n: number) => 2 * Math.round((n * KEN_BURNS_OVERSAMPLE) / 2)
  return { width: even(preset.width), height: even(preset.height) }
}

/**
 * Fits a scene image to a preset with sharp and returns it as raw RGB24 pixels of
 * `stillSize(preset)`: the only form in which ffmpeg sees it (any format sharp reads goes
 * in; EXIF orientation is applied; transparency lies on black). Raw, not PNG: encoding and
 * decoding a 4K PNG cost more than the segment's own frames in a crossfade.
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
  const source = () => sharp(image, { failOn: 'error' }).rotate().flatten({ background: black })
  try {
    if (fit === 'cover') {
      return await source().resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer()
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
      .removeAlpha()
      .raw()
      .toBuffer()
  } catch (error) {
    throw new RenderError('invalid-input', `The scene image cannot be read: ${String(error)}`, {
      cause: error,
    })
  }
}
