import { useMemo, useState } from 'react'
import { createAccessibleEdges } from '../lib/edge-a11y'
import type { CanvasEdge } from '../lib/node-types'
import { useCanvasStore } from './use-canvas-store'

/**
 * The canvas's edges named by their nodes' labels and focusable only while selected
 * (issue 14 item 9; `lib/edge-a11y.ts`), stable between renders when nothing of that changed.
 * Labels are read from the store's node-data index, which a move or a drag leaves as it is
 * (issue 14 item 12: a drag frame derived every edge again from the whole node list).
 */
export function useAccessibleEdges(edges: readonly CanvasEdge[]): CanvasEdge[] {
  const [derive] = useState(createAccessibleEdges)
  const dataById = useCanvasStore((s) => s.dataById)
  return useMemo(() => derive(edges, (id) => dataById.get(id)?.label), [derive, edges, dataById])
}
