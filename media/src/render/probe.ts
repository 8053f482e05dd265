import { type ExternalMediaKind, externalInputArgs } from '../input/external-input.ts'
import { absolutePath } from './absolute-path.ts'
import { RenderError } from './errors.ts'
import { findFfmpeg, progressTimeUs, runFfmpeg } from './ffmpeg.ts'

/**
 * What a media file holds, by ffmpeg's own reading (issue 22 item 2: a provider's answer is
 * checked before it becomes an asset). ffmpeg, not ffprobe: the static build a fresh machine
 * gets ships no ffprobe.
 */

/** A media file's streams and lengths. */
export interface MediaProbe {
  /** The container as ffmpeg names its demuxer (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`). */
  format: string
  /** The container's length, in ms (0 when it states none). */
  durationMs: number
  /**
   * How much of the first video stream its packets cover, read through to the end, in ms (a
   * truncated file covers less than its header says).
   */
  decodedMs: number
  video: { codec: string; width: number; height: number } | null
  audio: { codec: string } | null
}

/** Options of {@link probeMedia}, {@link extractPosterFrame} and {@link transcodeToMp4}. */
export interface ProbeOptions {
  /** The ffmpeg binary; `findFfmpeg`'s choice by default. */
  ffmpegPath?: string | undefined
  signal?: AbortSignal | undefined
  /**
   * What the file is expected to be, which decides the demuxers ffmpeg may read it with
   * (issue 40 item 4); `clip` (a provider's video: MP4/MOV or WebM/Matroska) by default.
   */
  kind?: ExternalMediaKind | undefined
}

/** `Duration: 00:00:05.04` -> 5040. */
function headerDurationMs(stderr: string): number {
  const match = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr)
  if (!match) return 0
  return Math.round(((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000)
}

/** The first `Stream #0:n...: Video: h264 (...), yuv420p, 1920x1080, ...` of an input header. */
function streams(stderr: string): Pick<MediaProbe, 'video' | 'audio'> {
  const input = stderr.slice(stderr.indexOf('Input #0'), stderr.search(/Output #0|Stream mapping/))
  const video = /Stream #0:\d+[^:]*: Video: (\w+)[^\n]*?(\d{2,5})x(\d{2,5})/.exec(input)
  const audio = /Stream #0:\d+[^:]*: Audio: (\w+)/.exec(input)
  return {
    video: video ? { codec: video[1]!, width: Number(video[2]), height: Number(video[3]) } : null,
    audio: audio ? { codec: audio[1]! } : null,
  }
}

/**
 * Reads the file at `path` (absolute) with ffmpeg: its header (container length, the first
 * video and audio stream), then reads its video packets through to the end (copied, not
 * decoded: a fraction of a decode's time) to measure how much of it there is. Opened through
 * `externalInputArgs` as `options.kind` (a playlist or list is refused before ffmpeg runs).
 * @throws RenderError `invalid-input` when it is a playlist, a list or text, or ffmpeg cannot
 *   read it as media of its kind at all (an HTML page, a missing index),
 *   `ffmpeg-not-found` when there is no ffmpeg; the signal's reason.
 * @see issue 22 item 2, issue 40 item 4
 */
export async function probeMedia(path: string, options: ProbeOptions = {}): Promise<MediaProbe> {
  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  const input = await externalInputArgs(path, options.kind ?? 'clip', 'The media to probe')
  // One pass: the header (printed first, at `info`), then every packet of the first video
  // stream copied to nowhere (no decoding: a fraction of a decode's time).
  let header: string
  let decodedUs = 0
  try {
    header = (
      await runFfmpeg(binary.path, [...input, '-map', '0:v:0?', '-c', 'copy', '-f', 'null', '-'], {
        logLevel: 'info',
        signal: options.signal,
        onProgressBlock: (block) => {
          const us = progressTimeUs(block)
          if (Number.isFinite(us)) decodedUs = Math.max(decodedUs, us)
        },
      })
    ).stderr
  } catch (error) {
    if (options.signal?.aborted || !(error instanceof RenderError)) throw error
    if (error.code !== 'ffmpeg-failed') throw error
    throw new RenderError('invalid-input', `Not a media file: ${error.message}`, { cause: error })
  }
  const found = streams(header)
  return {
    format: /Input #0, ([^\s]+), from/.exec(header)?.[1]?.replace(/,$/, '') ?? '',
    durationMs: headerDurationMs(header),
    decodedMs: found.video ? Math.round(decodedUs / 1000) : 0,
    ...found,
  }
}

/**
 * Writes one frame of the video at `path`, at `atMs` (0: its first frame, decoded alone; a
 * later one decodes every frame from the keyframe before it), as a JPEG at `outputPath` (both
 * absolute): a clip's poster. Opened through `externalInputArgs` as `options.kind`.
 * @throws RenderError `ffmpeg-failed` when no frame can be read there, `invalid-input` for a
 *   playlist, a list or text.
 * @see issue 22 item 2, issue 40 item 4
 */
export async function extractPosterFrame(
  path: string,
  outputPath: string,
  atMs: number,
  options: ProbeOptions = {},
): Promise<void> {
  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  const input = await externalInputArgs(path, options.kind ?? 'clip', 'The video')
  await runFfmpeg(
    binary.path,
    [
      '-ss',
      (Math.max(0, atMs) / 1000).toFixed(3),
      ...input,
      '-frames:v',
      '1',
      '-q:v',
      '3',
      absolutePath(outputPath, 'The poster frame'),
    ],
    { signal: options.signal },
  )
}

/**
 * Re-encodes the video at `path` as H.264 (yuv420p) with AAC sound, in an MP4 with its index
 * first, at `outputPath` (both absolute): a provider's clip in another container or codec
 * (a ComfyUI workflow's WebM, say) becomes one every browser and the renderer read. Opened
 * through `externalInputArgs` as `options.kind`.
 * @throws RenderError `invalid-input` for a playlist, a list or text, `ffmpeg-failed` when
 *   ffmpeg cannot re-encode it.
 * @see issue 22 item 2, issue 40 item 4
 */
export async function transcodeToMp4(
  path: string,
  outputPath: string,
  options: ProbeOptions & { durationMs?: number } = {},
): Promise<void> {
  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  const input = await externalInputArgs(path, options.kind ?? 'clip', 'The video')
  await runFfmpeg(
    binary.path,
    [
      ...input,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '18',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      absolutePath(outputPath, 'The MP4'),
    ],
    { signal: options.signal, durationMs: options.durationMs },
  )
}
