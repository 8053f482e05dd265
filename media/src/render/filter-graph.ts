import type { ClipFit, TransitionType } from '@reelgraph/shared'
import {
  BACKDROP_BLUR_SIGMA,
  BACKDROP_BRIGHTNESS,
  BACKDROP_SCALE,
  KEN_BURNS_OVERSAMPLE,
  VIDEO_ENCODER,
  type VideoPreset,
} from './config.ts'
import type { KenBurnsMotion } from './motion.ts'
import { absolutePath } from './absolute-path.ts'
import { clipInputArgs, type ClipTiming } from './clips.ts'
import type { FfmpegCapabilities } from './ffmpeg.ts'

export type { FfmpegCapabilities } from './ffmpeg.ts'

/**
 * One scene's contribution to a segment: a still in motion, a clip (issue 22 item 4), or a
 * title or end card (issue 24 item 1).
 */
export type SegmentPart = SegmentScenePart | SegmentClipPart | SegmentCardPart

/** A title or end card: a plain colour with its text drawn by libass (issue 24 item 1). */
export interface SegmentCardPart {
  /** The card's colour, `#rrggbb`. */
  background: string
  /** The card's text as an ASS document (`cardAss`), absolute; null: no text. */
  assPath: string | null
  /** The caption fonts' folder (`captionFontsDir`), absolute. */
  fontsDir: string
}

/** True for a card part. */
export function isCardPart(part: SegmentPart): part is SegmentCardPart {
  return 'background' in part
}

/** ffmpeg's `xfade` transition of each timeline transition (a plain cut has no segment). */
export const XFADE_TRANSITIONS: Readonly<Record<TransitionType, string>> = {
  cut: 'fade',
  crossfade: 'fade',
  dip: 'fadeblack',
  wipe: 'wipeleft',
  slide: 'slideleft',
}

/**
 * A file path as the value of a filter's option inside a filter graph: escaped for the
 * option (`\`, `'`, `:`) and then for the graph (`\`, `'`, `[`, `]`, `,`, `;`), as ffmpeg's
 * "Notes on filtergraph escaping" says, so any absolute path is read as written.
 * @throws RenderError `invalid-input` for a relative path.
 */
