import { open, stat } from 'node:fs/promises'
import { absolutePath } from '../render/absolute-path.ts'
import { RenderError } from '../render/errors.ts'
import { findFfmpeg, runFfmpeg } from '../render/ffmpeg.ts'

/**
 * An uploaded music file made safe to use (issue 24 item 1): decoded by ffmpeg from one of
 * the audio containers people have, and re-encoded to PCM WAV before anything else reads it,
 * so the renderer, the export and the browser only ever see a plain WAV.
 */

/** The WAV every upload becomes: 48 kHz (the render's mix rate), stereo, 16-bit PCM. */
export const MUSIC_WAV_RATE_HZ = 48_000
export const MUSIC_WAV_CHANNELS = 2
const BYTES_PER_SECOND = MUSIC_WAV_RATE_HZ * MUSIC_WAV_CHANNELS * 2
/** How much of a WAV's start is read to find its `data` chunk. */
const WAV_HEADER_READ_BYTES = 4_096

/** The byte size of the `data` chunk of the WAV at `path` (walking its RIFF chunks). */
async function wavDataBytes(path: string): Promise<number> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(WAV_HEADER_READ_BYTES)
    const { bytesRead } = await file.read(head, 0, head.length, 0)
    if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') {
      return 0
    }
    for (let at = 12; at + 8 <= bytesRead;) {
      const id = head.toString('ascii', at, at + 4)
      const size = head.readUInt32LE(at + 4)
      if (id === 'data') return size
      at += 8 + size + (size % 2)
    }
    return 0
  } finally {
    await file.close()
  }
}

/**
 * The demuxers an upload may be read with (ffmpeg's `-format_whitelist`): audio containers
 * only. Playlists (HLS), concat lists and image sequences, which name other files, are not
 * among them, so an upload can never make ffmpeg read anything but itself.
 */
export const MUSIC_DEMUXERS = [
  'wav',
  'mp3',
  'ogg',
  'flac',
  'aac',
  'mov,mp4,m4a,3gp,3g2,mj2',
  'matroska,webm',
  'aiff',
  'w64',
  'caf',
] as const

/** What {@link transcodeMusicToWav} made. */
export interface MusicWav {
  /** Its length, in ms. */
  durationMs: number
  byteSize: number
}

/**
 * Decodes the first audio stream of the file at `inputPath` and writes it to `outputPath` as
 * a 48 kHz stereo 16-bit PCM WAV (both absolute), at most `maxMs` long.
 * @throws RenderError `invalid-input` when the file is not audio ffmpeg can read (not one of
 *   {@link MUSIC_DEMUXERS}, no audio stream, nothing decodable) or longer than `maxMs`;
 *   `ffmpeg-not-found` without ffmpeg; the signal's reason when aborted.
 */
export async function transcodeMusicToWav(
  inputPath: string,
  outputPath: string,
  options: { maxMs: number; ffmpegPath?: string | undefined; signal?: AbortSignal | undefined },
): Promise<MusicWav> {
  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  try {
    await runFfmpeg(
      binary.path,
      [
        '-protocol_whitelist',
        'file',
        '-format_whitelist',
        MUSIC_DEMUXERS.join(','),
        '-i',
        absolutePath(inputPath, 'The upload'),
        '-map',
        '0:a:0',
        '-vn',
        '-sn',
        '-dn',
        '-map_metadata',
        '-1',
        '-ac',
        String(MUSIC_WAV_CHANNELS),
        '-ar',
        String(MUSIC_WAV_RATE_HZ),
        '-c:a',
        'pcm_s16le',
        // One second past the limit: enough to tell a file over it from one at it.
        '-t',
        String(options.maxMs / 1000 + 1),
        '-f',
        'wav',
        absolutePath(outputPath, 'The WAV'),
      ],
      { signal: options.signal },
    )
  } catch (error) {
    if (options.signal?.aborted || !(error instanceof RenderError)) throw error
    if (error.code !== 'ffmpeg-failed') throw error
    throw new RenderError('invalid-input', 'This file is not audio ffmpeg can read.', {
      cause: error,
    })
  }
  const { size } = await stat(outputPath)
  const durationMs = Math.round(((await wavDataBytes(outputPath)) / BYTES_PER_SECOND) * 1000)
  if (durationMs <= 0) throw new RenderError('invalid-input', 'This file holds no sound.')
  if (durationMs > options.maxMs) {
    throw new RenderError(
      'invalid-input',
      `This audio is longer than ${Math.round(options.maxMs / 60_000)} minutes.`,
    )
  }
  return { durationMs, byteSize: size }
}
