/**
 * Every tunable of the renderer, with its unit and the reason for its value.
 * @see issue 13 item 3
 */

/** A video format: frame size in pixels and frame rate in frames per second. */
export interface VideoPreset {
  /** Name used in cache keys and logs: `16:9`, `9:16` or `1:1`. */
  readonly name: PresetName
  /** Frame width in pixels (even: yuv420p needs it). */
  readonly width: number
  /** Frame height in pixels (even). */
  readonly height: number
  /** Frames per second. */
  readonly fps: number
}

/** The output formats of issue 13 item 3. */
export type PresetName = '16:9' | '9:16' | '1:1'

/** Issue 13 item 3: every preset at 30 fps. */
export const FRAME_RATE_FPS = 30

/**
 * The three output formats of issue 13 item 3: landscape, portrait (shorts, reels) and
 * square, all at 30 fps.
 */
export const VIDEO_PRESETS: Readonly<Record<PresetName, VideoPreset>> = {
  '16:9': { name: '16:9', width: 1920, height: 1080, fps: FRAME_RATE_FPS },
  '9:16': { name: '9:16', width: 1080, height: 1920, fps: FRAME_RATE_FPS },
  '1:1': { name: '1:1', width: 1080, height: 1080, fps: FRAME_RATE_FPS },
}

/** Crossfade between two scenes, in frames (0.5 s at 30 fps: issue 13 item 3). */
export const CROSSFADE_FRAMES = 15

/**
 * Silence before a scene's narration starts, in ms: the 0.5 s crossfade into the scene
 * plus a breath, so the voice never starts over the previous scene's image.
 */
export const NARRATION_LEAD_IN_MS = 600

/** Silence after a scene's narration ends, in ms: a beat before the crossfade out starts. */
export const NARRATION_TAIL_MS = 700

/** A scene's padding around its narration, in ms (issue 13: narration plus padding). */
export const SCENE_PADDING_MS = NARRATION_LEAD_IN_MS + NARRATION_TAIL_MS

/** Shortest scene, in ms: a scene without narration still shows its image for 2 s. */
export const MIN_SCENE_MS = 2_000

/**
 * Ken Burns zoom range: the frame shows between 1/1 and 1/1.12 of the fitted image. More
 * reads as a deliberate push-in, less as a wobble.
 */
export const KEN_BURNS_MAX_ZOOM = 1.12

/** Least zoom change over a scene, so that every scene visibly moves. */
export const KEN_BURNS_MIN_ZOOM_CHANGE = 0.05

/**
 * The fitted still is made this many times larger than the frame: `zoompan` crops at whole
 * source pixels (in RGB; in yuv420p it would be every other pixel), so a 1.5x still moves in
 * 2/3-pixel steps of the output, too small to see as judder. 2x (half-pixel steps) cost 10%
 * more CPU over a whole render (ADR 005).
 */
export const KEN_BURNS_OVERSAMPLE = 1.5

/**
 * The blurred backdrop of a picture shown whole (`contain-blur` stills, `contain` clips): the
 * picture scaled to this fraction of the frame (blurring small is cheap), blurred with this
 * Gaussian sigma in those small pixels (stills are 1.5x the frame, so clips use sigma / 1.5
 * for the same look), and darkened to this brightness so the picture in front stands out.
 */
export const BACKDROP_SCALE = 1 / 8
export const BACKDROP_BLUR_SIGMA = 6
export const BACKDROP_BRIGHTNESS = 0.6

/** Audio sample rate of the output, in Hz (issue 13 item 3: AAC at 48 kHz). */
export const AUDIO_SAMPLE_RATE_HZ = 48_000

/** AAC bit rate, in bits per second: transparent for voice over music in stereo. */
export const AUDIO_BITRATE_BPS = 192_000

/** Loudness target, integrated, in LUFS (issue 13 item 3: -14 LUFS, as the big platforms). */
export const LOUDNESS_TARGET_LUFS = -14

/**
 * Ceiling of the limiter after the loudness gain, in dBFS (sample peak): 1 dB under the usual
 * -1 dBTP, for the true peak between samples and AAC's overshoot.
 */
