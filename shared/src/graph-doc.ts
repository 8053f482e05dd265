import * as Y from 'yjs'
import {
  type Connection,
  CONNECTION_POINTS,
  type ConnectionPoints,
  connectionKey,
  type Graph,
  type GraphNode,
  NODE_KEYS,
  NODE_TYPES,
  type NodeData,
  type NodeDataValue,
  type NodeType,
} from './graph.ts'
import { removeTimelines } from './timeline-doc.ts'

/**
 * A project's Y.Doc and its mapping to the REST JSON (issue 3 item 4).
 *
 * Shape: two top-level Y.Maps.
 * - `nodes`: node id -> Y.Map { type, label, position: {x, y}, data: Y.Map<value>, connectionPoints }
 * - `connections`: "source->target" -> { source, target }
 *
 * `position` is one plain value, so a move is one atomic write (last writer wins per node);
 * `data` is a nested Y.Map, so two people editing different fields of a node both keep
 * their edit. Every function here is pure over the doc and sockets-free.
 */

/** Name of the top-level nodes map. */
export const DOC_NODES_KEY = 'nodes'
/** Name of the top-level connections map. */
export const DOC_CONNECTIONS_KEY = 'connections'

/** A node as stored in the doc. */
export type YNode = Y.Map<unknown>

/** The doc's nodes map. */
export function getNodesMap(doc: Y.Doc): Y.Map<YNode> {
  return doc.getMap<YNode>(DOC_NODES_KEY)
}

/** The doc's connections map. */
export function getConnectionsMap(doc: Y.Doc): Y.Map<Connection> {
  return doc.getMap<Connection>(DOC_CONNECTIONS_KEY)
}

/** True when the doc holds no node and no connection. */
export function isDocEmpty(doc: Y.Doc): boolean {
  return getNodesMap(doc).size === 0 && getConnectionsMap(doc).size === 0
}

function isDataValue(v: unknown): v is NodeDataValue {
  return (
    typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
  )
}

/**
 * Reads one node of the doc, or null when its stored shape is not a node (foreign writes
 * are skipped rather than crashing readers).
 */
export function readNode(id: string, ynode: unknown): GraphNode | null {
  if (!(ynode instanceof Y.Map)) return null
  const ydata = ynode.get('data')
  return readNodeFields(id, ynode, ydata instanceof Y.Map ? ydata.entries() : null)
}

/**
 * {@link readNode} over any reading of a stored node: `fields` answers its keys as a Y.Map's
 * `get` would, `data` lists its data map's entries (null when it has none). The graph index
 * reads its nodes through it too (`graphIndexNodes`), so both read a node alike.
 */
export function readNodeFields(
  id: string,
  fields: { get(key: string): unknown },
  data: Iterable<[string, unknown]> | null,
): GraphNode | null {
  const type = fields.get('type')
  const position = fields.get('position') as { x?: unknown; y?: unknown } | undefined
  if (typeof type !== 'string' || !(NODE_TYPES as readonly string[]).includes(type)) return null
  if (!position || typeof position.x !== 'number' || typeof position.y !== 'number') return null
  const values: NodeData = {}
  for (const [key, value] of data ?? []) if (isDataValue(value)) values[key] = value
  const label = fields.get('label')
  const points = fields.get('connectionPoints')
  return {
    id,
    type: type as NodeType,
    label: typeof label === 'string' ? label : '',
    position: { x: position.x, y: position.y },
    data: values,
    connectionPoints: (CONNECTION_POINTS as readonly string[]).includes(points as string)
      ? (points as ConnectionPoints)
      : 'both',
  }
}

/**
 * The REST JSON of a doc: nodes sorted by id, connections sorted by key, and connections
 * whose ends are missing (a connect racing a delete) left out.
 */
