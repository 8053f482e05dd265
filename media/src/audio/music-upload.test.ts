import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RenderError } from '../render/errors.ts'
import { transcodeMusicToWav } from './music-upload.ts'

const run = promisify(execFile)

/** ffprobe's reading of the first audio stream and the container. */
async function probe(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,sample_rate,channels:format=format_name,duration',
    '-of',
    'json',
    path,
  ])
  const parsed = JSON.parse(stdout) as {
    streams: { codec_name: string; sample_rate: string; channels: number }[]
    format: { format_name: string; duration: string }
  }
  return {
    ...parsed.streams[0]!,
    format: parsed.format.format_name,
    seconds: Number(parsed.format.duration),
  }
}

describe('transcodeMusicToWav (issue 24 item 1)', () => {
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
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it.each(['song.mp3', 'song.m4a', 'song.ogg'])(
    'makes %s a 48 kHz stereo PCM WAV of its length',
    async (name) => {
      const result = await transcodeMusicToWav(at(name), at(`${name}.wav`), { maxMs: 60_000 })
      const wav = await probe(at(`${name}.wav`))
      expect(wav).toMatchObject({
        codec_name: 'pcm_s16le',
        sample_rate: '48000',
        channels: 2,
        format: 'wav',
      })
      const source = await probe(at(name))
      expect(Math.abs(result.durationMs - wav.seconds * 1000)).toBeLessThanOrEqual(2)
      expect(Math.abs(result.durationMs - source.seconds * 1000)).toBeLessThan(60)
    },
  )

  it.each(['picture.png', 'notes.txt', 'silent.mp4', 'list.m3u8'])(
    'refuses %s as not audio',
    async (name) => {
      const error = await transcodeMusicToWav(at(name), at(`${name}.wav`), { maxMs: 60_000 }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(RenderError)
      expect((error as RenderError).code).toBe('invalid-input')
    },
  )

  it('refuses audio longer than the limit', async () => {
    const error = await transcodeMusicToWav(at('song.mp3'), at('long.wav'), { maxMs: 1_000 }).catch(
      (e: unknown) => e,
    )
    expect((error as RenderError).code).toBe('invalid-input')
    expect((error as Error).message).toMatch(/longer than/)
  })
})
