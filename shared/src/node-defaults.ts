import { createNodeId, type GraphNode } from './graph.ts'
import type { NodeFields } from './nodes/node-field.ts'
import type { NodeKind } from './nodes/node-kind.ts'
import { NODE_KINDS, type NodeType } from './nodes/registry.ts'

export { DEFAULT_CONNECTION_POINTS, defaultNodeData, NODE_TITLES } from './nodes/registry.ts'
export { nextSceneNumber } from './nodes/scene.ts'

/**
 * A new node of `type` at `position` with its type's defaults (`NODE_KINDS`), shared by the
 * canvas and the job worker that writes results into documents (issue 12). A scene is
 * numbered one past the highest scene number already on the canvas and labelled "Scene N".
 * @param id the node's id; default a fresh `<type>-<now>-<random>` ({@link createNodeId})
 */
export function createGraphNode(
  type: NodeType,
  position: { x: number; y: number },
  existing: readonly ExistingNode[] = [],
  now = Date.now(),
  id: string = createNodeId(type, now),
): GraphNode {
  const kind = NODE_KINDS[type] as NodeKind<NodeType, NodeFields>
  const created = kind.created?.(existing)
  return {
    id,
    type,
    label: created?.label ?? kind.title,
    position: { x: position.x, y: position.y },
    data: { ...kind.defaults(), ...(created && kind.store(created.data)) },
    connectionPoints: kind.connectionPoints,
  }
}

/**
 * What {@link createGraphNode} reads of the nodes already there: their type and data, as
 * stored (`GraphNode`) or as the canvas holds it (its flow data, with more fields).
 */
export interface ExistingNode {
  type: NodeType
  data: Readonly<Record<string, unknown>>
}