export function docToGraph(doc: Y.Doc): Graph {
  const nodes: GraphNode[] = []
  for (const [id, ynode] of getNodesMap(doc).entries()) {
    const node = readNode(id, ynode)
    if (node) nodes.push(node)
  }
  nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const ids = new Set(nodes.map((n) => n.id))
  const connections = [...getConnectionsMap(doc).entries()]
    .filter(([, c]) => c && ids.has(c.source) && ids.has(c.target) && c.source !== c.target)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => ({ source: c.source, target: c.target }))
  return { nodes, connections }
}

/**
 * What {@link docToGraph} answers for a doc right after `applyGraphToDoc(doc, graph)`,
 * computed from `graph` alone (issue 23: the REST autosave answers the stored graph without
 * reading the whole doc back): nodes by id (the last of a repeated id), connections by key,
 * once, without self-connections or ends that are not nodes of the graph. Data keys may come
 * in another order than the doc keeps them.
 *
 * The answer is frozen (its nodes, their positions and data, its connections), so it can be
 * kept and its JSON reused (`encodeGraphJson`). Given `previous`, the answer this function
 * gave for the same doc before, a node object of `previous` found in `graph` is kept as it is
 * (it is already as applied), and so are `previous`'s connections when they are the same:
 * an autosave that moves one node makes one new node object.
 */
export function graphAsApplied(graph: Graph, previous?: Graph): Graph {
  const byId = new Map<string, GraphNode>()
  for (const node of graph.nodes) byId.set(node.id, node)
  const nodes = (previous && inOrderOf(previous.nodes, byId)) ?? sortedById(byId, previous)
  const byKey = new Map<string, Connection>()
  for (const c of graph.connections) {
    if (c.source !== c.target && byId.has(c.source) && byId.has(c.target)) {
      byKey.set(connectionKey(c), c)
    }
  }
  if (
    previous &&
    previous.connections.length === byKey.size &&
    previous.connections.every((c) => byKey.has(connectionKey(c)))
  ) {
    return Object.freeze({ nodes, connections: previous.connections })
  }
  const connections = [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => Object.freeze({ source: c.source, target: c.target }))
  return Object.freeze({ nodes, connections: Object.freeze(connections) as Connection[] })
}

/** The nodes of `byId` sorted by id, keeping `previous`'s objects given again. */
function sortedById(byId: Map<string, GraphNode>, previous?: Graph): GraphNode[] {
  const kept = new Set<GraphNode>(previous?.nodes)
  const nodes = [...byId.values()]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((node) => (kept.has(node) ? node : frozenNode(node)))
  return Object.freeze(nodes) as GraphNode[]
}

/**
 * The nodes of `byId` in the order of `previous` (sorted by id), keeping `previous`'s objects
 * given again; null when the ids are not exactly `previous`'s (then they are sorted anew).
 */
function inOrderOf(previous: readonly GraphNode[], byId: Map<string, GraphNode>) {
  if (previous.length !== byId.size) return null
  const nodes: GraphNode[] = []
  for (const was of previous) {
    const node = byId.get(was.id)
    if (!node) return null
    nodes.push(node === was ? was : frozenNode(node))
  }
  return Object.freeze(nodes) as GraphNode[]
}

/** A node's keys in the order a node as applied holds them (its JSON's order). */
const APPLIED_NODE_KEYS = [...NODE_KEYS]

/** Whether `node` is already as {@link frozenNode} makes it: frozen, with exactly its keys in order. */
function isFrozenNode(node: GraphNode): boolean {
  if (!Object.isFrozen(node) || !Object.isFrozen(node.position) || !Object.isFrozen(node.data)) {
    return false
  }
  let i = 0
  for (const key in node) if (key !== APPLIED_NODE_KEYS[i++]) return false
  return i === APPLIED_NODE_KEYS.length
}

/**
 * `node` frozen, holding exactly a node's keys (its position and data frozen too): the node
 * itself when it already is (a project's stored nodes, read frozen for a first save: their
 * JSON, encoded for the body's read, serves the answer too), else a frozen copy.
 */
