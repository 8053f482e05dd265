import { useMemo, useState } from 'react'
import { createAccessibleEdges } from '../lib/edge-a11y'
import type { CanvasEdge, CanvasNode } from '../lib/node-types'

/**
 * The canvas's edges named by their nodes' labels and focusable only while selected
 * (issue 14 item 9; `lib/edge-a11y.ts`), stable between renders when nothing of that changed.
 */
export function useAccessibleEdges(
  edges: readonly CanvasEdge[],
  nodes: readonly CanvasNode[],
): CanvasEdge[] {
  const [derive] = useState(createAccessibleEdges)
  return useMemo(() => {
    const labels = new Map<string, string | undefined>()
    for (const node of nodes) labels.set(node.id, node.ariaLabel)
    return derive(edges, (id) => labels.get(id))
  }, [derive, edges, nodes])
}
