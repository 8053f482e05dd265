import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RenderError } from './errors.ts'
import {
  createProgressParser,
  detectCapabilities,
  findFfmpeg,
  progressFraction,
  runFfmpeg,
  staticFfmpegPath,
  type ProgressBlock,
} from './ffmpeg.ts'
import { binaries, systemFfmpeg } from './testing/media-fixtures.ts'

describe('createProgressParser', () => {
  it('gives one block per progress line, across split chunks', () => {
    const blocks: ProgressBlock[] = []
    const push = createProgressParser((block) => blocks.push(block))
    push('frame=10\nfps=30.0\nout_time_us=33')
    push('3333\nprogress=continue\nframe=')
    push('20\nout_time_ms=666666\nprogress=end\n')
    expect(blocks).toEqual([
      { frame: '10', fps: '30.0', out_time_us: '333333', progress: 'continue' },
      { frame: '20', out_time_ms: '666666', progress: 'end' },
    ])
  })

  it('measures progress by frames, else by time (ffmpeg 4.1 names it out_time_ms)', () => {
    expect(progressFraction({ frame: '15', progress: 'continue' }, { frames: 60 })).toBe(0.25)
    expect(progressFraction({ out_time_us: '500000' }, { durationMs: 2_000 })).toBe(0.25)
    expect(progressFraction({ out_time_ms: '1000000' }, { durationMs: 2_000 })).toBe(0.5)
    expect(progressFraction({ out_time_us: 'N/A' }, { durationMs: 2_000 })).toBe(0)
    expect(progressFraction({ frame: '99' }, { frames: 60 })).toBe(1)
    expect(progressFraction({ progress: 'end' }, {})).toBe(1)
  })
})

describe('findFfmpeg', () => {
  let dir: string
  let fake: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'find-ffmpeg-'))
    fake = join(dir, 'ffmpeg')
    await writeFile(fake, '#!/bin/sh\nexit 0\n')
    await chmod(fake, 0o755)
    await writeFile(join(dir, 'not-executable'), '')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('takes the option, then FFMPEG_PATH, then PATH, then the static build', () => {
    const env = { FFMPEG_PATH: fake, PATH: '/nowhere' }
    expect(findFfmpeg({ ffmpegPath: fake, env })).toEqual({ path: fake, source: 'option' })
    expect(findFfmpeg({ env })).toEqual({ path: fake, source: 'FFMPEG_PATH' })
    expect(findFfmpeg({ env: { PATH: `/nowhere:${dir}` } })).toEqual({ path: fake, source: 'PATH' })
    const bundled = staticFfmpegPath()
    if (bundled) {
      expect(findFfmpeg({ env: { PATH: '/nowhere' } })).toEqual({
        path: bundled,
        source: 'static',
      })
    } else {
      expect(() => findFfmpeg({ env: { PATH: '/nowhere' } })).toThrow(RenderError)
    }
  })

  it('refuses a given path that is not executable', () => {
    const env = { FFMPEG_PATH: join(dir, 'not-executable'), PATH: dir }
    expect(() => findFfmpeg({ env })).toThrow(/FFMPEG_PATH names/)
  })
})

describe.each(binaries)('$name', ({ path, missing }) => {
  it.skipIf(!path)(
    `detects its capabilities once${path ? '' : ` (skipped: ${missing})`}`,
    async () => {
      const capabilities = await detectCapabilities(path!)
      expect(capabilities.version).toMatch(/^ffmpeg version /)
      // xfade arrived in ffmpeg 4.3: Debian's 5.1 has it, the static 4.1 build does not.
      expect(capabilities.xfade).toBe(path === systemFfmpeg)
      expect(detectCapabilities(path!)).toBe(detectCapabilities(path!))
    },
  )
})

describe.skipIf(!systemFfmpeg)('runFfmpeg', () => {
  it('reports progress and the peak RSS', async () => {
    const fractions: number[] = []
    const result = await runFfmpeg(
      systemFfmpeg!,
      ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30', '-frames:v', '60', '-f', 'null', '-'],
      { frames: 60, onProgress: (f) => fractions.push(f) },
    )
    expect(fractions.at(-1)).toBe(1)
    expect(result.peakRssBytes).toBeGreaterThan(1_000_000)
  })

  it('fails with the tail of stderr', async () => {
    await expect(
      runFfmpeg(systemFfmpeg!, ['-i', '/no/such/file.wav', '-f', 'null', '-']),
    ).rejects.toMatchObject({
      code: 'ffmpeg-failed',
      message: expect.stringContaining('/no/such/file'),
    })
  })

  it('kills ffmpeg and rejects with the abort reason', async () => {
    const controller = new AbortController()
    const run = runFfmpeg(
      systemFfmpeg!,
      ['-f', 'lavfi', '-re', '-i', 'testsrc=rate=30', '-t', '60', '-f', 'null', '-'],
      { signal: controller.signal, durationMs: 60_000, onProgress: () => controller.abort() },
    )
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('reports a binary that cannot start', async () => {
    await expect(runFfmpeg('/no/such/ffmpeg', ['-version'])).rejects.toMatchObject({
      code: 'ffmpeg-not-found',
    })
  })
})
