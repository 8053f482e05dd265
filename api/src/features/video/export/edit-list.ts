import type { FilmPlan, PlannedCut, TimelineSettings, TransitionType } from '@reelgraph/shared'

/**
 * The film as an editor's edit list (issue 24 item 3), made from shared's `planFilm` and
 * nothing else, so the `.otio` and `.fcpxml` files have the cuts, order, in and out points
 * and durations the renderer makes. Pure; every time is a whole number of frames at the
 * plan's rate (`FILM_FPS`, 30).
 *
 * How an overlap of the plan becomes a cut with a transition: planFilm lets piece B start
 * `t` frames before piece A ends (the transition's length). In an editor's track the items
 * are end to end and a transition sits across the cut point, reaching `inOffset` frames into
 * the item before (OTIO's `in_offset`) and `outOffset` frames into the item after
 * (`out_offset`), so `inOffset + outOffset = t`: the cut point is `inOffset` frames after B's
 * planned start. Each item's source range leaves out what the transition shows of it (its
 * handles), so item + handles = the piece's planned frames exactly.
 */

/** A file of the export, as the timeline file references it. */
export interface ExportMedia {
  /** Its path in the ZIP, relative to the timeline file (`media/scene-01.mp4`). */
  path: string
  kind: 'video' | 'image' | 'audio'
  /** Its length in whole frames, or null for a still image (any length). */
  frames: number | null
  /** A video file with a sound track. */
  hasAudio: boolean
}

/** A clip of the video track: a piece of a scene's clip, or a still of its picture. */
export interface EditClip {
  type: 'clip'
  name: string
  /** The plan's piece (cut id). */
  pieceId: string
  sceneId: string
  media: ExportMedia
  /** First frame on the track (the cut point). */
  start: number
  /** Frames on the track, between its cut points. */
  frames: number
  /** First frame of the media shown at `start` (a still's: the frames the transition in shows). */
  sourceStart: number
}

/** A card of the video track (title or end card): drawn by the renderer, a gap to an editor. */
export interface EditGap {
  type: 'gap'
  name: string
  pieceId: string
  start: number
  frames: number
  card: { text: string; color: string; background: string } | null
}

/** A transition across the cut point `at`. */
export interface EditTransition {
  type: 'transition'
  name: string
  transition: TransitionType
  /** The cut point it sits on. */
  at: number
  /** Frames before the cut point (into the item before). */
  inOffset: number
  /** Frames after the cut point (into the item after). */
  outOffset: number
}

export type VideoTrackItem = EditClip | EditGap | EditTransition

/** A clip of an audio track, at its place on the film (audio tracks have gaps between). */
export interface EditAudio {
  name: string
  media: ExportMedia
  start: number
  frames: number
  sourceStart: number
  /** Its level, in dB (0: as recorded). */
  gainDb: number
}

/** The film as an editor's edit list. */
export interface EditList {
  name: string
  fps: number
  totalFrames: number
  width: number
  height: number
  /** Clips, cards and the transitions between them, in order, end to end. */
  video: VideoTrackItem[]
  /** Each narrated cut's voice, in order, never overlapping. */
  narration: EditAudio[]
  /** The music, repeated end to end until the film ends (as the renderer loops it). */
  music: EditAudio[]
  /** What the editor's formats cannot say but a person finishing the film wants to know. */
  notes: { musicVolume: number; musicFadeInMs: number; musicFadeOutMs: number; musicDuckDb: number }
}

/** The names transitions get in an editor. */
export const TRANSITION_NAMES: Record<TransitionType, string> = {
  cut: 'Cut',
  crossfade: 'Cross Dissolve',
  dip: 'Dip to Black',
  wipe: 'Wipe',
  slide: 'Slide',
}

/** What {@link buildEditList} needs besides the plan. */
export interface EditListInput {
  name: string
  plan: FilmPlan
  width: number
  height: number
  settings: Pick<
    TimelineSettings,
    | 'titleText'
    | 'titleColor'
    | 'titleBackground'
    | 'endText'
    | 'endColor'
    | 'endBackground'
    | 'musicVolume'
    | 'musicFadeInMs'
    | 'musicFadeOutMs'
    | 'musicDuckDb'
  >
  /** A cut's picture: its clip or its still (by the piece). */
  picture(piece: PlannedCut): ExportMedia
  /** A narrated cut's voice, or null. */
  narration(piece: PlannedCut): ExportMedia | null
  /** The music, or null. */
  music: ExportMedia | null
  /** A scene's name for people ("Scene 3"). */
  sceneName(piece: PlannedCut): string
}

