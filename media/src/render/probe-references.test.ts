import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { extractPosterFrame, probeMedia, transcodeToMp4 } from './probe.ts'
import { systemFfmpeg } from './testing/media-fixtures.ts'

const run = promisify(execFile)

// Issue 40 item 4: a provider's "clip" that is a playlist or a list naming a local file is
// refused before ffmpeg reads anything; real clips (MP4, WebM) still probe and transcode.
// ffmpeg runs through a spy that logs every run, so "before ffmpeg reads it" is seen, not
// assumed.

describe.skipIf(!systemFfmpeg)('ffmpeg on a provider’s clip follows no references', () => {
  let dir: string
  let spy: string
  let log: string
  const at = (name: string) => join(dir, name)
  /** The spy's runs since the last reset, one line of arguments each. */
  const runs = async () =>
    (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '')

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-references-'))
    log = at('ffmpeg-runs.log')
    spy = at('ffmpeg-spy')
    await writeFile(spy, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${systemFfmpeg}' "$@"\n`)
    await chmod(spy, 0o755)
    const pattern = ['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=25:duration=2']
    const x264 = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p']
    // The "local file" an attacker wants back: a real video, as MPEG-TS (what HLS names).
    await run(systemFfmpeg!, ['-v', 'error', ...pattern, ...x264, '-f', 'mpegts', at('x.ts')])
    await run(systemFfmpeg!, ['-v', 'error', ...pattern, ...x264, at('clip.mp4')])
    await run(systemFfmpeg!, [
      ...['-v', 'error', ...pattern, '-c:v', 'libvpx-vp9', '-b:v', '100k'],
      ...['-deadline', 'realtime', at('clip.webm')],
    ])
    const hls = (segment: string) =>
      `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${segment}\n#EXT-X-ENDLIST\n`
    await writeFile(at('file-url.mp4'), hls(`file://${at('x.ts')}`))
    await writeFile(at('relative.mp4'), hls('x.ts'))
    await writeFile(at('list.mp4'), "ffconcat version 1.0\nfile 'x.ts'\n")
    await writeFile(
      at('session.mp4'),
      'v=0\no=- 0 0 IN IP4 127.0.0.1\ns=clip\nc=IN IP4 127.0.0.1\nt=0 0\n' +
        'm=video 5004 RTP/AVP 96\na=rtpmap:96 H264/90000\n',
    )
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  beforeEach(() => rm(log, { force: true }))

  it('the playlists and lists are ones ffmpeg follows when nothing pins it', async () => {
    // Without pinning, ffmpeg reads the local video through each playlist and list (the
    // reason for the refusals below).
    for (const name of ['file-url.mp4', 'relative.mp4', 'list.mp4']) {
      const { stderr } = await run(systemFfmpeg!, [
        '-hide_banner',
        '-i',
        at(name),
        '-f',
        'null',
        '-',
      ])
      expect(stderr, name).toMatch(/Video: h264/)
    }
  })

  const refusals: [string, string, RegExp][] = [
    ['an HLS playlist naming a file:// URL', 'file-url.mp4', /HLS or M3U playlist, not a video/],
    ['an HLS playlist naming a relative path', 'relative.mp4', /HLS or M3U playlist, not a video/],
    ['an ffconcat list', 'list.mp4', /ffconcat list, not a video/],
    ['an SDP session description', 'session.mp4', /SDP session description, not a video/],
  ]

  it.each(refusals)(
    'refuses %s in probeMedia, transcodeToMp4 and extractPosterFrame before ffmpeg runs',
    async (_, name, words) => {
      const options = { ffmpegPath: spy }
      for (const attempt of [
        () => probeMedia(at(name), options),
        () => transcodeToMp4(at(name), at(`${name}.out.mp4`), options),
        () => extractPosterFrame(at(name), at(`${name}.jpg`), 0, options),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'invalid-input', message: words })
      }
      expect(await runs()).toEqual([])
    },
  )

  it('reads a raw MPEG-TS as no clip (only MP4/MOV and WebM/Matroska demuxers)', async () => {
    await expect(probeMedia(at('x.ts'), { ffmpegPath: spy })).rejects.toMatchObject({
      code: 'invalid-input',
    })
    // ffmpeg ran once, pinned to files and the clip demuxers.
    const [line, ...more] = await runs()
    expect(more).toEqual([])
    expect(line).toContain(
      '-protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2,matroska,webm -i',
    )
  })

  it('refuses a video where a picture is expected, and reads a picture there', async () => {
    await expect(
      probeMedia(at('clip.mp4'), { ffmpegPath: spy, kind: 'image' }),
    ).rejects.toMatchObject({ code: 'invalid-input' })
    const png = at('frame.png')
    await extractPosterFrame(at('clip.mp4'), png, 0, { ffmpegPath: spy })
    const picture = await probeMedia(png, { ffmpegPath: spy, kind: 'image' })
    expect(picture.video).toMatchObject({ codec: 'png', width: 160, height: 90 })
  })

  it.each([
    ['clip.mp4', 'h264', /mp4/],
    ['clip.webm', 'vp9', /webm/],
  ])('still probes and transcodes %s', async (name, codec, format) => {
    const probe = await probeMedia(at(name), { ffmpegPath: spy })
    expect(probe.format).toMatch(format)
    expect(probe.video).toEqual({ codec, width: 160, height: 90 })
    expect(Math.abs(probe.decodedMs - 2000)).toBeLessThanOrEqual(200)
    const out = at(`${name}.h264.mp4`)
    await transcodeToMp4(at(name), out, { ffmpegPath: spy })
    const { stdout } = await run('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v:0', '-count_frames'],
      ...['-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'csv=p=0'],
      out,
    ])
    expect(stdout.trim()).toBe('h264,160,90,50')
  })
})
