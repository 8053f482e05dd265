import { clipJob, type ClipJobDeps } from './features/generation/clip-job.ts'
import { imageJob, type ImageJobDeps } from './features/generation/image-job.ts'
import { scenesJob, type ScenesJobDeps } from './features/generation/scenes-job.ts'
import { scriptJob, type ScriptJobDeps } from './features/generation/script-job.ts'
import { type JobKinds, jobKindMap } from './features/jobs/job-kind.ts'
import { makeVideoJob, type MakeVideoDeps } from './features/video/make-video-job.ts'
import { narrationJob, type NarrationJobDeps } from './features/video/narration-job.ts'
import { videoJob, type VideoJobDeps } from './features/video/video-job.ts'

/** What the kinds together use: each takes its part. */
export type JobKindDeps = ScriptJobDeps &
  ClipJobDeps &
  ScenesJobDeps &
  ImageJobDeps &
  VideoJobDeps &
  MakeVideoDeps &
  NarrationJobDeps

/**
 * Every kind of job Reelgraph runs (issue 21 item 1): the one map the runtime hands to the
 * job system. Adding a kind is a module in its feature and one line here.
 */
export function createJobKinds(deps: JobKindDeps): JobKinds {
  return jobKindMap([
    scriptJob(deps),
    scenesJob(deps),
    imageJob(deps),
    clipJob(deps),
    narrationJob(deps),
    videoJob(deps),
    makeVideoJob(deps),
  ])
}
