import { execFile } from 'node:child_process'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RenderError } from '../render/errors.ts'
import { transcodeMusicToFlac } from './music-upload.ts'

const run = promisify(execFile)

/** ffprobe's reading of the first audio stream and the container. */
async function probe(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,sample_rate,channels,bits_per_raw_sample:format=format_name,duration',
    '-of',
    'json',
    path,
  ])
  const parsed = JSON.parse(stdout) as {
    streams: {
      codec_name: string
      sample_rate: string
      channels: number
      bits_per_raw_sample?: string
    }[]
    format: { format_name: string; duration: string }
  }
  return {
    ...parsed.streams[0]!,
    format: parsed.format.format_name,
    seconds: Number(parsed.format.duration),
  }
}

describe('transcodeMusicToFlac (issue 24 item 1, issue 40 item 5)', () => {
  let dir: string
  const at = (name: string) => join(dir, name)
  const tone = (seconds: number, out: string, codec: string[]) =>
    run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=330:duration=${seconds}`,
      ...codec,
      at(out),
    ])

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'music-upload-'))
    await tone(3, 'song.mp3', ['-c:a', 'libmp3lame'])
    await tone(2, 'song.m4a', ['-c:a', 'aac'])
    await tone(2, 'song.ogg', ['-c:a', 'libvorbis'])
    await tone(2, 'song.wav', ['-c:a', 'pcm_s16le'])
    // Three minutes of silence as FLAC: a few dozen KB that a PCM WAV makes 35 MB of.
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=44100:cl=stereo:d=180',
      '-c:a',
      'flac',
      at('silence.flac'),
    ])
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=red:s=64x64:d=1',
      '-frames:v',
      '1',
      at('picture.png'),
    ])
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=64x64:d=1',
      '-c:v',
      'libx264',
      at('silent.mp4'),
    ])
    await writeFile(at('notes.txt'), 'not audio at all\n')
    // A playlist naming another local file: ffmpeg's HLS demuxer would read it if allowed.
    await writeFile(
      at('list.m3u8'),
      `#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\n${at('song.mp3')}\n#EXT-X-ENDLIST\n`,
    )
    await writeFile(at('list.ffconcat'), `ffconcat version 1.0\nfile '${at('song.mp3')}'\n`)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it.each(['song.mp3', 'song.m4a', 'song.ogg', 'song.wav'])(
    'makes %s a 48 kHz stereo 16-bit FLAC of its length',
    async (name) => {
      const out = at(`${name}.flac`)
      const result = await transcodeMusicToFlac(at(name), out, { maxMs: 60_000 })
      const flac = await probe(out)
      expect(flac).toMatchObject({
        codec_name: 'flac',
        sample_rate: '48000',
        channels: 2,
        bits_per_raw_sample: '16',
        format: 'flac',
      })
      expect(result.byteSize).toBe((await stat(out)).size)
      const source = await probe(at(name))
      expect(Math.abs(result.durationMs - flac.seconds * 1000)).toBeLessThanOrEqual(2)
      expect(Math.abs(result.durationMs - source.seconds * 1000)).toBeLessThan(60)
    },
  )

  it('keeps minutes of silence about as small as they came (within 2x), not 1,000x larger', async () => {
    const out = at('silence.out.flac')
    const result = await transcodeMusicToFlac(at('silence.flac'), out, { maxMs: 600_000 })
    const flac = await probe(out)
    expect(flac).toMatchObject({ codec_name: 'flac', sample_rate: '48000', channels: 2 })
    expect(Math.abs(flac.seconds - 180)).toBeLessThan(0.05)
    expect(Math.abs(result.durationMs - 180_000)).toBeLessThanOrEqual(2)
    const sent = (await stat(at('silence.flac'))).size
    expect(result.byteSize).toBeLessThanOrEqual(2 * sent)
  })

  it.each(['picture.png', 'notes.txt', 'silent.mp4', 'list.m3u8', 'list.ffconcat'])(
    'refuses %s as not audio',
    async (name) => {
      const error = await transcodeMusicToFlac(at(name), at(`${name}.flac`), {
        maxMs: 60_000,
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RenderError)
      expect((error as RenderError).code).toBe('invalid-input')
      expect((error as Error).message).toMatch(/not audio/)
    },
  )

  it('refuses audio longer than the limit', async () => {
    const error = await transcodeMusicToFlac(at('song.mp3'), at('long.flac'), {
      maxMs: 1_000,
    }).catch((e: unknown) => e)
    expect((error as RenderError).code).toBe('invalid-input')
    expect((error as Error).message).toMatch(/longer than/)
  })
})
