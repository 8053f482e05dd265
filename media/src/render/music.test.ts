import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MUSIC_TRACKS } from '@reelgraph/shared'
import { builtinMusicPath, synthesizeMusic } from './music.ts'
import { parsePcmWav } from './wav.ts'

describe('builtin music', () => {
  const dirs: string[] = []
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

  it.each(MUSIC_TRACKS)('%s is a 32 s stereo 48 kHz loop that wraps without a click', (track) => {
    const wav = parsePcmWav(synthesizeMusic(track))
    expect(wav.format).toEqual({ encoding: 1, sampleRate: 48_000, channels: 2, bitsPerSample: 16 })
    expect(wav.durationMs).toBe(32_000)
    const samples = new Int16Array(wav.samples.slice().buffer)
    const frames = samples.length / 2
    let peak = 0
    let largestStep = 0
    for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]!))
    for (let i = 1; i < frames; i++) {
      largestStep = Math.max(largestStep, Math.abs(samples[2 * i]! - samples[2 * (i - 1)]!))
    }
    // The step from the last sample back to the first is no larger than any step inside.
    const wrapStep = Math.abs(samples[0]! - samples[2 * (frames - 1)]!)
    expect(wrapStep).toBeLessThanOrEqual(largestStep)
    expect(peak).toBeGreaterThan(0.4 * 32_767)
    expect(peak).toBeLessThanOrEqual(0.51 * 32_767)
  })

  it('is synthesized once and then read from the cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'music-'))
    dirs.push(dir)
    const path = await builtinMusicPath('calm-pad', dir)
    const first = await stat(path)
    expect(await builtinMusicPath('calm-pad', dir)).toBe(path)
    expect((await stat(path)).mtimeMs).toBe(first.mtimeMs)
    expect(await readdir(join(dir, 'music'))).toEqual(['calm-pad-v1.wav'])
  })
})
