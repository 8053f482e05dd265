import { stat } from 'node:fs/promises'
import { externalInputArgs } from '../input/external-input.ts'
import { absolutePath } from '../render/absolute-path.ts'
import { RenderError } from '../render/errors.ts'
import { findFfmpeg, runFfmpeg } from '../render/ffmpeg.ts'
import { MUSIC_CHANNELS, MUSIC_RATE_HZ } from './music-upload.ts'

/**
 * A music asset decoded to PCM WAV for the export (issue 40 item 5's follow-up): music is
 * stored as FLAC, which Final Cut Pro cannot import, so the export hands every editor a WAV of
 * the same sound (48 kHz stereo 16-bit, as uploads were stored before).
 */

/** Bytes per sample frame of the WAV: 16-bit samples, {@link MUSIC_CHANNELS} channels. */
const MUSIC_WAV_FRAME_BYTES = 2 * MUSIC_CHANNELS
/**
 * The header ffmpeg's WAV muxer writes with `-bitexact` (RIFF, `fmt ` and `data` chunk heads,
 * no `LIST` chunk naming the encoder), in bytes.
 */
export const MUSIC_WAV_HEADER_BYTES = 44

/**
 * The size of the WAV {@link decodeMusicToWav} makes of `durationMs` of music, in bytes (pure):
 * to count an export's bytes before the music is decoded.
 * @see issue 40 item 5
 */
export function musicWavByteSize(durationMs: number): number {
  // Rounded: a length computed from a sample count may land a hair off its whole number.
  const frames = Math.round((durationMs * MUSIC_RATE_HZ) / 1000)
  return MUSIC_WAV_HEADER_BYTES + frames * MUSIC_WAV_FRAME_BYTES
}

/** What {@link decodeMusicToWav} made. */
export interface MusicWav {
  /** Its length, in ms, from its size (its samples at {@link MUSIC_RATE_HZ}). */
  durationMs: number
  byteSize: number
}

/**
 * Decodes the music asset at `inputPath` (a FLAC, or a WAV from before issue 40; opened
 * through `externalInputArgs` as `stored-music`: it was an upload once, so no playlist or list
 * and only the FLAC and WAV demuxers) to a 48 kHz stereo 16-bit PCM WAV at `outputPath` (both
 * absolute), with a plain 44-byte header (no tags, `-bitexact`).
 * @throws RenderError `invalid-input` when the file is a playlist, list or text, or not FLAC or
 *   WAV ffmpeg can decode; `ffmpeg-not-found` without ffmpeg; the signal's reason when aborted.
 * @see issue 40 items 4 and 5
 */
export async function decodeMusicToWav(
  inputPath: string,
  outputPath: string,
  options: { ffmpegPath?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<MusicWav> {
  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  const input = await externalInputArgs(inputPath, 'stored-music', 'The music')
  try {
    await runFfmpeg(
      binary.path,
      [
        ...input,
        ...['-map', '0:a:0', '-vn', '-sn', '-dn', '-map_metadata', '-1'],
        ...['-ac', String(MUSIC_CHANNELS), '-ar', String(MUSIC_RATE_HZ), '-c:a', 'pcm_s16le'],
        // No LIST chunk naming the encoder: every editor reads the plainest header.
        ...['-fflags', '+bitexact', '-flags:a', '+bitexact'],
        ...['-f', 'wav', absolutePath(outputPath, 'The WAV')],
      ],
      { signal: options.signal },
    )
  } catch (error) {
    if (options.signal?.aborted || !(error instanceof RenderError)) throw error
    if (error.code !== 'ffmpeg-failed') throw error
    throw new RenderError('invalid-input', 'The music is not audio ffmpeg can read.', {
      cause: error,
    })
  }
  const { size } = await stat(outputPath)
  const frames = Math.max(0, size - MUSIC_WAV_HEADER_BYTES) / MUSIC_WAV_FRAME_BYTES
  return { durationMs: (frames / MUSIC_RATE_HZ) * 1000, byteSize: size }
}
