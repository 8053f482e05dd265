import { execFile } from 'node:child_process'
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemFfmpeg, systemFfprobe } from '../render/testing/media-fixtures.ts'
import { parseFlacStreamInfo } from './flac.ts'
import { transcodeMusicToFlac } from './music-upload.ts'
import { decodeMusicToWav, MUSIC_WAV_HEADER_BYTES, musicWavByteSize } from './music-wav.ts'

const run = promisify(execFile)

// Issue 40 item 5: the export hands editors the FLAC music asset as a PCM WAV (Final Cut Pro
// imports no FLAC), decoded through the external-input helper's pinning. Checked by ffprobe.

describe.skipIf(!systemFfmpeg || !systemFfprobe)('decodeMusicToWav (issue 40 item 5)', () => {
  let dir: string
  const at = (name: string) => join(dir, name)

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-music-wav-'))
    // An upload (a mono 22.05 kHz MP3 of a tone) made a FLAC the way the upload route does.
    await run(systemFfmpeg!, [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=22050:duration=3'],
      ...['-c:a', 'libmp3lame', at('upload.mp3')],
    ])
    await transcodeMusicToFlac(at('upload.mp3'), at('music'), { maxMs: 60_000 })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('makes a 48 kHz stereo 16-bit PCM WAV of every sample of the FLAC', async () => {
    const made = await decodeMusicToWav(at('music'), at('music.wav'))
    const { stdout } = await run(systemFfprobe!, [
      ...['-v', 'error', '-of', 'json', '-show_entries'],
      'stream=codec_name,sample_rate,channels,bits_per_sample:format=format_name,duration',
      at('music.wav'),
    ])
    const probed = JSON.parse(stdout) as {
      streams: { codec_name: string; sample_rate: string; channels: number }[]
      format: { format_name: string; duration: string }
    }
    expect(probed.format.format_name).toBe('wav')
    expect(probed.streams).toEqual([
      expect.objectContaining({
        codec_name: 'pcm_s16le',
        sample_rate: '48000',
        channels: 2,
        bits_per_sample: 16,
      }),
    ])
    const flac = parseFlacStreamInfo(await readFile(at('music')))!
    expect(flac.sampleRate).toBe(48_000)
    const flacMs = (flac.totalSamples / flac.sampleRate) * 1000
    expect(Math.abs(Number(probed.format.duration) * 1000 - flacMs)).toBeLessThan(1)
    expect(Math.abs(made.durationMs - flacMs)).toBeLessThan(0.1)
    // A plain header and the samples: the size the export counts before decoding.
    const { size } = await stat(at('music.wav'))
    expect(made.byteSize).toBe(size)
    expect(size).toBe(MUSIC_WAV_HEADER_BYTES + flac.totalSamples * 4)
    expect(musicWavByteSize(flacMs)).toBe(size)
  })

  it('refuses a music file that is a playlist, before ffmpeg reads it', async () => {
    await writeFile(
      at('playlist'),
      `#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\nfile://${at('music')}\n#EXT-X-ENDLIST\n`,
    )
    await expect(decodeMusicToWav(at('playlist'), at('played.wav'))).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/^The music is an HLS or M3U playlist/),
    })
    await expect(access(at('played.wav'))).rejects.toThrow()
  })

  it('refuses audio that is neither FLAC nor WAV (the stored-music demuxers only)', async () => {
    await expect(decodeMusicToWav(at('upload.mp3'), at('mp3.wav'))).rejects.toMatchObject({
      code: 'invalid-input',
      message: 'The music is not audio ffmpeg can read.',
    })
  })
})
