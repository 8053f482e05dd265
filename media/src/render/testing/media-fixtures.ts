// Test media made by our own code, and checks made by ffprobe and ffmpeg's own measurements.
import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { staticFfmpegPath } from '../ffmpeg.ts'
import { encodePcmWav } from '../wav.ts'

const run = promisify(execFile)

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {}
  }
  return null
}

/** Debian's ffmpeg and ffprobe (the tools that check the output), or null. */
export const systemFfmpeg = onPath('ffmpeg')
export const systemFfprobe = onPath('ffprobe')

/** The static ffmpeg 4.1 of the optional dependency, or null. */
export const staticFfmpeg = staticFfmpegPath()

/** The binaries the integration tests render with: Debian's, and the static 4.1 build. */
export const binaries: { name: string; path: string | null; missing: string }[] = [
  {
    name: 'ffmpeg on PATH (Debian 5.1)',
    path: systemFfmpeg,
    missing: 'no ffmpeg on PATH: apt-get install -y ffmpeg (.ci/run does)',
  },
  {
    name: 'static ffmpeg 4.1 (@ffmpeg-installer/linux-x64)',
    path: staticFfmpeg,
    missing: '@ffmpeg-installer/linux-x64 is not installed (optional dependency)',
  },
]

/** A test picture: a coloured field with shapes and stripes (detail for the encoder). */
export async function makeTestImage(hue: number, width = 1600, height = 1000): Promise<Buffer> {
  const stripes = Array.from(
    { length: 12 },
    (_, i) =>
      `<rect x="${i * (width / 12)}" y="0" width="${width / 48}" height="${height}" fill="hsl(${(hue + i * 20) % 360},60%,40%)"/>`,
  ).join('')
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="hsl(${hue},70%,55%)"/>${stripes}` +
    `<circle cx="${width * 0.3}" cy="${height * 0.35}" r="${height * 0.2}" fill="white"/>` +
    `<rect x="${width * 0.55}" y="${height * 0.5}" width="${width * 0.25}" height="${height * 0.3}" fill="#222"/>` +
    `</svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/**
 * A speech-like narration WAV (16-bit mono, 24 kHz like the builtin voice): a voiced tone
 * with harmonics, cut into syllables of about 200 ms with short gaps.
 */
export function makeNarrationWav(seconds: number, pitchHz = 160, sampleRate = 24_000): Uint8Array {
  const length = Math.round(seconds * sampleRate)
  const samples = new Int16Array(length)
  for (let i = 0; i < length; i++) {
    const t = i / sampleRate
    const syllable = (t * 5) % 1
    const envelope = syllable < 0.8 ? Math.sin((Math.PI * syllable) / 0.8) : 0
    const pitch = pitchHz * (1 + 0.05 * Math.sin(2 * Math.PI * 0.7 * t))
    const voice =
      Math.sin(2 * Math.PI * pitch * t) +
      0.5 * Math.sin(4 * Math.PI * pitch * t) +
      0.25 * Math.sin(6 * Math.PI * pitch * t)
    samples[i] = Math.round(voice * envelope * 0.25 * 32767)
  }
  return encodePcmWav(
    { encoding: 1, sampleRate, channels: 1, bitsPerSample: 16 },
    new Uint8Array(samples.buffer),
  )
}

/** ffprobe's view of a file's streams and format. */
export interface Probe {
  streams: {
    codec_type: string
    codec_name: string
    pix_fmt?: string
    width?: number
    height?: number
    sample_rate?: string
    duration?: string
    nb_frames?: string
    avg_frame_rate?: string
  }[]
  format: { duration: string; format_name: string }
}

export async function ffprobe(path: string): Promise<Probe> {
  const { stdout } = await run(systemFfprobe!, [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,pix_fmt,width,height,sample_rate,duration,nb_frames,avg_frame_rate:format=duration,format_name',
    '-of',
    'json',
    path,
  ])
  return JSON.parse(stdout) as Probe
}

/** Integrated loudness (LUFS) and peak level of a file's audio, by ffmpeg's ebur128 filter. */
export async function measureLoudness(path: string): Promise<{ integrated: number }> {
  const { stderr } = await run(
    systemFfmpeg!,
    ['-hide_banner', '-nostats', '-i', path, '-map', '0:a', '-af', 'ebur128', '-f', 'null', '-'],
    { maxBuffer: 64 * 1024 * 1024 },
  )
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'))
  const match = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)
  if (!match) throw new Error(`no ebur128 summary in: ${summary}`)
  return { integrated: match[1] === '-inf' ? -Infinity : Number(match[1]) }
}

