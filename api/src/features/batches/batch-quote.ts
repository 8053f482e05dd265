import { type BatchQuote, makeVideoCost, type TemplateSettings } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { requireVideoModel } from '../generation/clip-job.ts'

/**
 * A batch's quote (issue 42 item 3): what the whole batch costs and about how long it takes,
 * before anything runs.
 */

/**
 * The per-row time estimate of the offline pipeline (builtin writer, storyboard pictures,
 * eSpeak NG voices, the ffmpeg render on 2 cores), in seconds, measured on `make-video`
 * jobs of this machine kind (`batches.test.ts` runs 15 s videos of 1 scene in about 10 s):
 * a fixed part (the project, the script and scene split, the queue), a part per scene (its
 * picture and its voice), a part per second of video (the render and the audio), and with
 * "animate each scene" a clip per scene (a provider's clip takes tens of seconds or more).
 */
export const BATCH_ESTIMATE = {
  /** The project, the script, the scene split, the job's queueing: seconds per row. */
  rowSeconds: 4,
  /** One scene's picture and narration: seconds per scene. */
  sceneSeconds: 2,
  /**
   * The render and audio of one second of video, two rows at once on 2 cores: seconds. With
   * the others, 23.5 s for a 30-second 3-scene row, as measured by `npm run batch-shorts -w
   * bench` (ten such rows in 118 s, the median of three runs, issue 42).
   */
  renderSecondsPerVideoSecond: 0.45,
  /** One animated scene's clip: seconds per scene. */
  clipSeconds: 45,
} as const

/**
 * About how long one row takes, in seconds, with `settings` (see {@link BATCH_ESTIMATE}).
 * @see issue 42 item 3
 */
export function rowSeconds(
  settings: Pick<TemplateSettings, 'targetSeconds' | 'sceneCount' | 'animateModelId'>,
): number {
  const e = BATCH_ESTIMATE
  return (
    e.rowSeconds +
    settings.sceneCount * (e.sceneSeconds + (settings.animateModelId ? e.clipSeconds : 0)) +
    settings.targetSeconds * e.renderSecondsPerVideoSecond
  )
}

/**
 * The quote of `rowCount` rows of a template with `settings`: credits per row are what Make
 * video charges for them (shared's `makeVideoCost` with the app's costs and, when the template
 * animates its scenes, the catalog's model, as `submitMakeVideo` prices it); the time is
 * {@link rowSeconds} for each wave of `concurrency` rows.
 * @throws AppError 400 when the template's animate model is no longer in the catalog.
 * @see issue 42 item 3
 */
export function quoteBatch(
  deps: Pick<AppDeps, 'env' | 'catalog'>,
  settings: TemplateSettings,
  rowCount: number,
): BatchQuote {
  const animate = settings.animateModelId
    ? requireVideoModel(deps.catalog, settings.animateModelId).model
    : null
  // As `submitMakeVideo` prices each row's job: a template's own picture draws no images.
  const creditsPerRow = makeVideoCost(deps.env.costs, settings.sceneCount, animate, {
    sceneImage: settings.sceneImage !== undefined,
  })
  const concurrency = deps.env.BATCH_USER_CONCURRENCY
  return {
    credits: creditsPerRow * rowCount,
    creditsPerRow,
    estimatedSeconds: Math.ceil(Math.ceil(rowCount / concurrency) * rowSeconds(settings)),
    concurrency,
  }
}
