import { spawn } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { STDERR_TAIL_BYTES, type VideoPreset } from './config.ts'
import { RenderError, type RenderErrorCode } from './errors.ts'
import type { StillFit } from './stills.ts'
import type { SubtitleStyle } from './subtitle-images.ts'

/** One image for ffmpeg, made by sharp in the image worker. */
export type ImageJob =
  | {
      kind: 'still'
      /** The scene image as given (any format sharp reads). */
      imagePath: string
      preset: VideoPreset
      fit: StillFit
      /** Where the still goes (the cache), written as `tempPath` first, then renamed. */
      outputPath: string
      tempPath: string
    }
  | {
      kind: 'cue'
      lines: readonly string[]
      preset: VideoPreset
      style: SubtitleStyle
      outputPath: string
    }

const WORKER = fileURLToPath(new URL('./image-worker.ts', import.meta.url))

/**
 * Makes images with sharp in a short-lived Node process (`image-worker.ts`), one after the
 * other. sharp's memory (libvips' per-thread buffers, which glibc keeps once freed: some
 * 250 MB after a few 2880x1620 stills) then goes back to the system when the process exits,
 * instead of staying in the renderer's process for the rest of the render, beside ffmpeg.
 * @throws RenderError with the worker's code (`invalid-input` for an unreadable image) when
 *   a job fails; the signal's reason when aborted (the worker is killed, its temporary files
 *   removed).
 * @see issue 13 item 3
 */
export async function runImageJobs(
  jobs: readonly ImageJob[],
  jobsPath: string,
  signal?: AbortSignal,
): Promise<void> {
  if (jobs.length === 0) return
  signal?.throwIfAborted()
  await writeFile(jobsPath, JSON.stringify(jobs))
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [WORKER, jobsPath], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr.setEncoding('utf8')
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES)
      })
      const onAbort = () => child.kill('SIGKILL')
      signal?.addEventListener('abort', onAbort, { once: true })
      child.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort)
        reject(new RenderError('invalid-input', `The image worker did not start: ${error.message}`))
      })
      child.on('close', (code) => {
        signal?.removeEventListener('abort', onAbort)
        if (signal?.aborted) return reject(signal.reason)
        if (code === 0) return resolve()
        const last = stderr.trim().split('\n').at(-1) ?? ''
        try {
          const failure = JSON.parse(last) as { code: RenderErrorCode; message: string }
          reject(new RenderError(failure.code, failure.message))
        } catch {
          reject(new RenderError('invalid-input', `The image worker failed: ${stderr.trim()}`))
        }
      })
    })
  } finally {
    await Promise.all(
      jobs.map((job) => (job.kind === 'still' ? rm(job.tempPath, { force: true }) : undefined)),
    )
  }
}
