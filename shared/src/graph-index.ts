import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'
import {
  type DocCounts,
  type DocReader,
  type DocRefusal,
  entriesRefusal,
  type MapOf,
  type StoredMap,
  type TouchedEntries,
} from './doc-validation.ts'
import { type Connection, connectionKey, type Graph, type GraphNode } from './graph.ts'
import { DOC_CONNECTIONS_KEY, DOC_NODES_KEY, readNodeFields } from './graph-doc.ts'
import { isJsonValue } from './graph-json.ts'
import { DOC_TIMELINES_KEY } from './timeline.ts'

/**
 * A project document's graph as its map keys' last items (issue 23, decision 021): for every
 * key of the `nodes` and `connections` Y.Maps, and of each node's own map and `data` map, the
 * id of the key's last Yjs item and its value while present. That is all a Y.Map set needs
 * (its origin is the key's last item, and it deletes the present one), so a REST autosave
 * can be written as a Yjs update from this index without decoding the stored document into
 * a Y.Doc (2.5–3.4 ms and 1.9 MB for a 300-node project, against 1.1 ms and 0.55 MB here:
 * `npm run first-read -w bench`).
 *
 * {@link writeGraphToIndex} writes what `applyGraphToDoc` / `applyGraphChangeToDoc` would
 * (the same keys set and deleted, the same origins, its own client's clocks), so applying the
 * update to the stored document gives the document those functions give; the property tests
 * (`graph-index.test.ts`) check it against them. The index stays exact only while nothing
 * else changes the document: its holder reads it anew after any other change.
 *
 * Persisted beside the snapshot (`project_documents.graph_index`, {@link encodeGraphIndex}),
 * so a process that has not seen a project reads this instead of the snapshot.
 */

/** A value the index cannot compare: a Yjs type other than a map of entries, or a non-JSON value. */
export const OTHER_VALUE: Readonly<Record<string, never>> = Object.freeze({})

/** One key of a Y.Map: its last item (client, first clock, length) and its value. */
export interface IndexedKey {
  client: number
  clock: number
  length: number
  /**
   * What `Y.Map.get` answers: a JSON value, an {@link IndexedMap} for a nested Y.Map of
   * entries, {@link OTHER_VALUE} for anything else; undefined once deleted.
   */
  value: unknown
}

/** Past this many keys a map looks its keys up in a Map (the nodes and connections maps). */
const SCANNED_KEYS = 16

/**
 * A Y.Map of the document as its keys' last items; readable as the rules read a map.
 *
 * Kept compact, because a REST writer keeps one index per project it writes and the
 * collector traces them all on every full collection (issue 23, decision 021's amendment):
 * the keys in one array, their items' ids in one array of numbers (unboxed: nothing for the
 * collector to trace), their values in a third, each made to the size given when known; a
 * node's map (about a dozen keys) finds a key by scanning, a map past SCANNED_KEYS keys
 * through a Map of slots.
 */
export class IndexedMap implements StoredMap {
  /** A top-level map's name; null for a nested map (its item's id is `ids[0]`, `ids[1]`). */
  readonly #name: string | null
  /** Every key recorded (deleted ones too) in slots 0 to count - 1, in the Y.Map's order. */
  readonly #keys: string[]
  /** The parent item's client and clock, then per slot: client, first clock, length. */
  readonly #ids: number[]
  readonly #values: unknown[]
  #count = 0
  #slots: Map<string, number> | null = null
  #present = 0

  /**
   * @param parent a top-level name, or the id of the map's own item
   * @param size how many keys it will be given (its arrays are made to that size; more fit)
   */
  constructor(parent: string | Y.ID, size = 0) {
    this.#name = typeof parent === 'string' ? parent : null
    this.#keys = new Array<string>(size)
    this.#values = new Array<unknown>(size)
    this.#ids = new Array<number>(2 + 3 * size).fill(0)
    if (typeof parent !== 'string') {
      this.#ids[0] = parent.client
      this.#ids[1] = parent.clock
    }
  }

