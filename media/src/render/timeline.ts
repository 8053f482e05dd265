import {
  CROSSFADE_FRAMES,
  MIN_SCENE_MS,
  NARRATION_LEAD_IN_MS,
  NARRATION_TAIL_MS,
} from './config.ts'

/** What the timeline needs to know of a scene. */
export interface TimelineSceneInput {
  /** Length of the scene's narration in ms; absent or 0 when the scene has none. */
  narrationMs?: number
}

/** One scene placed on the video's timeline. Frames count from the video's first frame. */
export interface PlannedScene {
  index: number
  /** First frame where the scene is visible (its crossfade in, if any, starts here). */
  startFrame: number
  /** Frames during which the scene is visible, crossfades included. */
  frames: number
  /** `startFrame` in ms. */
  startMs: number
  /** End of the scene (exclusive; the end of its crossfade out) in ms. */
  endMs: number
  /** Where the narration starts, in ms from the video's start; `null` without narration. */
  narrationStartMs: number | null
  /** Narration length in ms (0 without narration). */
  narrationMs: number
}

/** One piece of the video rendered on its own and joined to the others by stream copy. */
export type PlannedSegment =
  | {
      kind: 'scene'
      /** The scene shown. */
      scene: number
      /** First frame of the segment in the video. */
      startFrame: number
      frames: number
      /** Scene-local frame (0 = the scene's first visible frame) the segment starts at. */
      firstSceneFrame: number
    }
  | {
      kind: 'transition'
      /** The scene faded out; `from + 1` is faded in. */
      from: number
      to: number
      startFrame: number
      frames: number
      /** Scene-local frame of `from` at the transition's start (`to` starts at its frame 0). */
      fromSceneFrame: number
    }

/** The whole video laid out: scenes, crossfades, and the segments in join order. */
export interface Timeline {
  fps: number
  totalFrames: number
  durationMs: number
  scenes: PlannedScene[]
  /** Scene bodies and crossfades, in the order they are joined. */
  segments: PlannedSegment[]
}

/** Options of {@link planTimeline}; the defaults are those of `config.ts`. */
export interface PlanTimelineOptions {
  /** Frames per second. */
  fps: number
  /** Crossfade length in frames. */
  crossfadeFrames?: number
  /** Silence before the narration, in ms. */
  leadInMs?: number
  /** Silence after the narration, in ms. */
  tailMs?: number
  /** Shortest scene, in ms. */
  minSceneMs?: number
}

/**
 * Lays scenes out on the timeline (pure). A scene lasts its narration plus padding
 * (`NARRATION_LEAD_IN_MS` before, `NARRATION_TAIL_MS` after), at least `MIN_SCENE_MS`,
 * rounded up to whole frames. Consecutive scenes overlap by the crossfade, so the video is
 * `sum(scene frames) - (N - 1) * crossfade` frames long. Every segment is a whole number of
 * frames, so segments join by stream copy without drift.
 *
 * @throws RangeError when there is no scene, or a narration length is negative or not finite.
 * @see issue 13 item 3
 */
export function planTimeline(
  scenes: readonly TimelineSceneInput[],
  options: PlanTimelineOptions,
): Timeline {
  const { fps } = options
  const crossfade = options.crossfadeFrames ?? CROSSFADE_FRAMES
  const leadInMs = options.leadInMs ?? NARRATION_LEAD_IN_MS
  const tailMs = options.tailMs ?? NARRATION_TAIL_MS
  const minSceneMs = options.minSceneMs ?? MIN_SCENE_MS
  if (scenes.length === 0) throw new RangeError('A video needs at least one scene')
  if (!Number.isInteger(fps) || fps <= 0) throw new RangeError(`Bad frame rate: ${fps}`)
  // A middle scene must show on its own for at least one frame between its two crossfades.
  const minFrames = Math.max(2 * crossfade + 1, Math.ceil((minSceneMs * fps) / 1000))
  const frameMs = (frame: number) => (frame * 1000) / fps

  const planned: PlannedScene[] = []
  let startFrame = 0
  scenes.forEach((scene, index) => {
    const narrationMs = scene.narrationMs ?? 0
    if (!Number.isFinite(narrationMs) || narrationMs < 0) {
      throw new RangeError(`Scene ${index}: bad narration length ${narrationMs}`)
    }
    const wantedMs = narrationMs > 0 ? leadInMs + narrationMs + tailMs : 0
    // The epsilon keeps 1000 ms at 30 fps at 30 frames, not 31 after float rounding.
    const frames = Math.max(minFrames, Math.ceil((wantedMs * fps) / 1000 - 1e-9))
    planned.push({
      index,
      startFrame,
      frames,
      startMs: frameMs(startFrame),
      endMs: frameMs(startFrame + frames),
      narrationStartMs: narrationMs > 0 ? frameMs(startFrame) + leadInMs : null,
      narrationMs,
    })
    startFrame += frames - crossfade
  })
  const last = planned.at(-1)!
  const totalFrames = last.startFrame + last.frames

  const segments: PlannedSegment[] = []
  for (const scene of planned) {
    const fadeIn = scene.index > 0 ? crossfade : 0
    const fadeOut = scene.index < planned.length - 1 ? crossfade : 0
    segments.push({
      kind: 'scene',
      scene: scene.index,
      startFrame: scene.startFrame + fadeIn,
      frames: scene.frames - fadeIn - fadeOut,
      firstSceneFrame: fadeIn,
    })
    if (fadeOut > 0) {
      segments.push({
        kind: 'transition',
        from: scene.index,
        to: scene.index + 1,
        startFrame: scene.startFrame + scene.frames - crossfade,
        frames: crossfade,
        fromSceneFrame: scene.frames - crossfade,
      })
    }
  }
  return { fps, totalFrames, durationMs: frameMs(totalFrames), scenes: planned, segments }
}
