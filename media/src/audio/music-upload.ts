import { stat } from 'node:fs/promises'
import { externalInputArgs } from '../input/external-input.ts'
import { readHead } from '../input/read-head.ts'
import { absolutePath } from '../render/absolute-path.ts'
import { RenderError } from '../render/errors.ts'
import { findFfmpeg, progressTimeUs, runFfmpeg } from '../render/ffmpeg.ts'
import { flacDurationMs } from './flac.ts'

/**
 * An uploaded music file made safe to use (issue 24 item 1): decoded by ffmpeg from one of
 * the audio containers people have, and re-encoded before anything else reads it, so the
 * renderer, the export and the browser only ever see a plain file of one kind. Since issue 40
 * item 5 that is FLAC, lossless and compressed (a PCM WAV made minutes of silence in a 100 KB
 * upload a 100 MB asset); older music assets are WAVs, read all the same.
 */

/** What every upload becomes: 48 kHz (the render's mix rate), stereo, 16-bit, as the WAV was. */
export const MUSIC_RATE_HZ = 48_000
export const MUSIC_CHANNELS = 2
/** Bits per sample of the FLAC: the 16 of the WAV before it (CD quality, lossless). */
const MUSIC_SAMPLE_FORMAT = 's16'
/** How much of the FLAC's start is read for its STREAMINFO, in bytes (it is the first block). */
const FLAC_HEADER_READ_BYTES = 64

/** What {@link transcodeMusicToFlac} made. */
export interface MusicFlac {
  /** Its length, in ms, as the FLAC's own STREAMINFO states it. */
  durationMs: number
  byteSize: number
}

/**
 * Decodes the first audio stream of the file at `inputPath` (opened through
 * `externalInputArgs` as an `audio-upload`: no playlist or list, audio demuxers only) and
 * writes it to `outputPath` as a 48 kHz stereo 16-bit FLAC (both absolute), at most `maxMs`
 * long. Its length is read from the FLAC ffmpeg wrote (STREAMINFO's sample count).
 * @throws RenderError `invalid-input` when the file is not audio ffmpeg can read (a playlist
 *   or list, not one of the `audio-upload` demuxers of `EXTERNAL_DEMUXERS`, no audio stream, nothing decodable) or longer
 *   than `maxMs`; `ffmpeg-not-found` without ffmpeg; the signal's reason when aborted.
 * @see issue 24 item 1, issue 40 items 4 and 5
 */
export async function transcodeMusicToFlac(
  inputPath: string,
  outputPath: string,
  options: { maxMs: number; ffmpegPath?: string | undefined; signal?: AbortSignal | undefined },
): Promise<MusicFlac> {
  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  const input = await externalInputArgs(inputPath, 'audio-upload', 'This file')
  // ffmpeg's own count of what it wrote, for a FLAC whose header states no length.
  let writtenUs = 0
  try {
    await runFfmpeg(
      binary.path,
      [
        ...input,
        '-map',
        '0:a:0',
        '-vn',
        '-sn',
        '-dn',
        '-map_metadata',
        '-1',
        '-ac',
        String(MUSIC_CHANNELS),
        '-ar',
        String(MUSIC_RATE_HZ),
        '-sample_fmt',
        MUSIC_SAMPLE_FORMAT,
        '-c:a',
        'flac',
        // No 8 KiB of padding for tags nobody will add.
        '-metadata_header_padding',
        '0',
        // One second past the limit: enough to tell a file over it from one at it.
        '-t',
        String(options.maxMs / 1000 + 1),
        '-f',
        'flac',
        absolutePath(outputPath, 'The FLAC'),
      ],
      {
        signal: options.signal,
        onProgressBlock: (block) => {
          const us = progressTimeUs(block)
          if (Number.isFinite(us)) writtenUs = Math.max(writtenUs, us)
        },
      },
    )
  } catch (error) {
    if (options.signal?.aborted || !(error instanceof RenderError)) throw error
    if (error.code !== 'ffmpeg-failed') throw error
    throw new RenderError('invalid-input', 'This file is not audio ffmpeg can read.', {
      cause: error,
    })
  }
  const { size } = await stat(outputPath)
  const stated = flacDurationMs(await readHead(outputPath, FLAC_HEADER_READ_BYTES))
  const durationMs = Math.round(stated ?? writtenUs / 1000)
  if (durationMs <= 0) throw new RenderError('invalid-input', 'This file holds no sound.')
  if (durationMs > options.maxMs) {
    throw new RenderError(
      'invalid-input',
      `This audio is longer than ${Math.round(options.maxMs / 60_000)} minutes.`,
    )
  }
  return { durationMs, byteSize: size }
}
