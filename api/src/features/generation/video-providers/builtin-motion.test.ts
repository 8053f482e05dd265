import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rejection } from '../providers/testing/rejection.ts'
import { builtinModels, createBuiltinMotionProvider, motionDraftSize } from './builtin-motion.ts'
import { clipRequest, modelOf, progressLog, startImage } from './testing/clip-request.ts'

const run = promisify(execFile)
const DRAFT = modelOf(builtinModels(2), 'builtin:motion-draft')

let dir: string
let workDir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'builtin-motion-'))
  workDir = join(dir, 'work')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** ffprobe's view of the one video stream. */
async function probe(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height,nb_frames:format=duration',
    '-of',
    'json',
    path,
  ])
  const json = JSON.parse(stdout) as {
    streams: { codec_name: string; width: number; height: number; nb_frames: string }[]
    format: { duration: string }
  }
  return {
    ...json.streams[0]!,
    streams: json.streams.length,
    duration: Number(json.format.duration),
  }
}

/** The mean colour of one frame, by ffmpeg scaling it to one pixel. */
async function meanColour(path: string, frame: number): Promise<number[]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      path,
      '-vf',
      `select=eq(n\\,${frame}),scale=1:1`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer' },
  )
  return [...stdout]
}

describe('the builtin offline motion draft as a video provider', () => {
  it('is honestly named and needs no key', () => {
    expect(DRAFT.model).toMatchObject({
      id: 'builtin:motion-draft',
      offline: true,
      name: expect.stringMatching(/^Offline motion draft/),
    })
  })

  it('draws a storyboard frame from the prompt when there is no start image, at the asked size and length', async () => {
    const provider = createBuiltinMotionProvider({ workDir })
    const { reports, onProgress } = progressLog()
    const generated = await provider.generateClip(
      clipRequest(DRAFT, { durationSeconds: 2, aspectRatio: '9:16', resolution: '720p' }),
      { signal: new AbortController().signal, onProgress },
    )
    const path = join(dir, 'text.mp4')
    await generated.saveTo(path, new AbortController().signal)
    expect(await probe(path)).toMatchObject({
      streams: 1,
      codec_name: 'h264',
      width: 720,
      height: 1280,
      nb_frames: '60',
    })
    expect(reports[0]).toEqual({ state: 'running', percent: 0 })
    expect(reports.at(-1)).toEqual({ state: 'running', percent: 100 })
    // The draft was moved, not copied: nothing stays behind.
    expect(await readdir(workDir)).toEqual([])
  }, 60_000)

  it('moves over the start image when there is one', async () => {
    const provider = createBuiltinMotionProvider({ workDir })
    const generated = await provider.generateClip(
      clipRequest(DRAFT, {
        durationSeconds: 1,
        aspectRatio: '1:1',
        startImage: await startImage(),
      }),
      { signal: new AbortController().signal, onProgress: () => {} },
    )
    const path = join(dir, 'image.mp4')
    await generated.saveTo(path, new AbortController().signal)
    expect(await probe(path)).toMatchObject({ width: 720, height: 720, nb_frames: '30' })
    // The test image is one solid colour (40, 90, 160): so is the clip.
    const [r, g, b] = await meanColour(path, 15)
    expect(Math.abs(r! - 40) + Math.abs(g! - 90) + Math.abs(b! - 160)).toBeLessThan(15)
  }, 60_000)

  it('stops and leaves no draft behind when the signal aborts', async () => {
    const provider = createBuiltinMotionProvider({ workDir })
    const controller = new AbortController()
    const error = await rejection(
      provider.generateClip(clipRequest(DRAFT, { durationSeconds: 20, resolution: '1080p' }), {
        signal: controller.signal,
        onProgress: (report) => {
          if ((report.percent ?? 0) > 0) controller.abort()
        },
      }),
    )
    expect(error.kind).toBe('unavailable')
    expect(await readdir(workDir)).toEqual([])
  }, 60_000)

  it('sizes frames by resolution and aspect ratio', () => {
    expect(motionDraftSize('720p', '16:9')).toEqual({ width: 1280, height: 720 })
    expect(motionDraftSize('1080p', '9:16')).toEqual({ width: 1080, height: 1920 })
    expect(motionDraftSize('1080p', '1:1')).toEqual({ width: 1080, height: 1080 })
  })
})
