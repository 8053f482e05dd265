import { filmHash, storedTimelineOf } from '@reelgraph/shared'
import { useMemo } from 'react'
import { useCanvasStore } from './use-canvas-store'

/**
 * What a render of Video node `id` would depend on now (shared's `filmHash`): its graph
 * inputs' hash (`inputsHash`, null when it has none) with its timeline, so a timeline edit
 * makes the last take Stale as a graph edit does (issue 24 item 1).
 */
export function useFilmHash(id: string, inputsHash: string | null): string | null {
  const timelines = useCanvasStore((s) => s.timelines)
  return useMemo(
    () => (inputsHash === null ? null : filmHash(inputsHash, storedTimelineOf(timelines, id))),
    [timelines, id, inputsHash],
  )
}
