import type { FilmPlan, TimelineSettings } from '@reelgraph/shared'
import { RenderError } from './errors.ts'
import type { RenderPiece } from './render-video.ts'

/**
 * The pieces `renderVideo` renders from a film laid out by shared's `planFilm` (issue 24
 * item 1; pure): each timeline cut shows its scene (a clip from its in to its out point), the
 * title and end cards their text and colours in the timeline's caption font.
 * @param sceneIndex where a scene node's media is in `renderVideo`'s `scenes`
 * @throws RenderError `invalid-input` when a cut's scene is not among the scenes given.
 * @see issue 24 item 1
 */
export function filmPieces(
  plan: FilmPlan,
  settings: Pick<
    TimelineSettings,
    | 'titleText'
    | 'titleColor'
    | 'titleBackground'
    | 'endText'
    | 'endColor'
    | 'endBackground'
    | 'captionFont'
  >,
  sceneIndex: (sceneId: string) => number | undefined,
): RenderPiece[] {
  return plan.pieces.map((piece) => {
    const timing = {
      startFrame: piece.startFrame,
      frames: piece.frames,
      transitionIn: piece.transitionIn,
      narrationFrame: piece.narrationFrame,
      narrationMs: piece.narrationMs,
    }
    if (piece.kind !== 'cut' || !piece.cut) {
      const title = piece.kind === 'title'
      return {
        ...timing,
        show: {
          kind: 'card',
          card: {
            text: title ? settings.titleText : settings.endText,
            color: title ? settings.titleColor : settings.endColor,
            background: title ? settings.titleBackground : settings.endBackground,
            font: settings.captionFont,
          },
        },
      }
    }
    const scene = sceneIndex(piece.cut.sceneId)
    if (scene === undefined) {
      throw new RenderError('invalid-input', `Cut ${piece.id} shows a scene that is not given`)
    }
    return { ...timing, show: { kind: 'scene', scene, span: piece.clip } }
  })
}
