import { getTimelinesMap, MUSIC_TRACKS, settingKey } from '@reelgraph/shared'
import type * as Y from 'yjs'

/**
 * Whether a person chose the music on Video node `videoId`'s timeline (its `music` register
 * is set, '' for none included), read from the project's document `doc`.
 */
export function musicChosen(doc: Y.Doc, videoId: string): boolean {
  return getTimelinesMap(doc).has(settingKey(videoId, 'music'))
}

/**
 * The music a film plays (issue 24 item 1), the one rule of the render and the export:
 * the timeline's `music` once a person chose it ('' none, `builtin:<track>`, or a project
 * asset's URL), else what the Video node's Music switch said before timelines (the first
 * builtin track when on, none when off).
 */
export function filmMusic({
  chosen,
  timelineMusic,
  nodeMusic,
}: {
  chosen: boolean
  timelineMusic: string
  nodeMusic: boolean
}): string {
  if (chosen) return timelineMusic
  return nodeMusic ? `builtin:${MUSIC_TRACKS[0]}` : ''
}
