import {
  connectionKey,
  connectionSchema,
  type Graph,
  type GraphNode,
  graphNodeSchema,
  graphSchema,
} from '@reelgraph/shared'

/**
 * The graph held in a project's `nodes` / `connections` JSON columns, as seeded into its
 * Y.Doc. The api validates what it writes, so this is normally `graphSchema` as is; rows
 * written by anything older or looser are salvaged rather than refused: nodes that are not
 * valid nodes, repeated node ids, and connections that are invalid, repeated, self-loops or
 * point at missing nodes are dropped.
 */
export function graphFromStoredJson(nodes: unknown, connections: unknown): Graph {
  const strict = graphSchema.safeParse({ nodes, connections })
  if (strict.success) return strict.data
  const kept: GraphNode[] = []
  const ids = new Set<string>()
  for (const raw of Array.isArray(nodes) ? nodes : []) {
    const node = graphNodeSchema.safeParse(raw)
    if (node.success && !ids.has(node.data.id)) {
      ids.add(node.data.id)
      kept.push(node.data)
    }
  }
  const seen = new Set<string>()
  const keptConnections = []
  for (const raw of Array.isArray(connections) ? connections : []) {
    const c = connectionSchema.safeParse(raw)
    if (!c.success) continue
    const { source, target } = c.data
    const key = connectionKey(c.data)
    if (source === target || !ids.has(source) || !ids.has(target) || seen.has(key)) continue
    seen.add(key)
    keptConnections.push({ source, target })
  }
  return { nodes: kept, connections: keptConnections }
}
