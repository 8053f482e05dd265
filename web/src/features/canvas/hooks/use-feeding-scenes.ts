import { useMemo } from 'react'
import { useCanvasStore, useCanvasStoreApi } from './use-canvas-store'

/**
 * The labels of the scenes connected to node `id` (either way), joined with ", " in the
 * canvas's order: which scene feeds an image generator's prompt (issue 14 item 6).
 * Recomputed only when the connections or some node's data change, never while nodes are
 * dragged (issue 14 item 12: no whole-graph work per frame in a node).
 */
export function useFeedingScenes(id: string): string {
  const store = useCanvasStoreApi()
  const edges = useCanvasStore((s) => s.edges)
  const dataById = useCanvasStore((s) => s.dataById)
  return useMemo(() => {
    const linked = new Set<string>()
    for (const e of edges) {
      if (e.source === id) linked.add(e.target)
      else if (e.target === id) linked.add(e.source)
    }
    if (linked.size === 0) return ''
    return store
      .getState()
      .nodes.filter((n) => n.type === 'scene' && linked.has(n.id))
      .map((n) => dataById.get(n.id)?.label ?? n.data.label)
      .join(', ')
  }, [store, edges, dataById, id])
}