/** ms of a clip as its frame (rounded: the frame the renderer seeks to). */
const frameOf = (ms: number, fps: number) => Math.round((ms * fps) / 1000)

/**
 * The edit list of a planned film.
 * @throws RangeError when the plan has an item of no frames (planFilm never makes one).
 */
export function buildEditList(input: EditListInput): EditList {
  const { plan, settings } = input
  const fps = plan.fps
  const pieces = plan.pieces
  // The cut point before each piece, and after the last one.
  const inOffsets = pieces.map((p, i) => (i === 0 ? 0 : Math.floor(p.transitionIn.frames / 2)))
  const cuts = pieces.map((p, i) => p.startFrame + inOffsets[i]!)
  cuts.push(plan.totalFrames)

  const video: VideoTrackItem[] = []
  pieces.forEach((piece, i) => {
    if (i > 0 && piece.transitionIn.frames > 0) {
      video.push({
        type: 'transition',
        name: TRANSITION_NAMES[piece.transitionIn.type],
        transition: piece.transitionIn.type,
        at: cuts[i]!,
        inOffset: inOffsets[i]!,
        outOffset: piece.transitionIn.frames - inOffsets[i]!,
      })
    }
    const start = cuts[i]!
    const frames = cuts[i + 1]! - start
    if (frames <= 0) throw new RangeError(`Piece ${piece.id} has no frames of its own`)
    if (piece.kind !== 'cut') {
      const title = piece.kind === 'title'
      const text = title ? settings.titleText : settings.endText
      video.push({
        type: 'gap',
        name: `${title ? 'Title card' : 'End card'}${text ? `: ${text}` : ''}`,
        pieceId: piece.id,
        start,
        frames,
        card: {
          text,
          color: title ? settings.titleColor : settings.endColor,
          background: title ? settings.titleBackground : settings.endBackground,
        },
      })
      return
    }
    const media = input.picture(piece)
    const mediaIn = piece.clip && media.kind === 'video' ? frameOf(piece.clip.inMs, fps) : 0
    video.push({
      type: 'clip',
      name: input.sceneName(piece),
      pieceId: piece.id,
      sceneId: piece.cut!.sceneId,
      media,
      start,
      frames,
      sourceStart: mediaIn + inOffsets[i]!,
    })
  })

  const narration: EditAudio[] = []
  let voiceEnd = 0
  for (const piece of pieces) {
    if (piece.narrationFrame === null) continue
    const media = input.narration(piece)
    if (!media) continue
    const start = Math.max(voiceEnd, piece.startFrame + piece.narrationFrame)
    const length = Math.min(
      media.frames ?? 0,
      Math.floor((piece.narrationMs * fps) / 1000),
      plan.totalFrames - start,
    )
    if (length <= 0) continue
    narration.push({
      name: `Narration – ${input.sceneName(piece)}`,
      media,
      start,
      frames: length,
      sourceStart: 0,
      gainDb: 0,
    })
    voiceEnd = start + length
  }

  const music: EditAudio[] = []
  const loop = input.music?.frames ?? 0
  if (input.music && loop > 0) {
    const gainDb =
      settings.musicVolume > 0 ? Math.round(2000 * Math.log10(settings.musicVolume)) / 100 : -96
    for (let start = 0; start < plan.totalFrames; start += loop) {
      music.push({
        name: 'Music',
        media: input.music,
        start,
        frames: Math.min(loop, plan.totalFrames - start),
        sourceStart: 0,
        gainDb,
      })
    }
  }

  return {
    name: input.name,
    fps,
    totalFrames: plan.totalFrames,
    width: input.width,
    height: input.height,
    video,
    narration,
    music,
    notes: {
      musicVolume: settings.musicVolume,
      musicFadeInMs: settings.musicFadeInMs,
      musicFadeOutMs: settings.musicFadeOutMs,
      musicDuckDb: settings.musicDuckDb,
    },
  }
}