export const LIMITER_CEILING_DBFS = -2

/** Lookahead of that limiter (`alimiter`'s attack), in ms; its release is 10 times longer. */
export const LIMITER_ATTACK_MS = 5

/**
 * How far from the target, in LU, the normalized mix may land before the gain is corrected
 * once (the limiter takes off some loudness when it catches peaks: about 1 LU on TTS).
 */
export const LOUDNESS_TOLERANCE_LU = 0.3

/** Below this integrated loudness, in LUFS, the mix is treated as silence and not gained up. */
export const SILENCE_LUFS = -70

/** Music level under the voice before ducking, in dB, relative to the generated bed. */
export const MUSIC_GAIN_DB = -6

/**
 * Ducking (`sidechaincompress`): the music drops by up to ratio 8 as soon as the voice
 * passes the threshold (linear amplitude), within 20 ms, and comes back over 500 ms.
 */
export const DUCKING = { threshold: 0.02, ratio: 8, attackMs: 20, releaseMs: 500 } as const

/**
 * H.264 settings of every segment. They must be the same for every segment, as the join
 * copies the streams (one SPS/PPS). x264's `superfast` with mb-tree and a 10-frame lookahead
 * put back (`veryfast`'s rate control) encodes Ken Burns motion with 40% less CPU than
 * `veryfast` at the same size and PSNR (measured in ADR 005); `-tune stillimage` was slower
 * and larger, as the picture moves. CRF 20 is visually clean. A key frame every 2 s keeps
 * seeking cheap.
 */
export const VIDEO_ENCODER = {
  codec: 'libx264',
  preset: 'superfast',
  x264Params: 'mbtree=1:rc-lookahead=10',
  crf: 20,
  profile: 'high',
  pixelFormat: 'yuv420p',
  keyframeIntervalFrames: 2 * FRAME_RATE_FPS,
} as const

/**
 * How many ffmpeg processes render segments at once. One: x264 already uses both cores of
 * the 2-core machines this runs on, and each 1080p encoder holds about 150 MB.
 */
export const RENDER_CONCURRENCY = 1

/** Subtitle band: the bottom part of the frame where cues are drawn, as a fraction of the height. */
export const SUBTITLE_BAND_FRACTION = 0.25

/** Gap between the cue's box and the bottom of the frame, as a fraction of the height. */
export const SUBTITLE_BOTTOM_MARGIN_FRACTION = 0.06

/** Width available to subtitle text, as a fraction of the frame width. */
export const SUBTITLE_MAX_WIDTH_FRACTION = 0.86

/**
 * A clip's own sound under the narration (issue 22 item 4), in dB, before ducking: as the
 * music, a bed under the voice, not beside it. Generated sound (ambience, effects) is mixed
 * near full scale by the models, so it is lowered by as much as the music is.
 */
export const CLIP_SOUND_GAIN_DB = -6

/**
 * Clips are read by the ISO/QuickTime demuxer only (MP4, MOV), and only from files: a file
 * whose bytes are a playlist (HLS) would otherwise make ffmpeg open the addresses in it.
 */
export const CLIP_INPUT_FORMAT = 'mov'
export const CLIP_INPUT_PROTOCOLS = 'file'

/** Bytes of ffmpeg's stderr kept when probing a clip: its stream listing follows any metadata. */
export const CLIP_PROBE_STDERR_BYTES = 65_536

/** How often the RSS of a running ffmpeg is read from /proc, in ms. */
export const RSS_POLL_MS = 200

/** Bytes of ffmpeg's stderr kept for error messages. */
export const STDERR_TAIL_BYTES = 8_192

/**
 * Version of the segment format: part of every cache key, so a change to how segments are
 * made (filters, encoder settings) invalidates old segments.
 */
export const SEGMENT_FORMAT_VERSION = 2

/**
 * Version of how a clip becomes frames (timing and fitting filters; issue 22 item 4): part of
 * the key of every segment with a clip, so changing them re-renders clip scenes only.
 */
export const CLIP_FORMAT_VERSION = 1
