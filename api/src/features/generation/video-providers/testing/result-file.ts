import { execFile } from 'node:child_process'
import { stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { json } from '../../providers/testing/http-server.ts'

const run = promisify(execFile)

/**
 * A provider's finished result as its storage serves it, for the video provider tests: the
 * bytes, whether it answers only once (a signed URL, an output Replicate deletes), and how it
 * is sent.
 */
export interface ResultFile {
  bytes: Uint8Array
  contentType: string
  /** Answer 404 after the first GET, as a URL that works once does. */
  once: boolean
  /** GETs received. */
  served: number
  /**
   * Send the first half, then wait for this before the rest (a test waits until the half is
   * on the client's disk: only a streaming client gets there).
   */
  beforeRest?: (() => Promise<void>) | undefined
}

export function resultFile(bytes: Uint8Array, contentType = 'video/mp4'): ResultFile {
  return { bytes, contentType, once: false, served: 0 }
}

/** Answers a GET of the result file as `file` says. */
export async function serveResultFile(response: ServerResponse, file: ResultFile): Promise<void> {
  file.served += 1
  if (file.once && file.served > 1) {
    json(response, 404, { detail: 'This file is gone.' })
    return
  }
  response.writeHead(200, {
    'content-type': file.contentType,
    'content-length': file.bytes.byteLength,
  })
  if (!file.beforeRest) {
    response.end(file.bytes)
    return
  }
  const half = Math.floor(file.bytes.byteLength / 2)
  response.write(file.bytes.subarray(0, half))
  await file.beforeRest()
  response.end(file.bytes.subarray(half))
}

/** Resolves once the file at `path` holds at least `bytes` bytes (polled every 10 ms). */
export async function fileReaches(path: string, bytes: number, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    )
    if (size >= bytes) return
    if (Date.now() > until) throw new Error(`${path} never reached ${bytes} bytes (has ${size})`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

let tinyClip: Promise<Uint8Array> | undefined

/**
 * A real 1 s H.264 MP4 (64x36, ffmpeg's test pattern), made once per test file by the
 * ffmpeg on PATH: what a provider's result looks like.
 */
export function tinyMp4(): Promise<Uint8Array> {
  tinyClip ??= (async () => {
    const { stdout } = await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=64x36:rate=10:duration=1',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        'frag_keyframe+empty_moov',
        '-f',
        'mp4',
        'pipe:1',
      ],
      { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
    )
    return new Uint8Array(stdout)
  })()
  return tinyClip
}

/** A 64 KiB stand-in for a larger clip (arbitrary bytes: providers do not read them). */
export function largeClipBytes(size = 64 * 1024): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) % 251
  return bytes
}
