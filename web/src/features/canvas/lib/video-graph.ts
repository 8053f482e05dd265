import type { VideoGraph } from '@reelgraph/shared'
import type { CanvasEdge, CanvasNode } from './node-types'

/**
 * The canvas's nodes and edges as the graph `collectVideoInputs` reads (issue 13 item 5):
 * flow data carries the fields it reads (scene number and narration, image URL, the Video
 * node's settings) under their stored names, so the hash matches the one the server computed
 * from the document when it rendered.
 */
export function canvasGraph(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): VideoGraph {
  return {
    nodes,
    connections: edges.map((e) => ({ source: e.source, target: e.target })),
  }
}
