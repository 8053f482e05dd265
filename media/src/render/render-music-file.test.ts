// Issue 40 items 4 and 5: the renderer plays a music asset that is a FLAC (uploads now) or a
// PCM WAV (uploads before), and refuses one whose bytes are a playlist. Debian's ffmpeg;
// checked with ffmpeg's own band levels.
import { execFile } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transcodeMusicToFlac } from '../audio/music-upload.ts'
import { type RenderProgress, type RenderVideoOptions, renderVideo } from './render-video.ts'
import { bandLevelDb, systemFfmpeg, systemFfprobe } from './testing/media-fixtures.ts'

const run = promisify(execFile)
const LONG = 120_000
const PRESET = { name: '16:9' as const, width: 320, height: 180, fps: 30 }

describe.skipIf(!systemFfmpeg || !systemFfprobe)('renderVideo’s music from a file', () => {
  let root: string
  const at = (name: string) => join(root, name)
  const render = async (path: string | null, more: Partial<RenderVideoOptions> = {}) =>
    renderVideo({
      scenes: [
        {
          imageBytes: await sharp({
            create: { width: 320, height: 180, channels: 3, background: { r: 90, g: 90, b: 90 } },
          })
            .png()
            .toBuffer(),
        },
      ],
      preset: PRESET,
      cacheDir: at('cache'),
      workDir: at('work'),
      subtitles: false,
      music:
        path === null ? null : { path, mix: { volume: 1, fadeInMs: 0, fadeOutMs: 0, duckDb: 0 } },
      ...more,
    })

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'reelgraph-music-file-'))
    await mkdir(at('cache'))
    await mkdir(at('work'))
    // An upload (an MP3 of a 440 Hz tone) made a FLAC the way the upload route makes it, and
    // a 48 kHz PCM WAV of the same tone, as uploads were stored before.
    const tone = ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3']
    await run(systemFfmpeg!, [...tone, '-c:a', 'libmp3lame', at('upload.mp3')])
    await transcodeMusicToFlac(at('upload.mp3'), at('music.flac'), { maxMs: 60_000 })
    await run(systemFfmpeg!, [
      ...tone,
      '-ar',
      '48000',
      '-ac',
      '2',
      '-c:a',
      'pcm_s16le',
      at('old.wav'),
    ])
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it.each(['music.flac', 'old.wav'])(
    'plays %s under the film',
    async (name) => {
      const result = await render(at(name))
      expect(await bandLevelDb(result.mp4Path, 440, 0.5, 1)).toBeGreaterThan(-40)
      expect(await bandLevelDb(result.mp4Path, 1_000, 0.5, 1)).toBeLessThan(-60)
    },
    LONG,
  )

  it('refuses a music file that is a playlist naming a local file', async () => {
    await writeFile(
      at('playlist'),
      `#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3,\nfile://${at('old.wav')}\n#EXT-X-ENDLIST\n`,
    )
    await expect(render(at('playlist'))).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/The music is an HLS or M3U playlist/),
    })
  })

  it(
    'refuses a playlist for music before any segment is rendered (issue 40 item 4)',
    async () => {
      // Its own cache, with the still already fitted by a first render: the segments of a
      // second seed (another Ken Burns move) then start at once, so a refusal made only in
      // the audio step would come after a segment's ffmpeg ran. ffmpeg runs through a spy
      // that logs each run's arguments.
      const cacheDir = at('cache-refused')
      const workDir = at('work-refused')
      await mkdir(cacheDir)
      await mkdir(workDir)
      await render(null, { cacheDir, workDir, seed: 'first' })
      const segmentsBefore = await readdir(join(cacheDir, 'segments'))
      const workBefore = await readdir(workDir)
      const log = at('refused-runs.log')
      const spy = at('ffmpeg-spy')
      await writeFile(spy, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${systemFfmpeg}' "$@"\n`)
      await chmod(spy, 0o755)
      await writeFile(at('list'), `ffconcat version 1.0\nfile '${at('old.wav')}'\n`)
      const progress: RenderProgress[] = []

      await expect(
        render(at('list'), {
          cacheDir,
          workDir,
          seed: 'second',
          ffmpegPath: spy,
          onProgress: (p) => progress.push(p),
        }),
      ).rejects.toMatchObject({
        code: 'invalid-input',
        message: expect.stringMatching(/^The music is an ffconcat list/),
      })
      const runs = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean)
      // Only the capability checks ran (`-version`, `-filters`): no segment, still or mix.
      expect(runs.filter((args) => args.includes(cacheDir) || args.includes(workDir))).toEqual([])
      expect(progress).toEqual([])
      expect(await readdir(join(cacheDir, 'segments'))).toEqual(segmentsBefore)
      expect(await readdir(workDir)).toEqual(workBefore)
    },
    LONG,
  )
})
