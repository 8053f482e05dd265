import type { GenerateImageRequest, ImageModel } from '@reelgraph/shared'
import sharp from 'sharp'
import { type GeneratedImage, type ImageProvider, ProviderError } from './types.ts'
import { storyboardArt } from './storyboard-art.ts'
import { composeFrame } from './storyboard-frame.ts'
import { frameSvg } from './storyboard-svg.ts'

/**
 * The builtin image provider (ARCHITECTURE "AI providers"; issue 4 item 2, issue 20 item 4):
 * offline, deterministic, no model. It draws a storyboard frame of exactly the asked size:
 * open-licensed illustrations picked by the prompt's nouns, placed by its framing, in a
 * palette from its light words and the seed, with the scene's title on one line at the top
 * and a small "Offline draft" mark (`storyboard-frame.ts`); sharp rasterizes the SVG to PNG.
 * Same request and seed, same bytes.
 */

const MODEL: ImageModel = {
  id: 'storyboard',
  name: 'Storyboard frames (offline)',
  modelVersions: [{ id: 'storyboard-v1', name: 'v1' }],
}

/**
 * PNG zlib level: 6 is zlib's default; the frames are flat colour, so higher levels save
 * little and cost time on every frame of a render.
 */
const PNG_COMPRESSION_LEVEL = 6

type Signal = AbortSignal

/**
 * The storyboard frame for `prompt` as SVG text, exactly `width` x `height` user units.
 * @throws when the illustrations cannot be read (their package is missing).
 */
export async function storyboardSvg(
  prompt: string,
  width: number,
  height: number,
  seed: number,
): Promise<string> {
  return frameSvg(composeFrame(prompt, width, height, seed), await storyboardArt())
}

function abortError(signal: Signal): ProviderError {
  const timedOut = (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError'
  return timedOut
    ? new ProviderError('timeout', 'The image took too long to generate.', { cause: signal.reason })
    : new ProviderError('unavailable', 'Image generation was cancelled.', { cause: signal.reason })
}

/** Rejects as soon as `signal` aborts, else settles with `work`. */
function raceAbort<T>(work: Promise<T>, signal: Signal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** Rasterizes an SVG of `width` x `height` to PNG bytes of exactly that size. */
export async function rasterize(svg: string, width: number, height: number): Promise<Uint8Array> {
  let image = sharp(Buffer.from(svg), { density: 72 })
  const meta = await image.metadata()
  // librsvg honours width/height at 72 dpi; guard against a rounding pixel anyway.
  if (meta.width !== width || meta.height !== height) {
    image = image.resize(width, height, { fit: 'fill' })
  }
  const png = await image
    .png({ compressionLevel: PNG_COMPRESSION_LEVEL, adaptiveFiltering: false })
    .toBuffer()
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength)
}

/** Renders one storyboard frame to PNG bytes of exactly `width` x `height`. */
export async function renderStoryboardFrame(
  prompt: string,
  width: number,
  height: number,
  seed: number,
): Promise<Uint8Array> {
  return rasterize(await storyboardSvg(prompt, width, height, seed), width, height)
}

/** The offline storyboard-frame image provider. */
export function createBuiltinImageProvider(): ImageProvider {
  return {
    info: { id: 'builtin', name: 'Storyboard frames (offline)', offline: true },
    listModels(limit: number, signal: Signal): Promise<ImageModel[]> {
      if (signal.aborted) return Promise.reject(abortError(signal))
      return Promise.resolve(limit >= 1 ? [MODEL] : [])
    },
    async generateImage(
      request: GenerateImageRequest & { seed: number },
      signal: Signal,
    ): Promise<GeneratedImage> {
      const { prompt, width, height, seed } = request
      try {
        const bytes = await raceAbort(renderStoryboardFrame(prompt, width, height, seed), signal)
        return { bytes, mimeType: 'image/png' }
      } catch (error) {
        if (error instanceof ProviderError) throw error
        throw new ProviderError('malformed', 'The storyboard frame could not be drawn.', {
          cause: error,
        })
      }
    },
  }
}
