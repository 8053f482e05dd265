import { CANVAS_COMPACT_NODE_ZOOM } from '@reelgraph/shared'
import { useStore } from '@xyflow/react'

/** True while the canvas is zoomed out far enough for nodes to show only a summary. */
export function useCompactNodes(): boolean {
  return useStore((s) => s.transform[2] < CANVAS_COMPACT_NODE_ZOOM)
}