/** Largest absolute sample level of a file's audio in dBFS, by ffmpeg's volumedetect. */
export async function maxVolumeDb(path: string): Promise<number> {
  const { stderr } = await run(systemFfmpeg!, [
    '-hide_banner',
    '-nostats',
    '-i',
    path,
    '-map',
    '0:a',
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ])
  const match = /max_volume: (-?[\d.]+|-inf) dB/.exec(stderr)
  return match && match[1] !== '-inf' ? Number(match[1]) : -Infinity
}

/** One decoded frame at `frame` (0-based) as RGB bytes, decoded by ffmpeg. */
export async function extractFrame(
  path: string,
  frame: number,
  size: { width: number; height: number },
): Promise<Buffer> {
  const { stdout } = await run(
    systemFfmpeg!,
    [
      '-v',
      'error',
      '-i',
      path,
      '-vf',
      `select=eq(n\\,${frame})`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  )
  if (stdout.length !== size.width * size.height * 3) {
    throw new Error(`frame ${frame}: ${stdout.length} bytes`)
  }
  return stdout
}

/** Mean absolute difference per channel of two RGB frames over rows [fromRow, toRow). */
export function meanDifference(
  a: Buffer,
  b: Buffer,
  width: number,
  fromRow: number,
  toRow: number,
): number {
  let sum = 0
  for (let i = fromRow * width * 3; i < toRow * width * 3; i++) sum += Math.abs(a[i]! - b[i]!)
  return sum / ((toRow - fromRow) * width * 3)
}

/**
 * The stills of a video by ffmpeg's `freezedetect`: each run of at least `minSeconds` whose
 * frames differ by less than `noiseDb` (-60 dB: nothing an eye could see) from the first,
 * as `[start, end]` in seconds (end NaN when the video ends frozen).
 */
export async function freezes(
  path: string,
  { noiseDb = -60, minSeconds = 0.1 } = {},
): Promise<[number, number][]> {
  const { stderr } = await run(
    systemFfmpeg!,
    [
      '-hide_banner',
      '-nostats',
      '-i',
      path,
      '-map',
      '0:v',
      '-vf',
      `freezedetect=n=${noiseDb}dB:d=${minSeconds}`,
      '-f',
      'null',
      '-',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  )
  const starts = [...stderr.matchAll(/freeze_start: ([\d.]+)/g)].map((m) => Number(m[1]))
  const ends = [...stderr.matchAll(/freeze_end: ([\d.]+)/g)].map((m) => Number(m[1]))
  return starts.map((start, i) => [start, ends[i] ?? Number.NaN])
}

/** What {@link makeClip} draws. */
export interface ClipFixture {
  seconds: number
  width?: number
  height?: number
  fps?: number
  /**
   * `pattern`: ffmpeg's moving test pattern with its hue turning a full circle per second, so
   * each frame differs from its neighbours all over; else a solid colour (`0xRRGGBB`).
   */
  picture?: 'pattern' | `0x${string}`
  /** A sine tone of this frequency as its sound (half scale); none when absent. */
  toneHz?: number
}

/**
 * An MP4 clip (H.264 yuv420p, AAC 48 kHz when it has a tone) made by ffmpeg's own sources,
 * as a video model would deliver one (issue 22 item 4).
 */
export async function makeClip(path: string, clip: ClipFixture): Promise<void> {
  const { seconds, width = 640, height = 360, fps = 30, picture = 'pattern' } = clip
  const size = `size=${width}x${height}:rate=${fps}:duration=${seconds}`
  const video =
    picture === 'pattern' ? `testsrc2=${size},hue=h=t*360` : `color=c=${picture}:${size}`
  const tone =
    clip.toneHz === undefined
      ? []
      : [
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=${clip.toneHz}:sample_rate=48000:duration=${seconds},volume=0.5`,
        ]
  await run(systemFfmpeg!, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    video,
    ...tone,
    '-c:v',
    'libx264',
    '-crf',
    '16',
    '-pix_fmt',
    'yuv420p',
    ...(tone.length ? ['-c:a', 'aac', '-b:a', '128k'] : []),
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    path,
  ])
}

/**
 * Every frame of a video's first video stream as RGB bytes, decoded by ffmpeg after the
 * filters `filters` (e.g. a scale to the frame size of a comparison).
 */
export async function decodeFrames(
  path: string,
  size: { width: number; height: number },
  filters?: string,
): Promise<Buffer[]> {
  const { stdout } = await run(
    systemFfmpeg!,
    [
      '-v',
      'error',
      '-i',
      path,
      '-map',
      '0:v:0',
      ...(filters ? ['-vf', filters] : []),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 },
  )
  const frameBytes = size.width * size.height * 3
  if (stdout.length % frameBytes !== 0) throw new Error(`${stdout.length} bytes of frames`)
  return Array.from({ length: stdout.length / frameBytes }, (_, i) =>
    stdout.subarray(i * frameBytes, (i + 1) * frameBytes),
  )
}

/** Mean absolute difference per channel of two RGB frames over a rectangle (end exclusive). */
export function regionDifference(
  a: Buffer,
  b: Buffer,
  width: number,
  region: { x0: number; x1: number; y0: number; y1: number },
): number {
  let sum = 0
  for (let y = region.y0; y < region.y1; y++) {
    for (let i = (y * width + region.x0) * 3; i < (y * width + region.x1) * 3; i++) {
      sum += Math.abs(a[i]! - b[i]!)
    }
  }
  return sum / ((region.y1 - region.y0) * (region.x1 - region.x0) * 3)
}

/** Mean of each RGB channel of a frame, 0..255. */
export function meanColour(frame: Buffer): { r: number; g: number; b: number } {
  const sums = [0, 0, 0]
  for (let i = 0; i < frame.length; i++) sums[i % 3]! += frame[i]!
  const n = frame.length / 3
  return { r: sums[0]! / n, g: sums[1]! / n, b: sums[2]! / n }
}

/**
 * The mean level (dB) of a file's audio in a narrow band around `hz`, from `startS` for
 * `seconds`, by ffmpeg's `bandpass` and `volumedetect`: whether a tone is there, and how loud.
 */
export async function bandLevelDb(
  path: string,
  hz: number,
  startS: number,
  seconds: number,
): Promise<number> {
  const { stderr } = await run(systemFfmpeg!, [
    '-hide_banner',
    '-nostats',
    '-ss',
    String(startS),
    '-t',
    String(seconds),
    '-i',
    path,
    '-map',
    '0:a',
    '-af',
    `bandpass=f=${hz}:width_type=q:width=10,bandpass=f=${hz}:width_type=q:width=10,volumedetect`,
    '-f',
    'null',
    '-',
  ])
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr)
  if (!match) throw new Error(`no volumedetect in: ${stderr.slice(-500)}`)
  return match[1] === '-inf' ? -Infinity : Number(match[1])
}

/** Frames of a video's first video stream, counted by decoding them (ffprobe). */
export async function countFrames(path: string): Promise<number> {
  const { stdout } = await run(systemFfprobe!, [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    path,
  ])
  return Number(stdout.trim())
}
