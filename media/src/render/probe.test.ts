import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractPosterFrame, probeMedia } from './probe.ts'
import { binaries } from './testing/media-fixtures.ts'

const run = promisify(execFile)

// A provider's answer is read by ffmpeg before it becomes an asset (issue 22 item 2): its
// streams, its length, and how much of it really decodes.

for (const { name, path: ffmpegPath, missing } of binaries) {
  describe.skipIf(!ffmpegPath)(
    `probeMedia with ${name}${ffmpegPath ? '' : ` (skipped: ${missing})`}`,
    () => {
      let dir: string
      let clip: string
      let silent: string
      beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'reelgraph-probe-'))
        clip = join(dir, 'clip.mp4')
        silent = join(dir, 'silent.mp4')
        const source = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2']
        await run(ffmpegPath!, [
          '-v',
          'error',
          ...source,
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:duration=2',
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-shortest',
          clip,
        ])
        await run(ffmpegPath!, [
          '-v',
          'error',
          ...source,
          '-c:v',
          'libx264',
          '-pix_fmt',
          'yuv420p',
          silent,
        ])
      })
      afterAll(() => rm(dir, { recursive: true, force: true }))

      it('reads a clip: its video, its sound, its length, all of it there', async () => {
        const probe = await probeMedia(clip, { ffmpegPath: ffmpegPath! })
        expect(probe.video).toEqual({ codec: 'h264', width: 320, height: 240 })
        expect(probe.audio).toEqual({ codec: 'aac' })
        expect(Math.abs(probe.durationMs - 2000)).toBeLessThanOrEqual(100)
        // Packets read, not decoded: the last ones' times, a few frames short of the end.
        expect(Math.abs(probe.decodedMs - 2000)).toBeLessThanOrEqual(200)
        expect((await probeMedia(silent, { ffmpegPath: ffmpegPath! })).audio).toBeNull()
      })

      it('refuses what is not media, and measures a truncated clip by what is there', async () => {
        const html = join(dir, 'page.mp4')
        await writeFile(html, '<!doctype html><title>Not found</title>')
        await expect(probeMedia(html, { ffmpegPath: ffmpegPath! })).rejects.toMatchObject({
          code: 'invalid-input',
        })
        // The index first (faststart), half the data gone: the header still says 2 s.
        const faststart = join(dir, 'faststart.mp4')
        await run(ffmpegPath!, [
          '-v',
          'error',
          '-i',
          silent,
          '-c',
          'copy',
          '-movflags',
          '+faststart',
          faststart,
        ])
        const bytes = await readFile(faststart)
        const truncated = join(dir, 'truncated.mp4')
        await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 3)))
        const probe = await probeMedia(truncated, { ffmpegPath: ffmpegPath! }).catch((e) => e)
        if (probe instanceof Error) {
          expect(probe).toMatchObject({ code: 'invalid-input' })
        } else {
          expect(probe.durationMs).toBeGreaterThan(1900)
          expect(probe.decodedMs).toBeLessThan(probe.durationMs - 500)
        }
      })

      it('extracts a poster frame as a JPEG of the clip’s size', async () => {
        const poster = join(dir, 'poster.jpg')
        await extractPosterFrame(clip, poster, 1000, { ffmpegPath: ffmpegPath! })
        const meta = await sharp(poster).metadata()
        expect(meta).toMatchObject({ format: 'jpeg', width: 320, height: 240 })
      })
    },
  )
}
