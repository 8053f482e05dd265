// The image worker: `node image-worker.ts <jobs.json>` makes each ImageJob with sharp, in
// order, and exits. On failure its last stderr line is `{"code", "message"}` (see
// image-jobs.ts, which starts it).
import { readFile, rename, writeFile } from 'node:fs/promises'
import { RenderError } from './errors.ts'
import type { ImageJob } from './image-jobs.ts'
import { fitStill } from './stills.ts'
import { renderSubtitleImage } from './subtitle-images.ts'

try {
  const jobs = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as ImageJob[]
  for (const job of jobs) {
    if (job.kind === 'still') {
      const image = await readFile(job.imagePath)
      await writeFile(job.tempPath, await fitStill(image, job.preset, job.fit))
      await rename(job.tempPath, job.outputPath)
    } else {
      await writeFile(job.outputPath, await renderSubtitleImage(job.lines, job.preset, job.style))
    }
  }
} catch (error) {
  const code = error instanceof RenderError ? error.code : 'invalid-input'
  const message = error instanceof Error ? error.message : String(error)
  process.stderr.write(`\n${JSON.stringify({ code, message })}\n`)
  process.exitCode = 1
}
