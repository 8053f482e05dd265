import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import type { ClipShorter } from '@reelgraph/shared'
import { externalInputArgs, pinnedInputArgs } from '../input/external-input.ts'
import { CLIP_PROBE_STDERR_BYTES } from './config.ts'
import { RenderError } from './errors.ts'
import { runFfmpeg } from './ffmpeg.ts'

/**
 * Scenes that are clips (issue 22 item 4): what the renderer learns of a clip file before it
 * renders (its length, whether it has sound, the hash of its bytes), and how a clip is fitted
 * to its scene's length. See docs/decisions/015.
 */

/** What {@link probeClip} found. */
export interface ClipProbe {
  /** Length of the file (its longest stream), in ms. */
  durationMs: number
  /** True when it has an audio stream. */
  hasAudio: boolean
}

/**
 * The ffmpeg input arguments of a clip: the ISO/QuickTime demuxer only, from files only, so
 * that a file whose bytes are something else (a playlist naming other addresses) is refused
 * instead of followed (`pinnedInputArgs` of a `stored-clip`). For filter graphs, whose clips
 * {@link probeClip} opened first (it refuses playlists and lists by their bytes).
 * @throws RenderError `invalid-input` for a relative path
 * @see issue 22 item 4, issue 20 item 1, issue 40 item 4
 */
export function clipInputArgs(path: string, what = 'A clip'): string[] {
  return pinnedInputArgs(path, 'stored-clip', what)
}

/**
 * Reads a clip's length and whether it has sound from ffmpeg's listing of it, demuxing the
 * whole video stream by stream copy (no decoding: some 50 ms for 10 MB) so that a truncated
 * file fails here, before any segment is rendered.
 * @param what names the clip in messages ("Scene 2's clip")
 * Opened through `externalInputArgs` (a playlist or list is refused by its bytes first).
 * @throws RenderError `invalid-input` when the file is a playlist, a list or text, or no
 *   MP4/MOV with a video stream and a length; `ffmpeg-not-found` from ffmpeg; the signal's
 *   reason when aborted.
 * @see issue 22 item 4, issue 40 item 4
 */
export async function probeClip(
  ffmpegPath: string,
  path: string,
  what: string,
  signal?: AbortSignal,
): Promise<ClipProbe> {
  const input = await externalInputArgs(path, 'stored-clip', what)
  let stderr: string
  try {
    const result = await runFfmpeg(
      ffmpegPath,
      [...input, '-map', '0:v:0', '-c', 'copy', '-map_metadata', '-1', '-f', 'null', '-'],
      { logLevel: 'info', signal, stderrTailBytes: CLIP_PROBE_STDERR_BYTES },
    )
    stderr = result.stderr
  } catch (error) {
    if (signal?.aborted || !(error instanceof RenderError) || error.code !== 'ffmpeg-failed') {
      throw error
    }
    throw new RenderError('invalid-input', `${what} is not an MP4 video ffmpeg can read`, {
      cause: error,
    })
  }
  const clip = parseClipListing(stderr)
  if (!clip) throw new RenderError('invalid-input', `${what} has no video of a known length`)
  return clip
}

/**
 * A clip's length and sound from ffmpeg's listing of its input (pure), or null when the
 * listing shows no video stream or no length.
 * @see issue 22 item 4
 */
export function parseClipListing(stderr: string): ClipProbe | null {
  const input = stderr.slice(Math.max(0, stderr.indexOf('Input #0')))
  const end = input.indexOf('Output #0')
  const listing = end < 0 ? input : input.slice(0, end)
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(listing)
  if (!duration || !/Stream #0:\d+\S*: Video:/.test(listing)) return null
  const seconds = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])
  if (!(seconds > 0)) return null
  return {
    durationMs: Math.round(seconds * 1000),
    hasAudio: /Stream #0:\d+\S*: Audio:/.test(listing),
  }
}

/**
 * SHA-256 (hex) of a file's bytes, read as a stream (a clip is never held in memory whole).
 * @throws the file system's error when it cannot be read.
 * @see issue 22 item 4
 */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

/**
 * How a clip fills its scene's frames: `play` at its own speed (a clip at least as long as
 * the scene, trimmed at the scene's end); `hold` its last frame after it ends; `slow` it by
 * `factor` (>1) so it ends with the scene.
 */
export type ClipTiming = { kind: 'play' } | { kind: 'hold' } | { kind: 'slow'; factor: number }

/**
 * The timing of a clip of `clipMs` in a scene of `sceneFrames` at `fps` (pure): a clip with at
 * least as many frames as the scene at the video's rate plays and is trimmed; a shorter one is
 * held or slowed as `shorter` says. The slow factor is the scene's length over the clip's,
 * rounded to 6 decimals (it enters the cache key and the filter graph as written).
 * @throws RangeError for a length or frame count that is not positive.
 * @see issue 22 item 4
 */
export function clipTiming(
  clipMs: number,
  sceneFrames: number,
  fps: number,
  shorter: ClipShorter,
): ClipTiming {
  if (!(clipMs > 0) || !(sceneFrames > 0) || !(fps > 0)) {
    throw new RangeError(`Bad clip timing input: ${clipMs} ms, ${sceneFrames} frames, ${fps} fps`)
  }
  const clipFrames = Math.round((clipMs * fps) / 1000)
  if (clipFrames >= sceneFrames) return { kind: 'play' }
  if (shorter === 'hold') return { kind: 'hold' }
  const sceneMs = (sceneFrames * 1000) / fps
  return { kind: 'slow', factor: Math.round((sceneMs / clipMs) * 1e6) / 1e6 }
}
