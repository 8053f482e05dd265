import { collectVideoInputs, type VideoInputs } from '@reelgraph/shared'
import { useMemo } from 'react'
import { canvasGraph } from '../lib/video-graph'
import { useCanvasStore } from './use-canvas-store'

/**
 * What Video node `id` would render now (issue 13 item 5): its scenes in order with their
 * images, those without one, and the inputs' hash for Stale. The selector answers a string,
 * so the node renders again only when that changed (not when a node is dragged).
 */
export function useVideoInputs(id: string): VideoInputs | null {
  const json = useCanvasStore((s) =>
    JSON.stringify(collectVideoInputs(canvasGraph(s.nodes, s.edges), id)),
  )
  return useMemo(() => JSON.parse(json) as VideoInputs | null, [json])
}
