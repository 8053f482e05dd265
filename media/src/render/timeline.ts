import type { TransitionType } from '@reelgraph/shared'
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
      /** How `from` gives way to `to` (issue 24 item 1); today's default: `crossfade`. */
      transition: TransitionType
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
        transition: 'crossfade',
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

/** What {@link timelineFromFilm} needs of each piece of a film plan (shared's `PlannedCut`). */
export interface FilmPieceTiming {
  /** First frame where it shows (its transition in starts here). */
  startFrame: number
  /** Frames it shows, transitions included. */
  frames: number
  /** The transition from the piece before into this one; 0 frames: a plain cut. */
  transitionIn: { type: TransitionType; frames: number }
  /** Where its narration starts, in frames from `startFrame`; null without narration. */
  narrationFrame: number | null
  /** Its narration's length in ms (0 without). */
  narrationMs: number
}

/**
 * The timeline of a film laid out by shared's `planFilm` (issue 24 item 1; pure): each piece
 * (a card or a timeline cut) becomes a scene of the timeline, its body a segment, and each
 * transition longer than 0 frames a segment of its own (a plain cut has none), so segments
 * stay cached per cut. Today's default film (every scene once, 0.5 s crossfades) lays out
 * exactly as {@link planTimeline}.
 * @throws RangeError when there is no piece, the pieces do not follow each other, or one
 *   would not show a frame on its own.
 */
export function timelineFromFilm(pieces: readonly FilmPieceTiming[], fps: number): Timeline {
  if (pieces.length === 0) throw new RangeError('A video needs at least one scene')
  if (!Number.isInteger(fps) || fps <= 0) throw new RangeError(`Bad frame rate: ${fps}`)
  const frameMs = (frame: number) => (frame * 1000) / fps
  const scenes: PlannedScene[] = pieces.map((piece, index) => {
    const before = pieces[index - 1]
    const expected = before ? before.startFrame + before.frames - piece.transitionIn.frames : 0
    if (piece.startFrame !== expected || !Number.isInteger(piece.frames) || piece.frames < 1) {
      throw new RangeError(`Piece ${index} does not follow the one before it`)
    }
    return {
      index,
      startFrame: piece.startFrame,
      frames: piece.frames,
      startMs: frameMs(piece.startFrame),
      endMs: frameMs(piece.startFrame + piece.frames),
      narrationStartMs:
        piece.narrationFrame === null || piece.narrationMs <= 0
          ? null
          : // As planTimeline adds it (its start, then the lead-in), to the last bit.
            frameMs(piece.startFrame) + frameMs(piece.narrationFrame),
      narrationMs: piece.narrationFrame === null ? 0 : piece.narrationMs,
    }
  })
  const segments: PlannedSegment[] = []
  pieces.forEach((piece, index) => {
    const fadeIn = index > 0 ? piece.transitionIn.frames : 0
    const next = pieces[index + 1]
    const fadeOut = next ? next.transitionIn.frames : 0
    const body = piece.frames - fadeIn - fadeOut
    if (body < 1) throw new RangeError(`Piece ${index} shows no frame of its own`)
    segments.push({
      kind: 'scene',
      scene: index,
      startFrame: piece.startFrame + fadeIn,
      frames: body,
      firstSceneFrame: fadeIn,
    })
    if (next && fadeOut > 0) {
      segments.push({
        kind: 'transition',
        transition: next.transitionIn.type,
        from: index,
        to: index + 1,
        startFrame: next.startFrame,
        frames: fadeOut,
        fromSceneFrame: piece.frames - fadeOut,
      })
    }
  })
  const last = scenes.at(-1)!
  const totalFrames = last.startFrame + last.frames
  return { fps, totalFrames, durationMs: frameMs(totalFrames), scenes, segments }
}