function frozenNode(node: GraphNode): GraphNode {
  if (isFrozenNode(node)) return node
  const { id, type, label, position, data, connectionPoints } = node
  return Object.freeze({
    id,
    type,
    label,
    position: Object.isFrozen(position)
      ? position
      : Object.freeze({ x: position.x, y: position.y }),
    data: Object.isFrozen(data) ? data : Object.freeze({ ...data }),
    connectionPoints,
  })
}

/** A new Y.Map holding `node` (to insert into the nodes map). */
export function nodeToYMap(node: GraphNode): YNode {
  const ynode = new Y.Map<unknown>()
  ynode.set('type', node.type)
  ynode.set('label', node.label)
  ynode.set('position', { x: node.position.x, y: node.position.y })
  const data = new Y.Map<NodeDataValue>()
  for (const [key, value] of Object.entries(node.data)) data.set(key, value)
  ynode.set('data', data)
  ynode.set('connectionPoints', node.connectionPoints)
  return ynode
}

function updateYNode(ynode: YNode, node: GraphNode): void {
  if (ynode.get('type') !== node.type) ynode.set('type', node.type)
  if (ynode.get('label') !== node.label) ynode.set('label', node.label)
  if (ynode.get('connectionPoints') !== node.connectionPoints) {
    ynode.set('connectionPoints', node.connectionPoints)
  }
  const pos = ynode.get('position') as { x: number; y: number } | undefined
  if (!pos || pos.x !== node.position.x || pos.y !== node.position.y) {
    ynode.set('position', { x: node.position.x, y: node.position.y })
  }
  let data = ynode.get('data')
  if (!(data instanceof Y.Map)) {
    data = new Y.Map<NodeDataValue>()
    ynode.set('data', data)
  }
  const ydata = data as Y.Map<NodeDataValue>
  // Deleting marks an entry deleted without removing it from the map being iterated.
  for (const key of ydata.keys()) if (!(key in node.data)) ydata.delete(key)
  for (const key in node.data) {
    const value = node.data[key]!
    if (ydata.get(key) !== value) ydata.set(key, value)
  }
}

/**
 * Makes the doc hold exactly `graph`, writing only what differs (so concurrent editors
 * keep their unrelated edits), in one transaction with `origin`. Used to seed a doc from
 * stored JSON and to apply a REST PATCH to the live doc.
 */
export function applyGraphToDoc(doc: Y.Doc, graph: Graph, origin: unknown = null): void {
  doc.transact(() => {
    const nodes = getNodesMap(doc)
    const wanted = new Map(graph.nodes.map((n) => [n.id, n]))
    // Deleting marks an entry deleted without removing it from the map being iterated.
    for (const id of nodes.keys()) if (!wanted.has(id)) nodes.delete(id)
    for (const node of graph.nodes) {
      const existing = nodes.get(node.id)
      if (existing instanceof Y.Map) updateYNode(existing, node)
      else nodes.set(node.id, nodeToYMap(node))
    }
    setConnections(doc, graph.connections)
  }, origin)
}

/**
 * Makes a doc that holds exactly `previous` (a {@link graphAsApplied} answer, the doc
 * unchanged since) hold `next` (`graphAsApplied(graph, previous)`): the same doc as
 * `applyGraphToDoc(doc, next)`, in one transaction with `origin`, touching only the nodes of
 * `next` that are not `previous`'s own objects, the nodes `next` lacks, and the connections
 * when `next`'s are not `previous`'s array. A REST autosave moves one node of hundreds
 * (issue 23).
 */
export function applyGraphChangeToDoc(
  doc: Y.Doc,
  previous: Graph,
  next: Graph,
  origin: unknown = null,
): void {
  const kept = new Set<GraphNode>(previous.nodes)
  doc.transact(() => {
    const nodes = getNodesMap(doc)
    const ids = new Set<string>()
    for (const node of next.nodes) {
      ids.add(node.id)
      if (kept.has(node)) continue
      const existing = nodes.get(node.id)
      if (existing instanceof Y.Map) updateYNode(existing, node)
      else nodes.set(node.id, nodeToYMap(node))
    }
    for (const { id } of previous.nodes) if (!ids.has(id)) nodes.delete(id)
    if (next.connections !== previous.connections) setConnections(doc, next.connections)
  }, origin)
}

