import { collectVideoInputs, type Graph, type GraphNode, type VideoInputs } from '@reelgraph/shared'
import { useMemo } from 'react'
import type { CanvasEdge, CanvasNode } from '../lib/node-types'
import { useCanvasStore } from './use-canvas-store'

/** The canvas as shared's graph, with the fields `collectVideoInputs` reads. */
function graphOf(nodes: readonly CanvasNode[], edges: readonly CanvasEdge[]): Graph {
  return {
    nodes: nodes.map(
      (n) =>
        ({
          id: n.id,
          type: n.type,
          label: n.data.label,
          position: n.position,
          data: n.data as GraphNode['data'],
          connectionPoints: n.data.connectionPoints,
        }) as GraphNode,
    ),
    connections: edges.map((e) => ({ source: e.source, target: e.target })),
  }
}

/**
 * What Video node `id` would render now (issue 13 item 5): its scenes in order with their
 * images, those without one, and the inputs' hash for Stale. The selector answers a string,
 * so the node renders again only when that changed (not when a node is dragged).
 */
export function useVideoInputs(id: string): VideoInputs | null {
  const json = useCanvasStore((s) =>
    JSON.stringify(collectVideoInputs(graphOf(s.nodes, s.edges), id)),
  )
  return useMemo(() => JSON.parse(json) as VideoInputs | null, [json])
}
