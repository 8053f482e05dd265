import { readNodeData } from '@reelgraph/shared'
import { useMemo } from 'react'
import { useCanvasStore, useCanvasStoreApi } from './use-canvas-store'

/** An image node connected to a Video Generator: a start image or last frame to pick. */
export interface ConnectedImage {
  id: string
  label: string
  /** Its picture's asset URL ('' while it has none). */
  imageUrl: string
}

/**
 * The image nodes connected to node `id` (either way), in the canvas's order, with their
 * labels and pictures: what a Video Generator may start or end on (issue 22 item 3).
 * Recomputed only when the connections or some node's data change, never while nodes are
 * dragged (as `useFeedingScenes`).
 */
export function useConnectedImages(id: string): ConnectedImage[] {
  const store = useCanvasStoreApi()
  const edges = useCanvasStore((s) => s.edges)
  const dataById = useCanvasStore((s) => s.dataById)
  const json = useMemo(() => {
    const linked = new Set<string>()
    for (const e of edges) {
      if (e.source === id) linked.add(e.target)
      else if (e.target === id) linked.add(e.source)
    }
    if (linked.size === 0) return '[]'
    const images: ConnectedImage[] = []
    for (const n of store.getState().nodes) {
      if (n.type !== 'image' || !linked.has(n.id)) continue
      const data = dataById.get(n.id) ?? n.data
      images.push({ id: n.id, label: data.label, imageUrl: readNodeData('image', data).imageUrl })
    }
    return JSON.stringify(images)
  }, [store, edges, dataById, id])
  // The same list object while its content is the same, so the node's memos hold.
  return useMemo(() => JSON.parse(json) as ConnectedImage[], [json])
}
