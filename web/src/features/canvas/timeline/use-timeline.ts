import {
  type CutMedia,
  type EffectiveTimeline,
  effectiveTimeline,
  estimateNarrationMs,
  estimateWordTimings,
  type FilmCut,
  type FilmPlan,
  orderAfter,
  planFilm,
  readTimeline,
  type SceneNarration,
  type VideoInputs,
} from '@reelgraph/shared'
import { useMemo } from 'react'
import { useNarrations } from '../api/timeline-api'
import { useProjectId } from '../hooks/use-generation'
import { useCanvasStore } from '../hooks/use-canvas-store'

/** A scene's narration as the timeline uses it: the server's, else the estimate from its text. */
export type TimelineNarration = Pick<
  SceneNarration,
  'durationMs' | 'wavUrl' | 'words' | 'estimated'
>

/** Video node `videoId`'s timeline as the panel shows it. */
export interface TimelineView {
  film: EffectiveTimeline
  /** The film laid out (shared `planFilm`); null when it has nothing to show. */
  plan: FilmPlan | null
  /** Each scene's narration, by scene id. */
  narrations: ReadonlyMap<string, TimelineNarration>
  /** What the plan knows of a cut's media (clip and narration lengths). */
  media: (cut: FilmCut) => CutMedia
  /** True while the narrations are being asked for the first time. */
  loading: boolean
}

/**
 * Video node `videoId`'s timeline (issue 24 item 1), live from the document: its registers
 * (every member's edits as they arrive), the node's scenes, and each scene's narration
 * (`GET /api/video/narrations`, else the documented estimate until it answers), laid out by
 * shared `planFilm` as the renderer lays it out.
 * @param newestTake the newest take's MP4 URL ('' without): a render speaks the narrations
 */
export function useTimeline(
  videoId: string,
  inputs: VideoInputs | null,
  newestTake: string,
): TimelineView {
  const projectId = useProjectId()
  const registers = useCanvasStore((s) => s.timelines)
  // Asked again when the inputs change or a render adds a take (its voices are spoken now).
  const narrationsQuery = useNarrations(
    { projectId, nodeId: videoId },
    `${inputs?.hash ?? ''} ${newestTake}`,
  )
  const scenes = useMemo(() => inputs?.scenes ?? [], [inputs])
  const answered = narrationsQuery.data
  const narrations = useMemo(() => {
    const map = new Map<string, TimelineNarration>()
    const fromServer = new Map(answered?.scenes.map((s) => [s.sceneId, s]) ?? [])
    for (const scene of scenes) {
      const known = fromServer.get(scene.nodeId)
      if (known) map.set(scene.nodeId, known)
      else {
        const text = scene.narration.trim()
        const durationMs = text ? estimateNarrationMs(text) : 0
        map.set(scene.nodeId, {
          durationMs,
          wavUrl: null,
          words: text ? estimateWordTimings(text, { startMs: 0, endMs: durationMs }) : [],
          estimated: true,
        })
      }
    }
    return map
  }, [answered, scenes])
  return useMemo(() => {
    const film = effectiveTimeline(readTimeline(registers.entries(), videoId), scenes, orderAfter)
    const media = (cut: FilmCut): CutMedia => ({
      clipMs: cut.scene.clip?.durationMs ?? null,
      narrationMs: narrations.get(cut.sceneId)?.durationMs ?? 0,
    })
    let plan: FilmPlan | null = null
    if (film.cuts.length > 0 || film.settings.titleMs > 0 || film.settings.endMs > 0) {
      plan = planFilm(film.cuts, film.settings, media)
    }
    return { film, plan, narrations, media, loading: narrationsQuery.isPending }
  }, [registers, videoId, scenes, narrations, narrationsQuery.isPending])
}
