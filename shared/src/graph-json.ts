import type { Connection, Graph, GraphNode } from './graph.ts'

/**
 * The JSON of a graph as UTF-8 bytes, built from the JSON of its parts (issue 23: a REST
 * autosave answers the whole stored graph, about 200 KB for 300 nodes, each second, and only
 * one node differs from the answer before).
 *
 * The bytes of a frozen node (its position and data frozen too) and of a frozen connections
 * array (of frozen connections) are encoded once and kept with the object (a WeakMap: gone
 * with it); anything that can still change is encoded each time, so a caller that changes
 * its objects never gets stale JSON. `graphAsApplied` answers frozen
 * graphs whose unchanged nodes are the objects of its answer before.
 */
const fragments = new WeakMap<object, Uint8Array>()
const encoder = new TextEncoder()

const OPEN = encoder.encode('{"nodes":[')
const COMMA = encoder.encode(',')
const CONNECTIONS = encoder.encode('],"connections":')
const CLOSE = encoder.encode('}')

/** The JSON bytes of `value`, kept for the object while it lives when it cannot change. */
function fragment<T extends object>(value: T, immutable: (value: T) => boolean): Uint8Array {
  const kept = fragments.get(value)
  if (kept) return kept
  const bytes = encoder.encode(JSON.stringify(value))
  if (immutable(value)) fragments.set(value, bytes)
  return bytes
}

function immutableNode(node: GraphNode): boolean {
  return Object.isFrozen(node) && Object.isFrozen(node.position) && Object.isFrozen(node.data)
}

function immutableConnections(connections: readonly Connection[]): boolean {
  return Object.isFrozen(connections) && connections.every((c) => Object.isFrozen(c))
}

/**
 * `{"nodes":[…],"connections":[…]}` for `graph`: the same JSON text as
 * `JSON.stringify({ nodes: graph.nodes, connections: graph.connections })`, as UTF-8 bytes.
 */
export function encodeGraphJson(graph: Graph): Uint8Array {
  const parts: Uint8Array[] = [OPEN]
  graph.nodes.forEach((node, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(fragment(node, immutableNode))
  })
  parts.push(CONNECTIONS, fragment(graph.connections, immutableConnections), CLOSE)
  let length = 0
  for (const part of parts) length += part.byteLength
  const bytes = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.byteLength
  }
  return bytes
}
