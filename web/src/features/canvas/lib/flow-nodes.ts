import { type Connection, connectionKey, type GraphNode, readNodeData } from '@reelgraph/shared'
import type * as Y from 'yjs'
import type { CanvasEdge, CanvasNode } from './node-types'

/**
 * The mapping between the project's Y.Doc (read through shared `readNode`) and React Flow
 * state. React Flow keeps what is local to this screen — selection, measured size, the
 * position of a node being dragged — and the doc owns the rest. Updates are incremental:
 * only nodes a transaction touched are rebuilt, and an unchanged node keeps its object, so
 * its memoized component does not render again (1,000 nodes stay smooth).
 */

/**
 * The data a node's component shows: its label and connection points, and its data as its
 * type reads it (shared `readNodeData`: older shapes migrated, missing or mistyped fields at
 * their defaults, a generator node's job fields when it has them, issue 12).
 */
export function toFlowData(node: GraphNode): CanvasNode['data'] {
  return {
    label: node.label,
    connectionPoints: node.connectionPoints,
    ...readNodeData(node.type, node.data),
  } as CanvasNode['data']
}

/** Equal data values: the same value, or lists with the same content (a Video node's takes). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  return Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b)
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ak = Object.keys(a)
  if (ak.length !== Object.keys(b).length) return false
  for (const k of ak) if (!sameValue(a[k], b[k])) return false
  return true
}

/**
 * The React Flow node for a doc node, named by its label for assistive technology. With `previous` (the same node as React Flow holds
 * it), keeps its local state (selection, measured size, dragging) and, while it is being
 * dragged here, its live position. Returns `previous` itself when nothing visible changed.
 */
export function toFlowNode(node: GraphNode, previous?: CanvasNode): CanvasNode {
  const data = toFlowData(node)
  if (!previous) {
    return {
      id: node.id,
      type: node.type,
      position: { ...node.position },
      data,
      ariaLabel: node.label,
    } as CanvasNode
  }
  const position = previous.dragging
    ? previous.position
    : previous.position.x === node.position.x && previous.position.y === node.position.y
      ? previous.position
      : { ...node.position }
  const sameData = shallowEqual(previous.data, data)
  if (previous.type === node.type && position === previous.position && sameData) return previous
  return {
    ...previous,
    type: node.type,
    position,
    data: sameData ? previous.data : data,
    ariaLabel: node.label,
  } as CanvasNode
}

/** The React Flow edge of a connection: a bezier line ('default') keyed by `connectionKey`. */
export function toFlowEdge(c: Connection, previous?: CanvasEdge): CanvasEdge {
  if (previous && previous.source === c.source && previous.target === c.target) return previous
  // Smooth steps leave by the output side and go round nodes in their way, instead of a
  // curve back across the source (issue 14 item 5).
  return { id: connectionKey(c), source: c.source, target: c.target, type: 'smoothstep' }
}

/**
 * The ids of the nodes a transaction touched, from the events of `observeDeep` on the
 * nodes map: keys of the map itself (added, removed, replaced), and the first path
 * segment of nested events (a node's label, position or data changed).
 */
export function touchedNodeIds(
  events: readonly Y.YEvent<Y.AbstractType<unknown>>[],
  nodesMap: object,
): Set<string> {
  const ids = new Set<string>()
  for (const event of events) {
    if (event.target === nodesMap) {
      for (const key of event.changes.keys.keys()) ids.add(key)
    } else {
      const first = event.path[0]
      if (typeof first === 'string') ids.add(first)
    }
  }
  return ids
}

/**
 * React Flow's nodes after the doc nodes `touched` changed: each is rebuilt from `read`
 * (null = gone), new ones are appended, the rest keep their objects. Returns `current`
 * itself when nothing changed.
 */
export function reconcileNodes(
  current: readonly CanvasNode[],
  touched: Iterable<string>,
  read: (id: string) => GraphNode | null,
): CanvasNode[] {
  const index = new Map<string, number>()
  current.forEach((n, i) => index.set(n.id, i))
  let next: CanvasNode[] | null = null
  const removed = new Set<string>()
  const added: CanvasNode[] = []
  for (const id of touched) {
    const node = read(id)
    const at = index.get(id)
    if (at === undefined) {
      if (node) added.push(toFlowNode(node))
      continue
    }
    if (!node) {
      removed.add(id)
      continue
    }
    const prev = (next ?? current)[at] as CanvasNode
    const updated = toFlowNode(node, prev)
    if (updated !== prev) {
      next ??= [...current]
      next[at] = updated
    }
  }
  if (!next && removed.size === 0 && added.length === 0) return current as CanvasNode[]
  let result = next ?? [...current]
  if (removed.size > 0) result = result.filter((n) => !removed.has(n.id))
  if (added.length > 0) result.push(...added)
  return result
}

/**
 * React Flow's edges after the connection keys `touched` changed: `read` gives the
 * connection under a key, or null when it is gone. Returns `current` when nothing changed.
 */
export function reconcileEdges(
  current: readonly CanvasEdge[],
  touched: Iterable<string>,
  read: (key: string) => Connection | null,
): CanvasEdge[] {
  const byId = new Map(current.map((e) => [e.id, e]))
  let changed = false
  for (const key of touched) {
    const c = read(key)
    const prev = byId.get(key)
    if (!c) {
      if (prev) {
        byId.delete(key)
        changed = true
      }
      continue
    }
    const edge = toFlowEdge(c, prev)
    if (edge !== prev) {
      byId.set(key, edge)
      changed = true
    }
  }
  return changed ? [...byId.values()] : (current as CanvasEdge[])
}
