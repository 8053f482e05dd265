import { cancelJob, requireJob } from '../../jobs/job-service.ts'
import { jobAnswer } from '../job-answer.ts'
import { defineTool } from '../mcp-tool.ts'

/** The job tools (issue 41 item 2): `GET /api/jobs/:id` and its cancel. */

export const getJobTool = defineTool({
  name: 'get_job',
  title: 'Follow a job',
  description:
    'A job’s state: status (queued, running, succeeded, failed, cancelled), progress 0-100 with its stage in words, the failure message, credits charged and refunded, and once succeeded its result, with its files (MP4, subtitles, images, clips) as absolute URLs to download with your Authorization header. Call it again every few seconds until the status is final.',
  readOnly: true,
  async run({ jobId }, { deps, actor, origin }) {
    return jobAnswer(await requireJob(deps.db, { userId: actor.user.id, jobId }), origin)
  },
})

export const cancelJobTool = defineTool({
  name: 'cancel_job',
  title: 'Cancel a job',
  description:
    'Stops a queued or running job; its credits come back unless a paid provider already made the result. A finished job is answered as it is. Editors and owners only.',
  readOnly: false,
  destructive: true,
  async run({ jobId }, { deps, actor, origin }) {
    return jobAnswer(await cancelJob(deps, { userId: actor.user.id, jobId }), origin)
  },
})
