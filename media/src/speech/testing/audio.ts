import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pcm } from '../pcm.ts'

/** A tone between silences: `silenceMs` of zeros, `toneMs` of a 220 Hz sine, `silenceMs` more. */
export function toneBetweenSilences(sampleRate: number, silenceMs: number, toneMs: number): Pcm {
  const silence = Math.round((sampleRate * silenceMs) / 1000)
  const tone = Math.round((sampleRate * toneMs) / 1000)
  const samples = new Int16Array(silence * 2 + tone)
  for (let i = 0; i < tone; i++) {
    samples[silence + i] = Math.round(Math.sin((2 * Math.PI * 220 * i) / sampleRate) * 12_000)
  }
  return { samples, sampleRate }
}

/** Whether an `ffmpeg` binary is on the PATH (the tests that ask it are skipped otherwise). */
export const hasFfmpeg = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0

/**
 * What ffmpeg reads in a WAV file: its stream description, duration (ms) and mean and peak
 * volume (dBFS, from the `volumedetect` filter).
 */
export function ffmpegMeasure(wav: Uint8Array): {
  stream: string
  durationMs: number
  meanDb: number
  maxDb: number
} {
  const dir = mkdtempSync(join(tmpdir(), 'reelgraph-speech-'))
  try {
    const file = join(dir, 'narration.wav')
    writeFileSync(file, wav)
    const run = spawnSync(
      'ffmpeg',
      ['-hide_banner', '-nostats', '-i', file, '-af', 'volumedetect', '-f', 'null', '-'],
      { encoding: 'utf8' },
    )
    const log = run.stderr
    const stream = /Stream #0:0: (Audio: [^\n]+)/.exec(log)?.[1] ?? ''
    const [, h, m, s] = /Duration: (\d+):(\d+):([\d.]+)/.exec(log) ?? []
    return {
      stream,
      durationMs: ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000,
      meanDb: Number(/mean_volume: (-?[\d.]+) dB/.exec(log)?.[1]),
      maxDb: Number(/max_volume: (-?[\d.]+) dB/.exec(log)?.[1]),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
