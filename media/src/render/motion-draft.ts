import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { absolutePath } from './absolute-path.ts'
import { FRAME_RATE_FPS, KEN_BURNS_OVERSAMPLE, VIDEO_ENCODER } from './config.ts'
import { RenderError } from './errors.ts'
import { runFfmpeg } from './ffmpeg.ts'
import { kenBurnsFilter } from './filter-graph.ts'
import { type KenBurnsMotion, kenBurnsMotion } from './motion.ts'

/**
 * The offline motion draft (issue 22 item 2): a clip made from one picture with no model, so
 * the whole graph runs without keys. A camera move over the picture (the renderer's Ken Burns
 * motion) and parallax: the middle of the picture, cut out with a soft oval, moves and grows
 * faster than its surroundings, as something nearer the camera would. Drawn by ffmpeg
 * (`zoompan` twice, `alphamerge`, `overlay`), encoded as the renderer's segments are.
 */

/**
 * How much farther the middle layer travels than the background (its zoom change and pan):
 * 1.4 reads as depth; more doubles the edges in the soft band between the layers.
 */
export const MOTION_DRAFT_PARALLAX = 1.4

/**
 * The oval that cuts out the middle layer: opaque up to `inner` of its radius, fading to
 * transparent at `outer` (fractions of half the frame's width and height). A wide fade hides
 * the seam between the layers.
 */
export const MOTION_DRAFT_MASK = { inner: 0.35, outer: 0.85 } as const

/** JPEG quality of the fitted picture: visually lossless, as the renderer's stills. */
const STILL_JPEG_QUALITY = 95

/**
 * The middle layer's move (pure): the background's, `MOTION_DRAFT_PARALLAX` times as far, and
 * level with it half-way through, so the layers part by as little as possible at either end.
 */
export function parallaxMotion(background: KenBurnsMotion): KenBurnsMotion {
  const extra = (MOTION_DRAFT_PARALLAX - 1) / 2
  const round4 = (n: number) => Math.round(n * 10_000) / 10_000
  const apart = (from: number, to: number, low: number, high: number) => {
    const clamp = (n: number) => Math.min(high, Math.max(low, n))
    return [round4(clamp(from - (to - from) * extra)), round4(clamp(to + (to - from) * extra))]
  }
  const [zoomFrom, zoomTo] = apart(background.zoomFrom, background.zoomTo, 1, Infinity)
  const [xFrom, xTo] = apart(background.panFrom.x, background.panTo.x, 0, 1)
  const [yFrom, yTo] = apart(background.panFrom.y, background.panTo.y, 0, 1)
  return {
    zoomFrom: zoomFrom!,
    zoomTo: zoomTo!,
    panFrom: { x: xFrom!, y: yFrom! },
    panTo: { x: xTo!, y: yTo! },
  }
}

/** What {@link buildMotionDraftArgs} needs. */
export interface MotionDraftSpec {
  /** The fitted picture (a JPEG `KEN_BURNS_OVERSAMPLE` times the frame). */
  stillPath: string
  /** The oval mask, a grey PNG of exactly `width` x `height`. */
  maskPath: string
  width: number
  height: number
  fps: number
  frames: number
  background: KenBurnsMotion
  outputPath: string
}

/**
 * The ffmpeg arguments (without the global flags `runFfmpeg` adds) of a motion draft (pure):
 * the picture split into a background and a middle layer, each moved by `zoompan`, the middle
 * one cut out by the mask and laid over the background, encoded as H.264 yuv420p with
 * `VIDEO_ENCODER`'s settings, `+faststart`, no audio.
 * @throws RangeError for a frame count or size that cannot be encoded; RenderError
 *   `invalid-input` for a relative path.
 */
