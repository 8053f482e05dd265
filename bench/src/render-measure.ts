/**
 * What the render benchmarks (render-speed, render-clips) share: the load average, CPU time
 * and memory of a render process and its children from /proc, and photo-like stills (the
 * builtin storyboard frames under film grain, so the encoder sees photographic detail as it
 * would with generated images).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import sharp from 'sharp'

/** How often the RSS of the render process and its children is read, in ms. */
export const RSS_SAMPLE_MS = 100

/** The load average (1, 5, 15 min) as printed. */
export const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

function vmRssBytes(pid: number | 'self'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024
  } catch {
    return 0
  }
}
function childPids(): number[] {
  try {
    return readdirSync('/proc/self/task').flatMap((task) =>
      readFileSync(`/proc/self/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    )
  } catch {
    return []
  }
}

/**
 * Samples this process and its children's RSS every `RSS_SAMPLE_MS` until the returned
 * function is called; it returns the peaks, in bytes.
 */
export function watchMemory() {
  let total = 0
  let children = 0
  const sample = () => {
    const kids = childPids().reduce((sum, pid) => sum + vmRssBytes(pid), 0)
    children = Math.max(children, kids)
    total = Math.max(total, vmRssBytes('self') + kids)
  }
  const timer = setInterval(sample, RSS_SAMPLE_MS)
  return () => {
    clearInterval(timer)
    sample()
    return { total, children }
  }
}

/** CPU seconds of this process and its waited-for children (utime, stime, cutime, cstime). */
export function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0)
  return ticks / 100 // USER_HZ
}

/** `bytes` (an image) as a 1920x1080 JPEG under film grain that varies with `seed`. */
export async function photoLike(bytes: Uint8Array, seed: number): Promise<Buffer> {
  const { width, height } = { width: 1920, height: 1080 }
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 + (seed % 7) },
    },
  })
    .blur(1.2)
    .png()
    .toBuffer()
  return sharp(bytes)
    .resize(width, height, { fit: 'cover' })
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer()
}
