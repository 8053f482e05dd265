import { createHash } from 'node:crypto'
import type { ClipFit, TransitionType } from '@reelgraph/shared'
import {
  BACKDROP_BLUR_SIGMA,
  BACKDROP_BRIGHTNESS,
  BACKDROP_SCALE,
  CLIP_FORMAT_VERSION,
  KEN_BURNS_OVERSAMPLE,
  SEGMENT_FORMAT_VERSION,
  SUBTITLE_BAND_FRACTION,
  SUBTITLE_BOTTOM_MARGIN_FRACTION,
  SUBTITLE_MAX_WIDTH_FRACTION,
  VIDEO_ENCODER,
  type VideoPreset,
} from './config.ts'
import type { ClipTiming } from './clips.ts'
import type { FfmpegCapabilities } from './filter-graph.ts'
import type { KenBurnsMotion } from './motion.ts'
import type { StillFit } from './stills.ts'
import type { SubtitleStyle } from './subtitle-images.ts'

/** A scene's part of a segment, by content: a still in motion, or a clip (issue 22 item 4). */
export type SegmentKeyPart = SegmentKeyStillPart | SegmentKeyClipPart | SegmentKeyCardPart

/** A title or end card's part of a segment (issue 24 item 1). */
export interface SegmentKeyCardPart {
  /** The card's ASS document (its text, colours, font and size), or null without text. */
  cardAss: string | null
  background: string
  /** The caption fonts' versions (`fontsVersion`). */
  fonts: string
  /** Frames of the whole card and where the segment starts: not keyed (a card stands still). */
  sceneFrames: number
  firstSceneFrame: number
}

/** A still's part of a segment. */
export interface SegmentKeyStillPart {
  /** SHA-256 (hex) of the scene image's bytes as given. */
  imageSha256: string
  fit: StillFit
  motion: KenBurnsMotion
  /** Frames of the whole scene (its narration's length shapes the motion's speed). */
  sceneFrames: number
  /** Scene-local frame where the segment starts. */
  firstSceneFrame: number
}

/** A clip's part of a segment (issue 22 item 4). */
export interface SegmentKeyClipPart {
  /** SHA-256 (hex) of the clip file's bytes. */
  clipSha256: string
  fit: ClipFit
  /** How it fills the scene's length (`clipTiming`): played, held, or slowed by a factor. */
  timing: ClipTiming
  /** Frames of the whole scene. */
  sceneFrames: number
  /** Scene-local frame where the segment starts. */
  firstSceneFrame: number
  /** The timeline cut's in and out points, in ms of the clip (issue 24 item 1); absent: all. */
  span?: { inMs: number; outMs: number }
}

/** A subtitle cue as burned into a segment: segment-local frames, end exclusive. */
export interface SegmentKeyCue {
  startFrame: number
  endFrame: number
  lines: readonly string[]
}

/** Everything that shapes one segment's pixels. */
export interface SegmentKeyInput {
  preset: VideoPreset
  /** Length of the segment in frames. */
  frames: number
  /** One part (a scene body) or two (a crossfade). */
  parts: readonly SegmentKeyPart[]
  /** The cues burned into this segment; `null` or no cue when none is. */
  subtitles: { style: SubtitleStyle; cues: readonly SegmentKeyCue[] } | null
  /** How a two-part segment goes from one to the other (issue 24); default `crossfade`. */
  transition?: TransitionType
  /**
   * Captions drawn by libass (issue 24 item 2): the segment's ASS document (segment-local
   * times, words, look) and the fonts' versions; absent: none.
   */
  captions?: { ass: string; fonts: string } | null
  /** The binary that renders it (x264 builds differ); `xfade` matters for crossfades only. */
  ffmpeg: Pick<FfmpegCapabilities, 'version' | 'xfade'>
}

/**
 * The cache key of one segment (pure): SHA-256 (hex) over a canonical list of everything
 * that shapes its pixels — image bytes (by hash) and fit, preset size and rate, Ken Burns
 * motion, the scene's length and the segment's frame range (so a narration that changes
 * length changes it), the cues and subtitle style burned in, the ffmpeg build, and the
 * renderer's own constants (encoder settings, oversampling, subtitle layout, format
 * version). A clip part counts the clip's bytes (by hash), its fit and its timing instead of
 * the image, fit and motion (issue 22 item 4), and the clip format's version. Fields are picked one by one, so anything else on the objects is ignored, and
 * the subtitle style and `xfade` count only where they are used.
 * @see issue 13 item 3, issue 22 item 4
 */
export function segmentCacheKey(input: SegmentKeyInput): string {
  const cues = input.subtitles?.cues ?? []
  const style = input.subtitles?.style
  const canonical = [
    'reelgraph-segment',
    SEGMENT_FORMAT_VERSION,
    [
      VIDEO_ENCODER.codec,
      VIDEO_ENCODER.preset,
      VIDEO_ENCODER.x264Params,
      VIDEO_ENCODER.crf,
      VIDEO_ENCODER.profile,
      VIDEO_ENCODER.pixelFormat,
      VIDEO_ENCODER.keyframeIntervalFrames,
    ],
    KEN_BURNS_OVERSAMPLE,
    [input.preset.width, input.preset.height, input.preset.fps],
    input.frames,
    input.parts.map((part) =>
      'cardAss' in part
        ? ['card', part.background.toLowerCase(), part.cardAss, part.cardAss ? part.fonts : null]
        : 'clipSha256' in part
          ? [
              'clip',
              CLIP_FORMAT_VERSION,
              part.clipSha256,
              part.fit,
              // The blurred backdrop, drawn by ffmpeg (a still's is in the still, by sharp).
              part.fit === 'contain'
                ? [BACKDROP_SCALE, BACKDROP_BLUR_SIGMA, BACKDROP_BRIGHTNESS]
                : null,
              part.timing.kind,
              part.timing.kind === 'slow' ? part.timing.factor : null,
              part.sceneFrames,
              part.firstSceneFrame,
              // Only when set, so the keys of clips shown whole stay as they were.
              ...(part.span ? [['span', part.span.inMs, part.span.outMs]] : []),
            ]
          : [
              part.imageSha256,
              part.fit,
              [part.motion.zoomFrom, part.motion.zoomTo],
              [
                part.motion.panFrom.x,
                part.motion.panFrom.y,
                part.motion.panTo.x,
                part.motion.panTo.y,
              ],
              part.sceneFrames,
              part.firstSceneFrame,
            ],
    ),
    cues.map((cue) => [cue.startFrame, cue.endFrame, [...cue.lines]]),
    cues.length > 0 && style
      ? [
          style.font,
          style.fontSize,
          style.color.toLowerCase(),
          style.boxColor.toLowerCase(),
          style.boxOpacity,
          SUBTITLE_BAND_FRACTION,
          SUBTITLE_BOTTOM_MARGIN_FRACTION,
          SUBTITLE_MAX_WIDTH_FRACTION,
        ]
      : null,
    input.ffmpeg.version,
    input.parts.length > 1 ? input.ffmpeg.xfade : null,
    // Only when set, so today's segments keep their keys (and their cache).
    ...(input.parts.length > 1 && input.transition && input.transition !== 'crossfade'
      ? [['transition', input.transition]]
      : []),
    ...(input.captions ? [['captions', input.captions.ass, input.captions.fonts]] : []),
  ]
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex')
}