export function buildMotionDraftArgs(spec: MotionDraftSpec): string[] {
  const { width, height, fps, frames } = spec
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`Bad frame count: ${frames}`)
  if (width % 2 !== 0 || height % 2 !== 0) throw new RangeError(`Odd frame size ${width}x${height}`)
  const size = { width, height, fps }
  const part = (motion: KenBurnsMotion) => ({ motion, sceneFrames: frames, firstSceneFrame: 0 })
  const graph = [
    '[0:v]split=2[a][b]',
    `[a]${kenBurnsFilter(part(spec.background), frames, size)}[bg]`,
    `[b]${kenBurnsFilter(part(parallaxMotion(spec.background)), frames, size)},format=yuva420p[fg]`,
    '[1:v]format=gray[mask]',
    '[fg][mask]alphamerge[cut]',
    `[bg][cut]overlay=x=0:y=0:format=yuv420,format=${VIDEO_ENCODER.pixelFormat}[v]`,
  ].join(';')
  return [
    '-i',
    absolutePath(spec.stillPath, 'The motion draft picture'),
    '-loop',
    '1',
    '-framerate',
    String(fps),
    '-i',
    absolutePath(spec.maskPath, 'The motion draft mask'),
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-frames:v',
    String(frames),
    '-r',
    String(fps),
    '-c:v',
    VIDEO_ENCODER.codec,
    '-preset',
    VIDEO_ENCODER.preset,
    '-x264-params',
    VIDEO_ENCODER.x264Params,
    '-crf',
    String(VIDEO_ENCODER.crf),
    '-profile:v',
    VIDEO_ENCODER.profile,
    '-pix_fmt',
    VIDEO_ENCODER.pixelFormat,
    '-g',
    String(VIDEO_ENCODER.keyframeIntervalFrames),
    '-movflags',
    '+faststart',
    '-an',
    '-f',
    'mp4',
    absolutePath(spec.outputPath, 'The motion draft'),
  ]
}

/** The oval mask as a grey PNG of `width` x `height`. */
async function maskPng(width: number, height: number): Promise<Buffer> {
  const { inner, outer } = MOTION_DRAFT_MASK
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><radialGradient id="m" cx="50%" cy="50%" r="${outer * 50}%">` +
    `<stop offset="${inner / outer}" stop-color="#fff"/><stop offset="1" stop-color="#000"/>` +
    `</radialGradient></defs><rect width="100%" height="100%" fill="url(#m)"/></svg>`
  return sharp(Buffer.from(svg), { density: 72 })
    .resize(width, height, { fit: 'fill' })
    .grayscale()
    .png()
    .toBuffer()
}

/** Options of {@link renderMotionDraft}. */
export interface MotionDraftOptions {
  ffmpegPath: string
  /** The picture: PNG, JPEG or WebP bytes of any size; it is fitted to cover the frame. */
  image: Uint8Array
  /** Frame size in pixels (even). */
  width: number
  height: number
  /** Length in seconds; the clip has `round(seconds × fps)` frames. */
  durationSeconds: number
  /** Frames per second (default FRAME_RATE_FPS, the renderer's). */
  fps?: number
  /** Picks the camera move: the same seed, the same move. */
  seed: string | number
  /** A folder (absolute) in which a temporary folder is made and removed. */
  workDir: string
  /** Where the MP4 goes (absolute). */
  outputPath: string
  signal?: AbortSignal
  /** 0..1 as ffmpeg goes. */
  onProgress?: (fraction: number) => void
}

/**
 * Renders a motion draft of `image` into `outputPath`: an H.264 MP4 of exactly
 * `round(durationSeconds × fps)` frames at `width` x `height`, without sound.
 * @throws RenderError `invalid-input` when the picture cannot be read or a path is relative,
 *   `ffmpeg-failed` when ffmpeg fails; the signal's reason when aborted.
 * @see issue 22 item 2
 */
export async function renderMotionDraft(options: MotionDraftOptions): Promise<{ frames: number }> {
  const fps = options.fps ?? FRAME_RATE_FPS
  const frames = Math.max(1, Math.round(options.durationSeconds * fps))
  const dir = await mkdtemp(join(absolutePath(options.workDir, 'The work folder'), 'motion-draft-'))
  try {
    const even = (n: number) => 2 * Math.round((n * KEN_BURNS_OVERSAMPLE) / 2)
    let still: Buffer
    try {
      still = await sharp(options.image, { failOn: 'error' })
        .rotate()
        .flatten({ background: { r: 0, g: 0, b: 0 } })
        .resize(even(options.width), even(options.height), { fit: 'cover' })
        .jpeg({ quality: STILL_JPEG_QUALITY, chromaSubsampling: '4:4:4' })
        .toBuffer()
    } catch (error) {
      throw new RenderError('invalid-input', 'The motion draft picture cannot be read', {
        cause: error,
      })
    }
    const stillPath = join(dir, 'still.jpg')
    const maskPath = join(dir, 'mask.png')
    await writeFile(stillPath, still)
    await writeFile(maskPath, await maskPng(options.width, options.height))
    const args = buildMotionDraftArgs({
      stillPath,
      maskPath,
      width: options.width,
      height: options.height,
      fps,
      frames,
      background: kenBurnsMotion(`motion-draft:${options.seed}`),
      outputPath: options.outputPath,
    })
    await runFfmpeg(options.ffmpegPath, args, {
      frames,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    })
    return { frames }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
