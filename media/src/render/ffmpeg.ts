import { spawn } from 'node:child_process'
import { accessSync, constants, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { RSS_POLL_MS, STDERR_TAIL_BYTES } from './config.ts'
import { RenderError } from './errors.ts'

/** What the chosen ffmpeg binary can do, as far as the filter graph cares. */
export interface FfmpegCapabilities {
  /** First line of `ffmpeg -version`: part of every cache key (x264 builds differ). */
  version: string
  /** Whether the `xfade` filter exists (ffmpeg >= 4.3; the static 4.1 build lacks it). */
  xfade: boolean
  /** Whether it has the filters scenes with clips need (`tpad`: ffmpeg >= 4.2). */
  clips: boolean
  /**
   * Whether it draws ASS subtitles (the `subtitles` filter, libass): caption styles and card
   * text need it (issue 24 item 2). Absent: not known, taken as no.
   */
  subtitles?: boolean
}

/** Where the ffmpeg binary was found. */
export type FfmpegSource = 'option' | 'FFMPEG_PATH' | 'PATH' | 'static'

/** An ffmpeg binary to run. */
export interface FfmpegBinary {
  path: string
  source: FfmpegSource
}

const STATIC_PACKAGE = '@ffmpeg-installer/linux-x64'

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The ffmpeg of the optional dependency `@ffmpeg-installer/linux-x64` (a static ffmpeg 4.1
 * from 2018), or `null` when it is not installed (another platform, or `--omit=optional`).
 * @see issue 13 item 3
 */
export function staticFfmpegPath(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return null
  try {
    const manifest = createRequire(import.meta.url).resolve(`${STATIC_PACKAGE}/package.json`)
    const path = join(dirname(manifest), 'ffmpeg')
    return isExecutable(path) ? path : null
  } catch {
    return null
  }
}

/** Options of {@link findFfmpeg}. */
export interface FindFfmpegOptions {
  /** Use this binary and no other. */
  ffmpegPath?: string
  /** Where `FFMPEG_PATH` and `PATH` are read; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
}

/**
 * Chooses the ffmpeg binary: `options.ffmpegPath`, else `FFMPEG_PATH`, else an `ffmpeg` on
 * `PATH` (Debian's 5.1 in CI and the Docker image), else the static build of the optional
 * dependency `@ffmpeg-installer/linux-x64`. A path that is given must be executable.
 * @throws RenderError `ffmpeg-not-found` when the given path is not executable or none is found.
 * @see issue 13 item 3
 */
export function findFfmpeg(options: FindFfmpegOptions = {}): FfmpegBinary {
  const env = options.env ?? process.env
  const given: [string | undefined, FfmpegSource][] = [
    [options.ffmpegPath, 'option'],
    [env.FFMPEG_PATH || undefined, 'FFMPEG_PATH'],
  ]
  for (const [path, source] of given) {
    if (path === undefined) continue
    if (!isExecutable(path)) {
      throw new RenderError('ffmpeg-not-found', `${source} names ${path}, not an executable`)
    }
    return { path, source }
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const path = join(dir, 'ffmpeg')
    if (isExecutable(path)) return { path, source: 'PATH' }
  }
  const bundled = staticFfmpegPath()
  if (bundled) return { path: bundled, source: 'static' }
  throw new RenderError(
    'ffmpeg-not-found',
    `No ffmpeg: set FFMPEG_PATH, install ffmpeg (apt-get install ffmpeg), or install ${STATIC_PACKAGE}`,
  )
}

/** Filters every segment, the audio mix and the final mux use. */
const REQUIRED_FILTERS = [
  'zoompan',
  'overlay',
  'fade',
  'format',
  'setsar',
  'aresample',
  'aformat',
  'adelay',
  'apad',
  'atrim',
  'anullsrc',
  'concat',
  'asplit',
  'amix',
  'volume',
  'pan',
  'sidechaincompress',
  'loudnorm',
] as const
const REQUIRED_ENCODERS = ['libx264', 'aac'] as const
/**
 * Filters scenes with clips use besides those (issue 22 item 4); `tpad` came with ffmpeg 4.2,
 * so the static 4.1 build renders no clip (nor would it be trusted with downloaded videos).
 */
const CLIP_FILTERS = [
  'setpts',
  'fps',
  'tpad',
  'trim',
  'scale',
  'crop',
  'split',
  'gblur',
  'lutyuv',
  'atempo',
  'afade',
] as const

/** Names in the second column of `ffmpeg -filters` / `-encoders` listings. */
function listedNames(listing: string): Set<string> {
  const names = new Set<string>()
  for (const line of listing.split('\n')) {
    const match = /^\s*[A-Z.|]{3,6}\s+(\S+)\s/.exec(line)
    if (match) names.add(match[1]!)
  }
  return names
}

const capabilityCache = new Map<string, Promise<FfmpegCapabilities>>()

/**
 * What a binary can do, asked once per path (`-version`, `-filters`, `-encoders`) and cached
 * for the life of the process.
 * @throws RenderError `ffmpeg-not-found` when it does not run, `ffmpeg-unsupported` when it
 *   lacks a filter or encoder the renderer needs.
 * @see issue 13 item 3
 */
export function detectCapabilities(ffmpegPath: string): Promise<FfmpegCapabilities> {
  let cached = capabilityCache.get(ffmpegPath)
  if (!cached) {
    cached = probeCapabilities(ffmpegPath)
    capabilityCache.set(ffmpegPath, cached)
    cached.catch(() => capabilityCache.delete(ffmpegPath))
  }
  return cached
}

async function probeCapabilities(ffmpegPath: string): Promise<FfmpegCapabilities> {
  const ask = async (flag: string) => {
    try {
      return (await runFfmpeg(ffmpegPath, [flag], { raw: true })).stdout
    } catch (error) {
      throw new RenderError('ffmpeg-not-found', `${ffmpegPath} ${flag} failed: ${String(error)}`, {
        cause: error,
      })
    }
  }
  const version = (await ask('-version')).split('\n')[0]!.trim()
  const filters = listedNames(await ask('-filters'))
  const encoders = listedNames(await ask('-encoders'))
  const missing = [
    ...REQUIRED_FILTERS.filter((name) => !filters.has(name)),
    ...REQUIRED_ENCODERS.filter((name) => !encoders.has(name)),
  ]
  if (missing.length > 0) {
    throw new RenderError(
      'ffmpeg-unsupported',
      `${ffmpegPath} (${version}) lacks ${missing.join(', ')}`,
    )
  }
  return {
    version,
    xfade: filters.has('xfade'),
    clips: CLIP_FILTERS.every((name) => filters.has(name)),
    subtitles: filters.has('subtitles'),
  }
}

/** One block of ffmpeg's `-progress` output: `key=value` lines ending with `progress=...`. */
export type ProgressBlock = Record<string, string>

/**
 * A parser for ffmpeg's `-progress pipe:1` stream (pure): feed it chunks as they come, it
 * calls `onBlock` with each complete block. Lines may be split across chunks.
 * @see issue 13 item 3
 */
export function createProgressParser(onBlock: (block: ProgressBlock) => void) {
  let pending = ''
  let block: ProgressBlock = {}
  return (chunk: string) => {
    pending += chunk
    let newline: number
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim()
      pending = pending.slice(newline + 1)
      const eq = line.indexOf('=')
      if (eq <= 0) continue
      block[line.slice(0, eq)] = line.slice(eq + 1)
      if (line.startsWith('progress=')) {
        onBlock(block)
        block = {}
      }
    }
  }
}

/**
 * How far ffmpeg's output has got, in µs, from one `-progress` block (`out_time_us`; older
 * builds name the same µs value `out_time_ms`); NaN when the block says neither.
 */
export function progressTimeUs(block: ProgressBlock): number {
  return Number(block.out_time_us ?? block.out_time_ms)
}

/**
 * How far a block is, 0..1: by frames when the output's frame count is known, else by
 * output time (`out_time_us`; ffmpeg 4.1 also writes microseconds under `out_time_ms`).
 * @see issue 13 item 3
 */
export function progressFraction(
  block: ProgressBlock,
  total: { frames?: number; durationMs?: number },
): number {
  if (block.progress === 'end') return 1
  let fraction = 0
  if (total.frames && block.frame !== undefined) {
    fraction = Number(block.frame) / total.frames
  } else if (total.durationMs) {
    fraction = progressTimeUs(block) / 1000 / total.durationMs
  }
  return Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0
}

/** Options of {@link runFfmpeg}. */
export interface RunFfmpegOptions {
  /** Kills ffmpeg (SIGKILL) when aborted; the promise then rejects with the signal's reason. */
  signal?: AbortSignal
  /** The output's length, for progress: in frames (video) or ms (audio). */
  frames?: number
  durationMs?: number
  /** Called with 0..1 as ffmpeg reports progress. */
  onProgress?: (fraction: number) => void
  /** Called with each `-progress` block as it is (its `out_time_us`, `frame`...). */
  onProgressBlock?: (block: ProgressBlock) => void
  /** ffmpeg's `-loglevel`; `info` when stderr must be read (loudnorm's measurement). */
  logLevel?: 'error' | 'info'
  /** Run exactly `args`, without the global flags (for `-version` and listings). */
  raw?: boolean
  /** Bytes of stderr kept (the last ones); default `STDERR_TAIL_BYTES`. */
  stderrTailBytes?: number
}

/** What a finished ffmpeg left. */
export interface FfmpegResult {
  stdout: string
  /** The last `STDERR_TAIL_BYTES` of stderr. */
  stderr: string
  /** Peak resident memory of the ffmpeg process (VmHWM), in bytes; 0 where /proc is absent. */
  peakRssBytes: number
  /**
   * CPU time of the process (user + system), in ms, as last read from /proc (at its final
   * progress report, just before it exits); 0 where /proc is absent.
   */
  cpuMs: number
  /** Wall time from spawn to exit, in ms. */
  wallMs: number
}

/** utime + stime of a process, in ms (USER_HZ is 100 on Linux). */
function readCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

function readPeakRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/**
 * Runs ffmpeg with an argument array (no shell, no wrapper library), adding
 * `-hide_banner -nostdin -y -loglevel error -progress pipe:1 -nostats` unless `raw`.
 * @throws RenderError `ffmpeg-failed` on a non-zero exit (message ends with stderr's tail),
 *   `ffmpeg-not-found` when the binary cannot be started; the signal's reason when aborted.
 * @see issue 13 item 3
 */
export function runFfmpeg(
  ffmpegPath: string,
  args: readonly string[],
  options: RunFfmpegOptions = {},
): Promise<FfmpegResult> {
  const { signal, onProgress } = options
  if (signal?.aborted) return Promise.reject(signal.reason)
  const fullArgs = options.raw
    ? [...args]
    : [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-loglevel',
        options.logLevel ?? 'error',
        '-progress',
        'pipe:1',
        '-nostats',
        ...args,
      ]
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, fullArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let peakRssBytes = 0
    let cpuMs = 0
    const startedAt = performance.now()
    let aborted = false
    const samplePeak = () => {
      if (!child.pid) return
      peakRssBytes = Math.max(peakRssBytes, readPeakRss(child.pid))
      cpuMs = Math.max(cpuMs, readCpuMs(child.pid))
    }
    const parse = createProgressParser((block) => {
      // Also read at each report: the last one comes just before exit, after any poll.
      samplePeak()
      options.onProgressBlock?.(block)
      onProgress?.(progressFraction(block, options))
    })
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      if (options.raw) stdout += chunk
      else parse(chunk)
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-(options.stderrTailBytes ?? STDERR_TAIL_BYTES))
    })
    const poll = setInterval(samplePeak, RSS_POLL_MS)
    const onAbort = () => {
      aborted = true
      child.kill('SIGKILL')
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const finish = () => {
      clearInterval(poll)
      signal?.removeEventListener('abort', onAbort)
    }
    child.on('error', (error) => {
      finish()
      reject(
        new RenderError('ffmpeg-not-found', `${ffmpegPath} could not start: ${error.message}`, {
          cause: error,
        }),
      )
    })
    child.on('close', (code, killedBy) => {
      finish()
      if (aborted) return reject(signal!.reason)
      if (code === 0) {
        return resolve({
          stdout,
          stderr,
          peakRssBytes,
          cpuMs,
          wallMs: performance.now() - startedAt,
        })
      }
      reject(
        new RenderError(
          'ffmpeg-failed',
          `ffmpeg exited with ${killedBy ?? code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`,
        ),
      )
    })
  })
}
