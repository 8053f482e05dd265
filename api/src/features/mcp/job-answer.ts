import { type Job, type VideoTake } from '@reelgraph/shared'
import { type JobRow, toJobJson } from '../jobs/job-store.ts'
import { absoluteUrl } from './mcp-tool.ts'

/**
 * A job as the MCP tools answer it (issue 41 item 2): `GET /api/jobs/:id`'s JSON, with the
 * result's file URLs (`/api/assets/…`) also given as absolute URLs on the origin the agent
 * reached, to fetch with its `Authorization: Bearer` header.
 */
export function jobAnswer(row: JobRow, origin: string): Record<string, unknown> {
  const job: Job = toJobJson(row)
  const files: Record<string, string> = {}
  if (job.result && typeof job.result === 'object') {
    for (const [key, value] of Object.entries(job.result)) {
      if (typeof value === 'string' && value.startsWith('/api/assets/')) {
        files[key] = absoluteUrl(origin, value)
      }
    }
  }
  return { ...job, ...(Object.keys(files).length ? { files } : {}) }
}

/** A Video node's render as `export_video` answers it: its files as absolute URLs. */
export function renderAnswer(take: VideoTake, origin: string): Record<string, unknown> {
  return {
    mp4Url: absoluteUrl(origin, take.mp4Url),
    srtUrl: absoluteUrl(origin, take.srtUrl),
    vttUrl: absoluteUrl(origin, take.vttUrl),
    durationMs: take.durationMs,
    preset: take.preset,
    renderedAt: take.renderedAt,
  }
}
