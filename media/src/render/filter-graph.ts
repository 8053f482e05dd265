import { VIDEO_ENCODER, type VideoPreset } from './config.ts'
import type { KenBurnsMotion } from './motion.ts'
import { absolutePath } from './absolute-path.ts'

/** What the chosen ffmpeg binary can do, as far as the filter graph cares. */
export interface FfmpegCapabilities {
  /** First line of `ffmpeg -version`: part of every cache key (x264 builds differ). */
  version: string
  /** Whether the `xfade` filter exists (ffmpeg >= 4.3; the static 4.1 build lacks it). */
  xfade: boolean
}

/** One scene's contribution to a segment. */
export interface SegmentScenePart {
  /** The fitted still: a JPEG of `stillSize(preset)`, made by `fitStill`. */
  stillPath: string
  motion: KenBurnsMotion
  /** Frames the whole scene lasts: the motion runs from its frame 0 to this minus one. */
  sceneFrames: number
  /** Scene-local frame at which this segment starts. */
  firstSceneFrame: number
}

/** An image laid over the segment during a range of its frames (a subtitle cue). */
export interface SegmentOverlay {
  /** A PNG with alpha. */
  imagePath: string
  /** Top-left corner in the frame, in pixels (even, to keep yuv420p chroma aligned). */
  x: number
  y: number
  /** First segment-local frame shown. */
  startFrame: number
  /** Segment-local frame after the last one shown (exclusive). */
  endFrame: number
}

/** Everything needed to render one segment to a file. */
export interface SegmentRenderSpec {
  preset: VideoPreset
  /** Length of the segment in frames. */
  frames: number
  /** One scene (a scene body), or two (a crossfade from the first to the second). */
  parts: readonly [SegmentScenePart] | readonly [SegmentScenePart, SegmentScenePart]
  /** Laid over the picture in order. */
  overlays: readonly SegmentOverlay[]
}

/** The ffmpeg command for one segment, without the global flags `runFfmpeg` adds. */
export interface SegmentCommand {
  /** The `-filter_complex` value. */
  filterGraph: string
  /** Arguments after the binary's global flags: inputs, the graph, encoder, output path. */
  args: string[]
}

/** A number written for an ffmpeg expression: no exponent, at most 6 decimals. */
function num(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite number: ${n}`)
  return String(Math.round(n * 1e6) / 1e6)
}

/**
 * The `zoompan` filter for one part: a single still becomes `frames` frames of the Ken Burns
 * move, starting at the part's scene-local frame. `on` is zoompan's output frame number.
 * It works in RGB: in yuv420p zoompan rounds the crop to even pixels (chroma), doubling the
 * judder, and measured no cheaper. Only `motion`, `sceneFrames` and `firstSceneFrame` of the
 * part are read (the offline motion draft moves two layers with it, issue 22).
 */
export function kenBurnsFilter(
  part: Pick<SegmentScenePart, 'motion' | 'sceneFrames' | 'firstSceneFrame'>,
  frames: number,
  preset: Pick<VideoPreset, 'width' | 'height' | 'fps'>,
): string {
  const { motion } = part
  const span = Math.max(1, part.sceneFrames - 1)
  const progress = `(on+${part.firstSceneFrame})/${span}`
  const lerp = (from: number, to: number) =>
    from === to ? num(from) : `(${num(from)}+${num(to - from)}*${progress})`
  const zoom = lerp(motion.zoomFrom, motion.zoomTo)
  const x = `(iw-iw/zoom)*${lerp(motion.panFrom.x, motion.panTo.x)}`
  const y = `(ih-ih/zoom)*${lerp(motion.panFrom.y, motion.panTo.y)}`
  return (
    `format=rgb24,zoompan=z='${zoom}':x='${x}':y='${y}'` +
    `:d=${frames}:s=${preset.width}x${preset.height}:fps=${preset.fps},setsar=1,format=yuv420p`
  )
}

/**
 * The ffmpeg filter graph and arguments that render one segment (pure): a scene body (one
 * still with its Ken Burns move) or a crossfade (two stills in motion, faded with `xfade`
 * when the binary has it, else by overlaying the incoming scene with a rising alpha, which
 * every ffmpeg since 2.x has), then the subtitle overlays, encoded as H.264 yuv420p with
 * `VIDEO_ENCODER`'s settings and no audio. Inputs are the stills, then the overlay images,
 * in order; no path appears inside the graph, so no path needs escaping.
 *
 * @throws RangeError when the segment has no frames, a transition's parts are not two, or
 *   an overlay lies outside the frame; RenderError `invalid-input` for a relative path.
 * @see issue 13 item 3, issue 20 item 1
 */
export function buildSegmentFilterGraph(
  spec: SegmentRenderSpec,
  capabilities: Pick<FfmpegCapabilities, 'xfade'>,
  outputPath: string,
): SegmentCommand {
  const { preset, frames, parts, overlays } = spec
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`Bad frame count: ${frames}`)
  const chains: string[] = []
  if (parts.length === 1) {
    chains.push(`[0:v]${kenBurnsFilter(parts[0], frames, preset)}[base]`)
  } else {
    chains.push(`[0:v]${kenBurnsFilter(parts[0], frames, preset)}[from]`)
    chains.push(`[1:v]${kenBurnsFilter(parts[1], frames, preset)}[to]`)
    if (capabilities.xfade) {
      chains.push(
        `[from][to]xfade=transition=fade:duration=${num(frames / preset.fps)}:offset=0[base]`,
      )
    } else {
      chains.push(`[to]format=yuva420p,fade=t=in:s=0:n=${frames}:alpha=1[toalpha]`)
      chains.push(`[from][toalpha]overlay=x=0:y=0:format=yuv420:eof_action=pass[base]`)
    }
  }
  let label = 'base'
  overlays.forEach((overlay, i) => {
    if (overlay.x < 0 || overlay.y < 0 || overlay.x >= preset.width || overlay.y >= preset.height) {
      throw new RangeError(`Overlay ${i} lies outside the frame`)
    }
    const next = `o${i}`
    chains.push(
      `[${label}][${parts.length + i}:v]overlay=x=${overlay.x}:y=${overlay.y}:format=yuv420` +
        `:enable='between(n,${overlay.startFrame},${overlay.endFrame - 1})'[${next}]`,
    )
    label = next
  })
  chains.push(`[${label}]format=${VIDEO_ENCODER.pixelFormat}[v]`)
  const filterGraph = chains.join(';')

  const args: string[] = []
  for (const part of parts) args.push('-i', absolutePath(part.stillPath, 'A still'))
  for (const overlay of overlays)
    args.push('-i', absolutePath(overlay.imagePath, 'A subtitle image'))
  args.push(
    '-filter_complex',
    filterGraph,
    '-map',
    '[v]',
    '-frames:v',
    String(frames),
    '-r',
    String(preset.fps),
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
    '-an',
    '-f',
    'mp4',
    absolutePath(outputPath, 'A segment'),
  )
  return { filterGraph, args }
}