export function filterPath(path: string, what: string): string {
  const option = absolutePath(path, what).replace(/[\\':]/g, (c) => `\\${c}`)
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`)
}

/** The `subtitles` filter (libass) drawing an ASS file with the caption fonts only. */
export function subtitlesFilter(assPath: string, fontsDir: string): string {
  return (
    `subtitles=filename=${filterPath(assPath, 'A subtitles file')}` +
    `:fontsdir=${filterPath(fontsDir, 'The fonts folder')}`
  )
}

/** A still scene's contribution: the still with its Ken Burns move. */
export interface SegmentScenePart {
  /** The fitted still: a JPEG of `stillSize(preset)`, made by `fitStill`. */
  stillPath: string
  motion: KenBurnsMotion
  /** Frames the whole scene lasts: the motion runs from its frame 0 to this minus one. */
  sceneFrames: number
  /** Scene-local frame at which this segment starts. */
  firstSceneFrame: number
}

/** A clip, fitted to the frame and to the scene's length (issue 22 item 4). */
export interface SegmentClipPart {
  /** The clip file (MP4 or MOV), absolute. */
  clipPath: string
  /** `cover` crops it to the frame; `contain` shows it whole over a blurred copy. */
  fit: ClipFit
  /** Played, held or slowed: `clipTiming`. */
  timing: ClipTiming
  /** Frames the whole scene lasts. */
  sceneFrames: number
  /** Scene-local frame at which this segment starts (the clip's frame at the video's rate). */
  firstSceneFrame: number
  /**
   * The part of the clip the timeline cut shows, in ms of the clip (issue 24 item 1: its in
   * and out points); absent: all of it.
   */
  span?: { inMs: number; outMs: number }
}

/** True for a clip part. */
export function isClipPart(part: SegmentPart): part is SegmentClipPart {
  return 'clipPath' in part
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
  parts: readonly [SegmentPart] | readonly [SegmentPart, SegmentPart]
  /** Laid over the picture in order. */
  overlays: readonly SegmentOverlay[]
  /** How the two parts' transition goes (issue 24 item 1); default `crossfade`. */
  transition?: TransitionType
  /** Captions drawn by libass over the picture (issue 24 item 2), after the overlays. */
  captions?: { assPath: string; fontsDir: string }
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

/** `n` rounded down to an even number, at least 2 (yuv420p sizes). */
const even = (n: number) => Math.max(2, 2 * Math.floor(n / 2))

/**
 * The chains that turn input `input` (a clip) into the segment's `frames` frames at `output`
 * (issue 22 item 4): timestamps from 0, slowed by the timing's factor, resampled to the
 * video's rate (`fps`), its last frame repeated without end (`tpad`: a held clip, and a
 * played one whose video ends a frame early), the segment's scene-local frames picked
 * (`trim`), then fitted to the frame. Time comes before size, so only the frames kept are
 * scaled. `cover` scales to fill the frame, by the display aspect ratio (`dar`: the sample
 * aspect ratio included), and crops the centre; `contain` lays the clip, whole, over a small
 * blurred and darkened copy of itself scaled up (the look of `contain-blur` stills).
 */
function clipChains(
  part: SegmentClipPart,
  frames: number,
  preset: VideoPreset,
  input: string,
  output: string,
): string[] {
  const { width: w, height: h, fps } = preset
  const slow = part.timing.kind === 'slow' ? `setpts=PTS*${num(part.timing.factor)},` : ''
  const span = part.span
    ? `trim=start=${num(part.span.inMs / 1000)}:end=${num(part.span.outMs / 1000)},`
    : ''
  const time =
    `${span}setpts=PTS-STARTPTS,${slow}fps=${fps},tpad=stop=-1:stop_mode=clone,` +
    `trim=start_frame=${part.firstSceneFrame}:end_frame=${part.firstSceneFrame + frames},` +
    `setpts=PTS-STARTPTS,format=yuv420p`
  const cover = (cw: number, ch: number) =>
    `scale=w='max(${cw},ceil(${ch}*dar))':h='max(${ch},ceil(${cw}/dar))',crop=${cw}:${ch}`
  if (part.fit === 'cover') {
    return [`[${input}]${time},${cover(w, h)},setsar=1,format=yuv420p[${output}]`]
  }
  const small = { w: even(w * BACKDROP_SCALE), h: even(h * BACKDROP_SCALE) }
  const sigma = BACKDROP_BLUR_SIGMA / KEN_BURNS_OVERSAMPLE
  const dim = num(BACKDROP_BRIGHTNESS)
  const chroma = `128+(val-128)*${dim}`
  const contain = `scale=w='min(${w},floor(${h}*dar/2)*2)':h='min(${h},floor(${w}/dar/2)*2)'`
  return [
    `[${input}]${time},split=2[${output}back0][${output}front0]`,
    `[${output}back0]${cover(small.w, small.h)},gblur=sigma=${num(sigma)},` +
      `lutyuv=y='val*${dim}':u='${chroma}':v='${chroma}',scale=${w}:${h},setsar=1[${output}back]`,
    `[${output}front0]${contain},setsar=1[${output}front]`,
    `[${output}back][${output}front]overlay=x='(W-w)/2':y='(H-h)/2',setsar=1,` +
      `format=yuv420p[${output}]`,
  ]
}

/**
 * The ffmpeg filter graph and arguments that render one segment (pure): a scene body (one
 * still with its Ken Burns move, or a clip fitted to the frame and the scene's length) or a
 * crossfade (two scenes' pictures in motion, still or clip, faded with `xfade`
 * when the binary has it, else by overlaying the incoming scene with a rising alpha, which
 * every ffmpeg since 2.x has), then the subtitle overlays, encoded as H.264 yuv420p with
 * `VIDEO_ENCODER`'s settings and no audio. Issue 24: a part may be a title or end card (a
 * `color` source with its text drawn by libass), the two parts may meet by any timeline
 * transition (`XFADE_TRANSITIONS`; without `xfade` every one is the alpha fade), a clip may
 * show from its in to its out point, and captions may be drawn by libass last. Inputs are the
 * stills and clips, then the overlay images, in order; the only paths inside the graph are
 * the ASS files and the fonts folder, escaped by {@link filterPath}.
 *
 * @throws RangeError when the segment has no frames, a transition's parts are not two, or
 *   an overlay lies outside the frame; RenderError `invalid-input` for a relative path.
 * @see issue 13 item 3, issue 20 item 1, issue 22 item 4
 */
export function buildSegmentFilterGraph(
  spec: SegmentRenderSpec,
  capabilities: Pick<FfmpegCapabilities, 'xfade'>,
  outputPath: string,
): SegmentCommand {
  const { preset, frames, parts, overlays } = spec
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`Bad frame count: ${frames}`)
  const chains: string[] = []
  const args: string[] = []
  let inputs = 0
  const input = (inputArgs: string[]) => {
    args.push(...inputArgs)
    return inputs++
  }
  const picture = (index: number, output: string) => {
    const part = parts[index]!
    if (isCardPart(part)) {
      const colour = `0x${part.background.replace('#', '')}`
      const text = part.assPath ? `,${subtitlesFilter(part.assPath, part.fontsDir)}` : ''
      chains.push(
        `color=c=${colour}:s=${preset.width}x${preset.height}:r=${preset.fps},` +
          `trim=end_frame=${frames},setsar=1,format=yuv420p${text}[${output}]`,
      )
    } else if (isClipPart(part)) {
      const at = input(clipInputArgs(part.clipPath))
      chains.push(...clipChains(part, frames, preset, `${at}:v`, output))
    } else {
      const at = input(['-i', absolutePath(part.stillPath, 'A still')])
      chains.push(`[${at}:v]${kenBurnsFilter(part, frames, preset)}[${output}]`)
    }
  }
  if (parts.length === 1) {
    picture(0, 'base')
  } else {
    picture(0, 'from')
    picture(1, 'to')
    if (capabilities.xfade) {
      const kind = XFADE_TRANSITIONS[spec.transition ?? 'crossfade']
      chains.push(
        `[from][to]xfade=transition=${kind}:duration=${num(frames / preset.fps)}:offset=0[base]`,
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
    const at = input(['-i', absolutePath(overlay.imagePath, 'A subtitle image')])
    const next = `o${i}`
    chains.push(
      `[${label}][${at}:v]overlay=x=${overlay.x}:y=${overlay.y}:format=yuv420` +
        `:enable='between(n,${overlay.startFrame},${overlay.endFrame - 1})'[${next}]`,
    )
    label = next
  })
  if (spec.captions) {
    chains.push(`[${label}]${subtitlesFilter(spec.captions.assPath, spec.captions.fontsDir)}[sub]`)
    label = 'sub'
  }
  chains.push(`[${label}]format=${VIDEO_ENCODER.pixelFormat}[v]`)
  const filterGraph = chains.join(';')

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
