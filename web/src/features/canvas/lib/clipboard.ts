import {
  type Connection,
  connectionKey,
  createNodeId,
  type GraphNode,
  type NodeType,
} from '@reelgraph/shared'
import { withoutJobFields } from './job-state'

/** Copied nodes and the connections between them. */
export interface ClipboardContent {
  nodes: GraphNode[]
  connections: Connection[]
}

/**
 * What Ctrl+C copies: the selected nodes (deep copies) and only the connections whose two
 * ends are both selected.
 */
export function copyNodes(
  nodes: readonly GraphNode[],
  connections: readonly Connection[],
  selected: ReadonlySet<string>,
): ClipboardContent {
  const picked = nodes.filter((n) => selected.has(n.id))
  const ids = new Set(picked.map((n) => n.id))
  return {
    nodes: picked.map((n) => ({ ...n, position: { ...n.position }, data: { ...n.data } })),
    connections: connections
      .filter((c) => ids.has(c.source) && ids.has(c.target))
      .map((c) => ({ source: c.source, target: c.target })),
  }
}

/**
 * The copies to insert on paste: every node gets a new id (`makeId`) and moves by
 * `offset`, without the job state of its original (issue 12); connections follow their
 * ends to the new ids; duplicates are dropped.
 */
export function remapForPaste(
  content: ClipboardContent,
  offset: { x: number; y: number },
  makeId: (type: NodeType) => string = (type) => createNodeId(type),
): ClipboardContent {
  const ids = new Map<string, string>()
  const nodes = content.nodes.map((n) => {
    let id = makeId(n.type)
    while (ids.has(n.id) || [...ids.values()].includes(id)) id = makeId(n.type)
    ids.set(n.id, id)
    return {
      ...n,
      id,
      position: { x: n.position.x + offset.x, y: n.position.y + offset.y },
      data: withoutJobFields(n.data),
    }
  })
  const seen = new Set<string>()
  const connections: Connection[] = []
  for (const c of content.connections) {
    const source = ids.get(c.source)
    const target = ids.get(c.target)
    if (!source || !target || source === target) continue
    const next = { source, target }
    const key = connectionKey(next)
    if (seen.has(key)) continue
    seen.add(key)
    connections.push(next)
  }
  return { nodes, connections }
}
