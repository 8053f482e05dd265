import type { Graph, GraphNode } from '@reelgraph/shared'
import type { CanvasEdge, CanvasNode } from './node-types'

/**
 * The canvas's nodes and edges as shared's graph, for `collectVideoInputs` (issue 13 item 5):
 * flow data carries the fields it reads (scene number and narration, image URL, the Video
 * node's settings) under their stored names, so the hash matches the one the server computed
 * from the document when it rendered.
 */
export function canvasGraph(nodes: readonly CanvasNode[], edges: readonly CanvasEdge[]): Graph {
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
