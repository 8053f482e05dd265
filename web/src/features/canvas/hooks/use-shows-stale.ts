import { nodeStaleness, showsStale } from '@reelgraph/shared'
import { canvasGraph } from '../lib/video-graph'
import { useCanvasStore } from './use-canvas-store'

/**
 * Whether generator `id` shows "Stale" beside its run button (issue 42 item 4): it has a
 * result, made from inputs (its own fields, or the results it reads) that changed since
 * (shared's `nodeStaleness`). The selector answers a boolean, so the node renders again only
 * when that changes.
 */
export function useShowsStale(id: string): boolean {
  return useCanvasStore((s) => {
    const staleness = nodeStaleness(canvasGraph(s.nodes, s.edges), id)
    return staleness !== null && showsStale(staleness)
  })
}