/** Makes the doc's connections exactly `connections` (by key), writing only what differs. */
function setConnections(doc: Y.Doc, wanted: readonly Connection[]): void {
  const connections = getConnectionsMap(doc)
  const byKey = new Map(wanted.map((c) => [connectionKey(c), c]))
  for (const key of [...connections.keys()]) if (!byKey.has(key)) connections.delete(key)
  for (const [key, c] of byKey) {
    if (!connections.has(key)) connections.set(key, { source: c.source, target: c.target })
  }
}

/** Adds a node (one transaction). */
export function addNode(doc: Y.Doc, node: GraphNode, origin: unknown = null): void {
  doc.transact(() => getNodesMap(doc).set(node.id, nodeToYMap(node)), origin)
}

/** Moves nodes: `positions` maps node id -> {x, y}; unknown ids are ignored. */
export function moveNodes(
  doc: Y.Doc,
  positions: ReadonlyMap<string, { x: number; y: number }>,
  origin: unknown = null,
): void {
  const nodes = getNodesMap(doc)
  doc.transact(() => {
    for (const [id, p] of positions) {
      const ynode = nodes.get(id)
      if (ynode instanceof Y.Map && Number.isFinite(p.x) && Number.isFinite(p.y)) {
        ynode.set('position', { x: p.x, y: p.y })
      }
    }
  }, origin)
}

/** Sets some data fields of one node; unknown ids are ignored. */
export function updateNodeData(
  doc: Y.Doc,
  id: string,
  patch: NodeData,
  origin: unknown = null,
): void {
  const ynode = getNodesMap(doc).get(id)
  if (!(ynode instanceof Y.Map)) return
  doc.transact(() => {
    let data = ynode.get('data')
    if (!(data instanceof Y.Map)) {
      data = new Y.Map<NodeDataValue>()
      ynode.set('data', data)
    }
    for (const [key, value] of Object.entries(patch)) {
      if ((data as Y.Map<NodeDataValue>).get(key) !== value)
        (data as Y.Map<NodeDataValue>).set(key, value)
    }
  }, origin)
}

/**
 * Removes nodes, every connection that touches them (spec §4) and the timelines of the Video
 * nodes among them (issue 24), in one transaction.
 */
export function removeNodes(doc: Y.Doc, ids: Iterable<string>, origin: unknown = null): void {
  const gone = new Set(ids)
  doc.transact(() => {
    const nodes = getNodesMap(doc)
    for (const id of gone) nodes.delete(id)
    const connections = getConnectionsMap(doc)
    for (const [key, c] of [...connections.entries()]) {
      if (gone.has(c.source) || gone.has(c.target)) connections.delete(key)
    }
    removeTimelines(doc, gone)
  }, origin)
}

/**
 * Adds a connection. A duplicate (same source and target), a self-connection or one whose
 * ends are not nodes is ignored (spec §4).
 * @returns true when the connection was added.
 */
export function addConnection(doc: Y.Doc, c: Connection, origin: unknown = null): boolean {
  const key = connectionKey(c)
  const nodes = getNodesMap(doc)
  const connections = getConnectionsMap(doc)
  if (
    c.source === c.target ||
    connections.has(key) ||
    !nodes.has(c.source) ||
    !nodes.has(c.target)
  ) {
    return false
  }
  doc.transact(() => connections.set(key, { source: c.source, target: c.target }), origin)
  return true
}

/** Removes connections by key ("source->target"). */
export function removeConnections(
  doc: Y.Doc,
  keys: Iterable<string>,
  origin: unknown = null,
): void {
  const connections = getConnectionsMap(doc)
  doc.transact(() => {
    for (const key of keys) connections.delete(key)
  }, origin)
}