  /** The map's parent for a new key: a top-level name, or the id of the map's own item. */
  get parent(): string | Y.ID {
    return this.#name ?? Y.createID(this.#ids[0]!, this.#ids[1]!)
  }

  /** Present keys, in the order the Y.Map gives them. */
  *keys(): Iterable<string> {
    for (let slot = 0; slot < this.#count; slot++) {
      if (this.#values[slot] !== undefined) yield this.#keys[slot]!
    }
  }

  get(key: string): unknown {
    const slot = this.#slot(key)
    return slot < 0 ? undefined : this.#values[slot]
  }

  get size(): number {
    return this.#present
  }

  /** `key`'s last item and value; undefined when the map never had the key. */
  last(key: string): IndexedKey | undefined {
    const slot = this.#slot(key)
    return slot < 0 ? undefined : this.#entry(slot)
  }

  /** Every key ever recorded (deleted ones with value undefined), in order. */
  *entries(): Iterable<[string, IndexedKey]> {
    for (let slot = 0; slot < this.#count; slot++) yield [this.#keys[slot]!, this.#entry(slot)]
  }

  /**
   * Records `key`'s new last item, `length` clocks from `clock` of `client`, and its value
   * (undefined: deleted). A key recorded before keeps its place.
   */
  record(key: string, client: number, clock: number, length: number, value: unknown): void {
    let slot = this.#slot(key)
    if (slot < 0) {
      slot = this.#count++
      this.#keys[slot] = key
      if (this.#slots) this.#slots.set(key, slot)
      else if (this.#count > SCANNED_KEYS) {
        this.#slots = new Map()
        for (let i = 0; i < this.#count; i++) this.#slots.set(this.#keys[i]!, i)
      }
    }
    if (this.#values[slot] !== undefined) this.#present -= 1
    if (value !== undefined) this.#present += 1
    const at = 2 + slot * 3
    this.#ids[at] = client
    this.#ids[at + 1] = clock
    this.#ids[at + 2] = length
    this.#values[slot] = value
  }

  #slot(key: string): number {
    if (this.#slots) return this.#slots.get(key) ?? -1
    for (let slot = 0; slot < this.#count; slot++) if (this.#keys[slot] === key) return slot
    return -1
  }

  #entry(slot: number): IndexedKey {
    const at = 2 + slot * 3
    const ids = this.#ids
    return {
      client: ids[at]!,
      clock: ids[at + 1]!,
      length: ids[at + 2]!,
      value: this.#values[slot],
    }
  }
}

/** A project document's graph maps as their keys' last items. */
export interface GraphIndex {
  nodes: IndexedMap
  connections: IndexedMap
  /** Registers of the `timelines` map (never written through the index). */
  timelineRegisters: number
  /** Every client of the document's state vector (a writer's own client is none of them). */
  clients: Set<number>
}

function indexedItem(item: Y.Item): IndexedKey {
  const { client, clock } = item.id
  let value: unknown
  if (item.deleted) value = undefined
  else if (item.content instanceof Y.ContentType) {
    const type = item.content.type
    value =
      type instanceof Y.Map && type._start === null
        ? indexedMap(type, Y.createID(client, clock))
        : OTHER_VALUE
  } else {
    const content = item.content.getContent()
    const last: unknown = content[content.length - 1]
    value = isJsonValue(last) ? last : OTHER_VALUE
  }
  return { client, clock, length: item.length, value }
}

function indexedMap(map: Y.Map<unknown>, parent: string | Y.ID): IndexedMap {
  const indexed = new IndexedMap(parent, map._map.size)
  for (const [key, item] of map._map) {
    const { client, clock, length, value } = indexedItem(item)
    indexed.record(key, client, clock, length, value)
  }
  return indexed
}

/** The index of a document's graph maps as the document holds them now. */
export function graphIndexOfDoc(doc: Y.Doc): GraphIndex {
  return {
    nodes: indexedMap(doc.getMap(DOC_NODES_KEY), DOC_NODES_KEY),
    connections: indexedMap(doc.getMap(DOC_CONNECTIONS_KEY), DOC_CONNECTIONS_KEY),
    timelineRegisters: doc.getMap(DOC_TIMELINES_KEY).size,
    clients: new Set(doc.store.clients.keys()),
  }
}

/** Persisted form of a key: [key, client, clock, length, kind, value]. */
type KeyRow = [string, number, number, number, number, unknown?]
const KIND_DELETED = 0
const KIND_VALUE = 1
const KIND_MAP = 2
const KIND_OTHER = 3

function keyRows(map: IndexedMap): KeyRow[] {
  const rows: KeyRow[] = []
  for (const [key, { client, clock, length, value }] of map.entries()) {
    if (value === undefined) rows.push([key, client, clock, length, KIND_DELETED])
    else if (value instanceof IndexedMap) {
      rows.push([key, client, clock, length, KIND_MAP, keyRows(value)])
    } else if (value === OTHER_VALUE) rows.push([key, client, clock, length, KIND_OTHER])
    else rows.push([key, client, clock, length, KIND_VALUE, value])
  }
  return rows
}

function mapOfRows(rows: unknown, parent: string | Y.ID): IndexedMap {
  if (!Array.isArray(rows)) throw new Error('not a key list')
  // A key given twice keeps its first place and its last item, as a Map of the rows would.
  const map = new IndexedMap(parent, rows.length)
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length < 5) throw new Error('not a key row')
    const [key, client, clock, length, kind, value] = row as KeyRow
    if (
      typeof key !== 'string' ||
      !Number.isSafeInteger(client) ||
      !Number.isSafeInteger(clock) ||
      !Number.isSafeInteger(length) ||
      length < 1
    ) {
      throw new Error('not a key row')
    }
    // JSON.parse gives JSON values only (null among them: a row of six with a null value).
    if (
      !Number.isInteger(kind) ||
      kind < KIND_DELETED ||
      kind > KIND_OTHER ||
      (kind === KIND_VALUE && row.length < 6)
    ) {
      throw new Error('not a key row')
    }
    const read =
      kind === KIND_DELETED
        ? undefined
        : kind === KIND_MAP
          ? mapOfRows(value, Y.createID(client, clock))
          : kind === KIND_OTHER
            ? OTHER_VALUE
            : value
    map.record(key, client, clock, length, read)
  }
  return map
}

/**
 * The most characters one line of the persisted index holds, unless a single key's row is
 * longer. A string of this many characters stays under V8's largest regular heap object
 * (128 KB), even as UTF-16: a larger one is allocated in V8's large-object space, mapped
 * afresh for each string, which is slow on this project's machines (Firecracker VMs).
 * Reading a 300-node project's index took 1.3–1.5 ms line by line against 2.5–2.7 ms from
 * one string (`npm run first-read -w bench`; decision 021, amended).
 */
export const GRAPH_INDEX_LINE_CHARS = 60_000

/** The first line of a persisted index (v2): what the lines after it are. */
interface IndexHeader {
  v: 2
  written: string
  clients: number[]
  timelineRegisters: number
  /** How many lines of node rows follow, then how many of connection rows. */
  lines: { nodes: number; connections: number }
}

/** `rows` as JSON arrays of rows, each line at most GRAPH_INDEX_LINE_CHARS (or one row). */
function rowLines(rows: KeyRow[]): string[] {
  const lines: string[] = []
  let line: string[] = []
  let chars = 2
  for (const row of rows) {
    const text = JSON.stringify(row)
    if (line.length > 0 && chars + text.length + 1 > GRAPH_INDEX_LINE_CHARS) {
      lines.push(`[${line.join(',')}]`)
      line = []
      chars = 2
    }
    line.push(text)
    chars += text.length + 1
  }
  if (line.length > 0) lines.push(`[${line.join(',')}]`)
  return lines
}

/**
 * The persisted form of `index` (`project_documents.graph_index`, written in the same
 * statement as the snapshot it was made from): lines of JSON separated by `\n` (which JSON
 * text never holds unescaped), a header and then the nodes' and the connections' key rows in
 * lines of at most GRAPH_INDEX_LINE_CHARS, so a reader can take it line by line
 * (`readProjectGraphIndex` has Postgres split it) and never makes one large string. Each text
 * is unique (`written`), so the database can tell a statement that wrote a new index from
 * one that kept the old.
 */
export function encodeGraphIndex(index: GraphIndex): string {
  const nodes = rowLines(keyRows(index.nodes))
  const connections = rowLines(keyRows(index.connections))
  const header: IndexHeader = {
    v: 2,
    written: crypto.randomUUID(),
    clients: [...index.clients],
    timelineRegisters: index.timelineRegisters,
    lines: { nodes: nodes.length, connections: connections.length },
  }
  return [JSON.stringify(header), ...nodes, ...connections].join('\n')
}

/** The key rows of `lines` (JSON arrays of rows) as one list. */
function rowsOfLines(lines: readonly string[]): unknown[] {
  const rows: unknown[] = []
  for (const line of lines) {
    const parsed: unknown = JSON.parse(line)
    if (!Array.isArray(parsed)) throw new Error('not a line of key rows')
    for (const row of parsed) rows.push(row)
  }
  return rows
}

/**
 * Reads {@link encodeGraphIndex}'s text, whole or as its lines (what
 * `readProjectGraphIndex` reads), and the single JSON text of the first version (`v: 1`,
 * written before 2026-11-28 and kept until the project's next compaction).
 * @returns null when it is not an index (then the snapshot is decoded)
 */
export function decodeGraphIndex(text: string | readonly string[]): GraphIndex | null {
  try {
    const lines = typeof text === 'string' ? text.split('\n') : text
    const parsed = JSON.parse(lines[0] ?? '') as Record<string, unknown>
    const { clients, timelineRegisters } = parsed
    if (!Array.isArray(clients) || !clients.every((c) => Number.isSafeInteger(c))) return null
    if (!Number.isSafeInteger(timelineRegisters)) return null
    let nodes: unknown
    let connections: unknown
    if (parsed.v === 1 && lines.length === 1) {
      nodes = parsed.nodes
      connections = parsed.connections
    } else if (parsed.v === 2) {
      const counts = (parsed as Partial<IndexHeader>).lines
      const nodeLines = counts?.nodes ?? -1
      const connectionLines = counts?.connections ?? -1
      const count = (n: number) => Number.isSafeInteger(n) && n >= 0
      if (!count(nodeLines) || !count(connectionLines)) return null
      if (lines.length !== 1 + nodeLines + connectionLines) return null
      nodes = rowsOfLines(lines.slice(1, 1 + nodeLines))
      connections = rowsOfLines(lines.slice(1 + nodeLines))
    } else return null
    return {
      nodes: mapOfRows(nodes, DOC_NODES_KEY),
      connections: mapOfRows(connections, DOC_CONNECTIONS_KEY),
      timelineRegisters: timelineRegisters as number,
      clients: new Set(clients as number[]),
    }
  } catch {
    return null
  }
}

/**
 * The nodes of the document `index` describes, as `docToGraph` reads them (the same nodes
 * and values, a node whose stored shape is not a node left out), in the index's key order:
 * what a REST autosave's first save on a project compares its body with (issue 23).
 */
export function graphIndexNodes(index: GraphIndex): GraphNode[] {
  const nodes: GraphNode[] = []
  for (const id of index.nodes.keys()) {
    const value = index.nodes.get(id)
    if (!(value instanceof IndexedMap)) continue
    const data = value.get('data')
    const node = readNodeFields(id, value, data instanceof IndexedMap ? presentEntries(data) : null)
    if (node) nodes.push(node)
  }
  return nodes
}

/** The present keys of `map` with their values. */
function* presentEntries(map: IndexedMap): Generator<[string, unknown]> {
  for (const key of map.keys()) yield [key, map.get(key)]
}

/** A client id the document has not used (Yjs' own are random 32-bit numbers too). */
export function newClientId(used: ReadonlySet<number>): number {
  const random = new Uint32Array(1)
  do crypto.getRandomValues(random)
  while (used.has(random[0]!))
  return random[0]!
}

/** The Yjs items and deletions of one write, encoded as one update (v1) at the end. */
class UpdateBuilder {
  private readonly client: number
  private readonly firstClock: number
  private clock: number
  private readonly items: Y.Item[] = []
  private readonly deletions = new Map<number, [number, number][]>()
  readonly touched: TouchedEntries = {
    nodes: new Set(),
    nodeData: new Map(),
    connections: new Set(),
    registers: new Set(),
  }

  constructor(client: number, clock: number) {
    this.client = client
    this.firstClock = clock
    this.clock = clock
  }

  get nextClock(): number {
    return this.clock
  }

  /** How many sets and deletions were written so far. */
  writes = 0

  /** `map.set(key, value)`: a new item after the key's last one, deleting the present one. */
  set(map: IndexedMap, key: string, value: unknown): void {
    const last = map.last(key)
    const id = Y.createID(this.client, this.clock++)
    const origin = last ? Y.createID(last.client, last.clock + last.length - 1) : null
    const content =
      value instanceof IndexedMap ? new Y.ContentType(new Y.Map()) : new Y.ContentAny([value])
    // Yjs writes the parent only for an item without origin (a key set for the first time).
    const parent = (origin ? null : map.parent) as unknown as Y.AbstractType<unknown>
    this.items.push(new Y.Item(id, null, origin, null, null, parent, key, content))
    this.writes += 1
    if (last) this.deleteItem(last)
    map.record(key, this.client, id.clock, 1, value)
  }

  /** A new nested map under `key` (its entries are set into it after). */
  setMap(map: IndexedMap, key: string): IndexedMap {
    const nested = new IndexedMap(Y.createID(this.client, this.clock))
    this.set(map, key, nested)
    return nested
  }

  /** `map.delete(key)`: deletes the present item (a nested map's present items with it). */
  delete(map: IndexedMap, key: string): void {
    const last = map.last(key)
    if (!last || last.value === undefined) return
    this.writes += 1
    this.deleteItem(last)
    map.record(key, last.client, last.clock, last.length, undefined)
  }

  private deleteItem(entry: IndexedKey): void {
    if (entry.value === undefined) return
    const ranges = this.deletions.get(entry.client) ?? []
    ranges.push([entry.clock, entry.length])
    this.deletions.set(entry.client, ranges)
    // As Yjs deletes a map's content with it (`ContentType.delete`).
    if (entry.value instanceof IndexedMap) {
      for (const [, child] of entry.value.entries()) this.deleteItem(child)
    }
  }

  /** The update (Yjs v1), or null when nothing was written. */
  encode(): Uint8Array | null {
    if (this.items.length === 0 && this.deletions.size === 0) return null
    const encoder = new Y.UpdateEncoderV1()
    const rest = encoder.restEncoder
    encoding.writeVarUint(rest, this.items.length > 0 ? 1 : 0)
    if (this.items.length > 0) {
      encoding.writeVarUint(rest, this.items.length)
      encoder.writeClient(this.client)
      encoding.writeVarUint(rest, this.firstClock)
      for (const item of this.items) item.write(encoder, 0)
    }
    // The delete set: clients in descending order, each one's ranges sorted and merged.
    encoding.writeVarUint(rest, this.deletions.size)
    for (const client of [...this.deletions.keys()].sort((a, b) => b - a)) {
      const ranges = merged(this.deletions.get(client)!)
      encoder.resetDsCurVal()
      encoding.writeVarUint(rest, client)
      encoding.writeVarUint(rest, ranges.length)
      for (const [clock, length] of ranges) {
        encoder.writeDsClock(clock)
        encoder.writeDsLen(length)
      }
    }
    return encoder.toUint8Array()
  }
}

/** `ranges` ([clock, length]) sorted by clock, touching or overlapping ones merged. */
function merged(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  for (const [clock, length] of sorted) {
    const last = out[out.length - 1]
    if (last && clock <= last[0] + last[1]) {
      last[1] = Math.max(last[1], clock + length - last[0])
    } else out.push([clock, length])
  }
  return out
}

/** Writes a node's fields as `updateYNode` does (graph-doc.ts), noting which data keys changed. */
function updateNode(w: UpdateBuilder, ynode: IndexedMap, node: GraphNode): Set<string> | 'all' {
  let changed: Set<string> | 'all' = new Set()
  if (ynode.get('type') !== node.type) {
    w.set(ynode, 'type', node.type)
    changed = 'all'
  }
  if (ynode.get('label') !== node.label) w.set(ynode, 'label', node.label)
  if (ynode.get('connectionPoints') !== node.connectionPoints) {
    w.set(ynode, 'connectionPoints', node.connectionPoints)
  }
  const pos = ynode.get('position') as { x?: unknown; y?: unknown } | undefined
  if (!pos || pos.x !== node.position.x || pos.y !== node.position.y) {
    w.set(ynode, 'position', { x: node.position.x, y: node.position.y })
  }
  let data = ynode.get('data')
  if (!(data instanceof IndexedMap)) {
    data = w.setMap(ynode, 'data')
    changed = 'all'
  }
  const ydata = data as IndexedMap
  for (const key of [...ydata.keys()]) {
    if (!(key in node.data)) {
      w.delete(ydata, key)
      if (changed !== 'all') changed.add(key)
    }
  }
  for (const key in node.data) {
    const value = node.data[key]!
    if (ydata.get(key) !== value) {
      w.set(ydata, key, value)
      if (changed !== 'all') changed.add(key)
    }
  }
  return changed
}

/** Sets a new node map under its id, as `nodeToYMap` builds it. */
function insertNode(w: UpdateBuilder, nodes: IndexedMap, node: GraphNode): void {
  const ynode = w.setMap(nodes, node.id)
  w.set(ynode, 'type', node.type)
  w.set(ynode, 'label', node.label)
  w.set(ynode, 'position', { x: node.position.x, y: node.position.y })
  const data = w.setMap(ynode, 'data')
  for (const [key, value] of Object.entries(node.data)) w.set(data, key, value)
  w.set(ynode, 'connectionPoints', node.connectionPoints)
}

/** Writes `node` over whatever its id holds (a node map is updated, anything else replaced). */
function writeNode(w: UpdateBuilder, nodes: IndexedMap, node: GraphNode): void {
  const existing = nodes.get(node.id)
  const writes = w.writes
  let changed: Set<string> | 'all'
  if (existing instanceof IndexedMap) changed = updateNode(w, existing, node)
  else {
    insertNode(w, nodes, node)
    changed = 'all'
  }
  if (w.writes > writes) {
    // A repeated id: what the earlier write of it changed stays changed.
    const was = w.touched.nodeData.get(node.id)
    w.touched.nodes.add(node.id)
    w.touched.nodeData.set(
      node.id,
      was === 'all' || changed === 'all' ? 'all' : new Set([...(was ?? []), ...changed]),
    )
  }
}

/** Makes the connections exactly `wanted` (by key), as `setConnections` does. */
function writeConnections(
  w: UpdateBuilder,
  connections: IndexedMap,
  wanted: readonly Connection[],
) {
  const byKey = new Map(wanted.map((c) => [connectionKey(c), c]))
  for (const key of [...connections.keys()]) {
    if (!byKey.has(key)) {
      w.delete(connections, key)
      w.touched.connections.add(key)
    }
  }
  for (const [key, c] of byKey) {
    if (connections.get(key) === undefined) {
      w.set(connections, key, { source: c.source, target: c.target })
      w.touched.connections.add(key)
    }
  }
}

/** What {@link writeGraphToIndex} wrote. */
export interface GraphIndexWrite {
  /** The Yjs update (v1), or null when the document already held the graph. */
  update: Uint8Array | null
  /** Where it wrote, and the counts before (what `entriesRefusal` checks it with). */
  touched: TouchedEntries
  before: DocCounts
  /** The write's client clock after it (the next write starts there). */
  nextClock: number
}

/**
 * Writes `graph` into the document `index` describes, as `applyGraphToDoc` would, or, given
 * `previous` (a `graphAsApplied` answer the document holds exactly, nothing else having
 * changed it since) and `graph` being `graphAsApplied(…, previous)`, as
 * `applyGraphChangeToDoc` would: only the nodes that are not `previous`'s own objects. The
 * index is updated to the document after the update.
 *
 * @param client the writer's own client id (not in `index.clients`), `clock` its next clock
 * @returns the update and where it wrote; apply it to the stored document to get the doc
 *   those functions give
 */
export function writeGraphToIndex(options: {
  index: GraphIndex
  graph: Graph
  previous?: Graph | undefined
  client: number
  clock: number
}): GraphIndexWrite {
  const { index, graph, previous } = options
  const w = new UpdateBuilder(options.client, options.clock)
  const before = counts(index)
  const { nodes } = index
  if (previous) {
    const kept = new Set<GraphNode>(previous.nodes)
    const ids = new Set<string>()
    for (const node of graph.nodes) {
      ids.add(node.id)
      if (!kept.has(node)) writeNode(w, nodes, node)
    }
    for (const { id } of previous.nodes) if (!ids.has(id)) deleteNode(w, nodes, id)
    if (graph.connections !== previous.connections) {
      writeConnections(w, index.connections, graph.connections)
    }
  } else {
    const wanted = new Set(graph.nodes.map((n) => n.id))
    for (const id of [...nodes.keys()]) if (!wanted.has(id)) deleteNode(w, nodes, id)
    for (const node of graph.nodes) writeNode(w, nodes, node)
    writeConnections(w, index.connections, graph.connections)
  }
  return { update: w.encode(), touched: w.touched, before, nextClock: w.nextClock }
}

function deleteNode(w: UpdateBuilder, nodes: IndexedMap, id: string): void {
  if (nodes.get(id) === undefined) return
  w.delete(nodes, id)
  w.touched.nodes.add(id)
  w.touched.nodeData.set(id, 'all')
}

function counts(index: GraphIndex): DocCounts {
  return {
    nodes: index.nodes.size,
    connections: index.connections.size,
    timelineRegisters: index.timelineRegisters,
  }
}

const indexMapOf: MapOf = (value) => (value instanceof IndexedMap ? value : null)

/**
 * Checks a {@link writeGraphToIndex} write by the rules of every document change
 * (`entriesRefusal`), reading the index as the document after it.
 */
export function graphIndexWriteRefusal(
  index: GraphIndex,
  write: GraphIndexWrite,
): DocRefusal | null {
  const reader: DocReader = {
    counts: () => counts(index),
    // The index never writes a timeline register, so the rules never read them.
    timelines: () => new IndexedMap(DOC_TIMELINES_KEY),
    node: (id) => index.nodes.get(id),
    connection: (key) => index.connections.get(key),
    mapOf: indexMapOf,
  }
  return entriesRefusal(write.touched, reader, write.before)
}
