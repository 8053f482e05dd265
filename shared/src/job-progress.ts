/**
 * A running job's progress, typed from the work that reports it (a provider, the renderer)
 * to the node that shows it (issue 21 item 5): which stage it is in and how far, in the
 * stage's own units. The percent of the whole job is computed once, from the job kind's
 * stage weights ({@link jobProgressPercent}), and the words a person reads are made from the
 * same value ({@link describeJobProgress}); neither is ever parsed back from the other.
 */

/** The stages a job goes through; a kind uses those it has. */
export const JOB_STAGES = [
  /** Writing a script (units: 1). */
  'script',
  /** Splitting a script into scenes (units: the scenes asked for). */
  'scenes',
  /** One image being generated (units: percent, as the provider reports it). */
  'image',
  /** Images of several scenes (units: images). */
  'images',
  /** One clip being generated at a video provider (units: percent, where it says). */
  'clip',
  /** Clips of several scenes (units: clips). */
  'clips',
  /** Narrations being synthesized (units: scenes). */
  'voices',
  /** The scenes being rendered (units: scenes, fractional while one renders). */
  'rendering',
  /** The audio being mixed and levelled (units: 1). */
  'audio',
  /** Segments and audio joined into the MP4 (units: 1). */
  'joining',
] as const
export type JobStage = (typeof JOB_STAGES)[number]

/** How far a job is: `done` of `total` units of `stage` (0 <= done <= total, total > 0). */
export interface JobProgress {
  stage: JobStage
  done: number
  total: number
  /**
   * Where the job waits in an outside provider's queue (1 = next), when the provider says
   * (fal's `queue_position`, issue 22 item 3).
   */
  queuePosition?: number | undefined
}

/** A stage of a job kind and its share of the whole job's progress bar (any positive number). */
export interface JobStageWeight {
  stage: JobStage
  weight: number
}

/**
 * The percent (0..100, whole) of a job at `progress`, from its kind's stages in order: the
 * stages before the current one count whole, the current one by `done / total`. A stage the
 * kind does not list counts as its first.
 */
export function jobProgressPercent(
  stages: readonly JobStageWeight[],
  progress: JobProgress,
): number {
  const sum = stages.reduce((s, w) => s + w.weight, 0)
  if (sum <= 0) return 0
  const at = Math.max(
    0,
    stages.findIndex((w) => w.stage === progress.stage),
  )
  const before = stages.slice(0, at).reduce((s, w) => s + w.weight, 0)
  const fraction = progress.total > 0 ? Math.min(1, Math.max(0, progress.done / progress.total)) : 0
  return Math.round(((before + (stages[at]?.weight ?? 0) * fraction) / sum) * 100)
}

/** "k/N" of counted work: the item being worked on (1-based), never past the last. */
function current(progress: JobProgress): string {
  const total = Math.max(1, Math.round(progress.total))
  const item = Math.min(total, Math.floor(Math.max(0, progress.done)) + 1)
  return `${item}/${total}`
}

/**
 * What a person reads about a job at `progress` ("Images 2/6", "Rendering scenes 3/6").
 * @see issue 13 item 6 (the words), issue 21 item 5 (made from the typed progress)
 */
export function describeJobProgress(progress: JobProgress): string {
  const queued =
    progress.queuePosition !== undefined
      ? ` (queued at the provider, position ${Math.max(1, Math.round(progress.queuePosition))})`
      : ''
  return describeStage(progress) + queued
}

function describeStage(progress: JobProgress): string {
  switch (progress.stage) {
    case 'script':
      return 'Writing the script'
    case 'scenes': {
      const n = Math.max(1, Math.round(progress.total))
      return `Splitting the script into ${n} ${n === 1 ? 'scene' : 'scenes'}`
    }
    case 'image':
      return 'Generating the image'
    case 'images':
      return `Images ${current(progress)}`
    case 'clip':
      return 'Generating the clip'
    case 'clips':
      return `Clips ${current(progress)}`
    case 'voices':
      return `Voices ${current(progress)}`
    case 'rendering':
      return `Rendering scenes ${current(progress)}`
    case 'audio':
      return 'Mixing the audio'
    case 'joining':
      return 'Joining'
  }
}
