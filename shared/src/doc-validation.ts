import * as Y from 'yjs'
import {
  CONNECTION_POINTS,
  MAX_CONNECTIONS,
  MAX_DATA_KEYS,
  MAX_LABEL_LENGTH,
  MAX_NODES,
  MAX_TEXT_FIELD_BYTES,
  NODE_ID_MAX_LENGTH,
  NODE_ID_PATTERN,
  NODE_TYPES,
  utf8Bytes,
} from './graph.ts'
import { DOC_CONNECTIONS_KEY, DOC_NODES_KEY } from './graph-doc.ts'
import { nodeDataProblem } from './nodes/registry.ts'
import { DOC_TIMELINES_KEY } from './timeline.ts'
import {
  MAX_TIMELINE_REGISTERS,
  timelineCutsProblem,
  timelineRegisterProblem,
} from './timeline-rules.ts'
import { UPDATE_REFUSAL_REASONS, type UpdateRefusalReason } from './sync.ts'
import { textProblem } from './text.ts'

/**
 * The rules every change to a project's Y.Doc must keep, whoever sends it (issue 11): the
 * same as REST's graph schema (`graph.ts`). They are written once, here, in three layers:
 *
 * 1. Where a change may land ({@link touchedEntries}): only under the top-level maps `nodes`,
 *    `connections` and `timelines`, as map entries, with nothing nested inside a connection
 *    or a timeline register.
 * 2. The limits and each touched entry as it is after the change ({@link entriesRefusal}):
 *    read through a {@link DocReader}, so the same rules run on a document the change was
 *    applied to ({@link validateDocChange}, what the tests use as their oracle) and on the
 *    sync server's reading of an update's structs before it is applied (issue 23,
 *    decision 011).
 * 3. The per-value checks a node and a connection are made of ({@link nodeTypeRefusal},
 *    {@link nodeLabelRefusal}, {@link nodePositionRefusal}, {@link nodeDataRefusal},
 *    {@link dataValueRefusal}, {@link connectionRefusal}, ...): small functions; a data value
 *    the change wrote must also be one its node type's schema reads (`nodeDataProblem`,
 *    issue 21 item 3), and a timeline register one its field allows (`timeline-rules.ts`,
 *    issue 24).
 *
 * Only what a change touched is read, so a one-node move on a 1,000-node document checks one
 * node.
 *
 * The document shape (`graph-doc.ts`): top-level Y.Maps `nodes` (id -> Y.Map with `type`,
 * `label`, `position` {x, y}, `data` Y.Map of string | number | boolean, `connectionPoints`)
 * and `connections` ("source->target" -> {source, target}), and the `timelines` registers
 * of the Video nodes' timelines (`timeline.ts`). Nothing else: a document
 * stored before issue 14 may hold an `editor` map (a clock bump the canvas no longer
 * writes, replaced by the `saved` snapshot of `save-ack.ts`); it loads as it is, and a
 * change to it is refused like any other unknown top-level type.
 */

/** Why a change was refused: a reason code from `shared/sync.ts` and what exactly, for logs. */
export interface DocRefusal {
  reason: UpdateRefusalReason
  detail: string
}

/** Which keys a stored node may have (what `nodeToYMap` writes). */
const NODE_KEYS = new Set(['type', 'label', 'position', 'data', 'connectionPoints'])
/** Longest data key (the REST schema's `z.string().max(64)`). */
const MAX_DATA_KEY_LENGTH = 64

/** The counts a change is measured against: the doc's before it was applied. */
export interface DocCounts {
  nodes: number
  connections: number
  /** Registers of the `timelines` map. */
  timelineRegisters: number
}

/** How many nodes, connections and timeline registers `doc` holds. */
export function docCounts(doc: Y.Doc): DocCounts {
  return {
    nodes: doc.getMap(DOC_NODES_KEY).size,
    connections: doc.getMap(DOC_CONNECTIONS_KEY).size,
    timelineRegisters: doc.getMap(DOC_TIMELINES_KEY).size,
  }
}

/**
 * Which data keys of a node a change wrote: all of them (a new node, a new data map, a new
 * type), or some. Values must be readable by the node type's schema only where the change
 * wrote them: a value stored before that rule (read as its default) does not block edits of
 * the node's other fields.
 */
export type ChangedDataKeys = 'all' | ReadonlySet<string>

const refuse = (reason: UpdateRefusalReason, detail: string): DocRefusal => ({ reason, detail })

/** A short, log-safe rendering of an id or key a client sent. */
function shown(key: string): string {
  const cut = key.length > 40 ? `${key.slice(0, 40)}… (${key.length} characters)` : key
  return JSON.stringify(cut)
}

function textRefusal(text: string, what: string): DocRefusal | null {
  const problem = textProblem(text)
  if (problem) return refuse(UPDATE_REFUSAL_REASONS.invalidText, `${what} ${problem}`)
  return null
}

/** True for a plain JSON object value (not a Yjs type, not an array). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Y.AbstractType) &&
    !(value instanceof Uint8Array)
  )
}

/**
 * A stored map as the rules read it: its present keys (in the order Y.Map gives them), a
 * key's value, and how many keys it has. A Y.Map is one; the sync server's reading of an
 * update is another.
 */
export interface StoredMap {
  keys(): Iterable<string>
  get(key: string): unknown
  readonly size: number
}

/**
 * Reads a stored value as a map: the map, or null when the value is not a Y.Map holding
 * map entries only (list content, which a Y.Array sent under its name adds, makes it none).
 */
export type MapOf = (value: unknown) => StoredMap | null

/** {@link MapOf} for values read off a Y.Doc. */
export const yMapOf: MapOf = (value) =>
  value instanceof Y.Map && value._start === null ? (value as Y.Map<unknown>) : null

/** Refuses `id` unless it is a node id of the spec (`<type>-<timestamp>-<suffix>`). */
export function nodeIdRefusal(id: string): DocRefusal | null {
  if (id.length > NODE_ID_MAX_LENGTH || !NODE_ID_PATTERN.test(id)) {
    return refuse(UPDATE_REFUSAL_REASONS.invalidNode, `node id ${shown(id)} is not a node id`)
  }
  return null
}

/** Where a problem is, for a refusal's detail: `node "<id>"`. */
export function nodeAt(id: string): string {
  return `node ${shown(id)}`
}

const badNode = (detail: string) => refuse(UPDATE_REFUSAL_REASONS.invalidNode, detail)

/** Refuses a field name a stored node may not have (`at` names the node). */
export function nodeFieldRefusal(at: string, key: string): DocRefusal | null {
  return NODE_KEYS.has(key) ? null : badNode(`${at} has an unknown field ${shown(key)}`)
}

/** Refuses a present `type` that is not a node type of the spec (undefined: missing, allowed). */
export function nodeTypeRefusal(at: string, type: unknown): DocRefusal | null {
  if (type === undefined || (NODE_TYPES as readonly unknown[]).includes(type)) return null
  return badNode(`${at} has no node type of the spec`)
}

/** Refuses a present `label` that is not text of at most MAX_LABEL_LENGTH safe characters. */
export function nodeLabelRefusal(at: string, label: unknown): DocRefusal | null {
  if (label === undefined) return null
  if (typeof label !== 'string') return badNode(`${at} has a label that is not text`)
  if (label.length > MAX_LABEL_LENGTH) return badNode(`${at} has a label over 200 characters`)
  return textRefusal(label, `${at} label`)
}

/** Refuses a present `position` that is not a plain `{x, y}` of finite numbers. */
export function nodePositionRefusal(at: string, position: unknown): DocRefusal | null {
  if (
    position === undefined ||
    (isPlainObject(position) &&
      Object.keys(position).length === 2 &&
      typeof position.x === 'number' &&
      typeof position.y === 'number' &&
      Number.isFinite(position.x) &&
      Number.isFinite(position.y))
  ) {
    return null
  }
  return badNode(`${at} has a position that is not finite {x, y}`)
}

/** Refuses present `connectionPoints` that are not one of CONNECTION_POINTS. */
export function connectionPointsRefusal(at: string, points: unknown): DocRefusal | null {
  if (points === undefined || (CONNECTION_POINTS as readonly unknown[]).includes(points)) {
    return null
  }
  return badNode(`${at} has unknown connection points`)
}

/** Refuses a data key that is empty, over 64 characters or holds a character Postgres refuses. */
export function dataKeyRefusal(at: string, key: string): DocRefusal | null {
  if (key.length === 0 || key.length > MAX_DATA_KEY_LENGTH) {
    return badNode(`${at} has a data key of ${key.length} characters`)
  }
  return textRefusal(key, `${at} data key`)
}

/** Refuses a data value that is not safe text of at most 100 KB, a finite number or a boolean. */
export function dataValueRefusal(key: string, value: unknown, at: string): DocRefusal | null {
  const what = `${at} data ${shown(key)}`
  if (typeof value === 'string') {
    if (value.length > MAX_TEXT_FIELD_BYTES || utf8Bytes(value) > MAX_TEXT_FIELD_BYTES) {
      return refuse(UPDATE_REFUSAL_REASONS.textTooLong, `${what} is over 100 KB`)
    }
    return textRefusal(value, what)
  }
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
    return null
  }
  return refuse(
    UPDATE_REFUSAL_REASONS.invalidNode,
    `${what} is not a string, a finite number or a boolean`,
  )
}

/**
 * Refuses a node's `data` field: not a map, more than MAX_DATA_KEYS keys, a bad key or value,
 * or, among the keys the change wrote (`changed`), a value its node type's schema cannot read
 * (`nodeDataProblem`; `type` is the node's type, undefined when missing).
 */
export function nodeDataRefusal(
  at: string,
  type: unknown,
  data: unknown,
  mapOf: MapOf = yMapOf,
  changed: ChangedDataKeys = 'all',
): DocRefusal | null {
  if (data === undefined) return null
  const map = mapOf(data)
  if (!map) return badNode(`${at} has a data field that is not a map`)
  if (map.size > MAX_DATA_KEYS) return badNode(`${at} has more than ${MAX_DATA_KEYS} data fields`)
  for (const key of map.keys()) {
    const value = map.get(key)
    const problem = dataKeyRefusal(at, key) ?? dataValueRefusal(key, value, at)
    if (problem) return problem
    if (changed === 'all' || changed.has(key)) {
      const unreadable = nodeDataProblem(type, key, value)
      if (unreadable) return badNode(`${at} ${unreadable}`)
    }
  }
  return null
}

/**
 * What is wrong with the node stored under `id`, or null when it is a node of the spec (or
 * was deleted).
 *
 * A field may be missing (readers then skip the node, as `readNode` does): concurrent or
 * out-of-order changes make such nodes for a while, e.g. a move whose new position waits
 * for an earlier update while its deletion of the old one is already applied. Missing a
 * field is no worse than the deletion an editor may make anyway; a value that is present
 * must be right.
 * @param mapOf how stored values are read as maps (default: Y.Maps of a document)
 * @param changedData the data keys the change wrote ({@link ChangedDataKeys})
 */
export function nodeRefusal(
  id: string,
  value: unknown,
  mapOf: MapOf = yMapOf,
  changedData: ChangedDataKeys = 'all',
): DocRefusal | null {
  if (value === undefined) return null
  const idProblem = nodeIdRefusal(id)
  if (idProblem) return idProblem
  const at = nodeAt(id)
  const node = mapOf(value)
  if (!node) return badNode(`${at} is not a map`)
  for (const key of node.keys()) {
    const problem = nodeFieldRefusal(at, key)
    if (problem) return problem
  }
  const type = node.get('type')
  return (
    nodeTypeRefusal(at, type) ??
    nodeLabelRefusal(at, node.get('label')) ??
    nodePositionRefusal(at, node.get('position')) ??
    connectionPointsRefusal(at, node.get('connectionPoints')) ??
    nodeDataRefusal(at, type, node.get('data'), mapOf, changedData)
  )
}

/** What is wrong with the connection stored under `key`, or null (also when deleted). */
export function connectionRefusal(key: string, value: unknown): DocRefusal | null {
  if (value === undefined) return null
  const bad = (detail: string) => refuse(UPDATE_REFUSAL_REASONS.invalidConnection, detail)
  const at = `connection ${shown(key)}`
  if (!isPlainObject(value) || Object.keys(value).length !== 2) {
    return bad(`${at} is not {source, target}`)
  }
  const { source, target } = value
  if (typeof source !== 'string' || typeof target !== 'string') {
    return bad(`${at} has ends that are not node ids`)
  }
  const idProblem = nodeIdRefusal(source) ?? nodeIdRefusal(target)
  if (idProblem) return bad(`${at}: ${idProblem.detail}`)
  if (source === target) return bad(`${at} connects a node to itself`)
  if (key !== `${source}->${target}`) return bad(`${at} is not stored under "source->target"`)
  // An end that is not (or no longer) a node is allowed: a connect racing a delete makes one,
  // and readers leave it out (`docToGraph`).
  return null
}

/**
 * Where a change landed: a top-level type (by name; null for a name the change made up that
 * is not `nodes` or `connections`, shown as `?`), whether it landed in a type nested below it,
 * the key it changed there (null for list content), and the key under which that nested
 * type's branch hangs in the top-level type (null when it hangs in list content).
 */
export interface ChangeSite {
  root: string | null
  nested: boolean
  key: string | null
  /** For a nested site: the top-level key of its branch. Equal to `key` at the top level. */
  branchKey: string | null
  /**
   * For a nested site: the keys from the top-level type down to the type the change landed
   * in (`[nodeId]` for a node's map, `[nodeId, 'data']` for its data); null when the branch
   * passes through list content. Empty at the top level.
   */
  path: (string | null)[]
}

/** The node ids, connection keys and timeline registers a change touched. */
export interface TouchedEntries {
  nodes: Set<string>
  /** Per touched node, the data keys the change wrote. */
  nodeData: Map<string, ChangedDataKeys>
  connections: Set<string>
  registers: Set<string>
}

/**
 * The entries the change touched, or why it may not land where it did: anything outside
 * `nodes` and `connections`, list content in either, or a type nested in a connection.
 * @param sites every place the change wrote or deleted (what `Y.Transaction.changed` records)
 */
export function touchedEntries(sites: Iterable<ChangeSite>): TouchedEntries | DocRefusal {
  const shape = (detail: string) => refuse(UPDATE_REFUSAL_REASONS.documentShape, detail)
  const touched: TouchedEntries = {
    nodes: new Set(),
    nodeData: new Map(),
    connections: new Set(),
    registers: new Set(),
  }
  const dataChanged = (id: string, key: string | null | 'all') => {
    const known = touched.nodeData.get(id) ?? new Set<string>()
    if (known === 'all') return
    if (key === 'all') touched.nodeData.set(id, 'all')
    else touched.nodeData.set(id, key === null ? known : new Set([...known, key]))
  }
  for (const site of sites) {
    if (site.root === DOC_NODES_KEY) {
      if (site.branchKey === null) return shape('"nodes" holds list content; it is a map')
      touched.nodes.add(site.branchKey)
      const depth = site.path.length
      if (!site.nested) dataChanged(site.branchKey, 'all')
      // The node's own map: a new data map or a new type makes every data value new.
      else if (depth === 1 && (site.key === 'data' || site.key === 'type')) {
        dataChanged(site.branchKey, 'all')
      } else if (depth === 2 && site.path[1] === 'data') dataChanged(site.branchKey, site.key)
      else dataChanged(site.branchKey, null)
    } else if (site.root === DOC_TIMELINES_KEY) {
      if (site.nested) return shape('a timeline register holds a nested type')
      if (site.key === null) return shape('"timelines" holds list content; it is a map')
      touched.registers.add(site.key)
    } else if (site.root === DOC_CONNECTIONS_KEY) {
      if (site.nested) return shape('a connection holds a nested type')
      if (site.key === null) return shape('"connections" holds list content; it is a map')
      touched.connections.add(site.key)
    } else {
      return shape(`unknown top-level type ${shown(site.root ?? '?')}`)
    }
  }
  return touched
}

/** A document after a change, as {@link entriesRefusal} reads it. */
export interface DocReader {
  /** How many nodes, connections and timeline registers it holds. */
  counts(): DocCounts
  /** The `timelines` map (its registers) after the change. */
  timelines(): StoredMap
  /** The value under a node id (undefined when there is none). */
  node(id: string): unknown
  /** The value under a connection key (undefined when there is none). */
  connection(key: string): unknown
  /** How the values it gives are read as maps. */
  mapOf: MapOf
}

/**
 * The limits, then each touched entry as the document holds it after the change.
 * @param before the counts before the change: limits refuse a change that adds past
 *   MAX_NODES / MAX_CONNECTIONS, never one that shrinks an oversized project
 */
export function entriesRefusal(
  touched: TouchedEntries,
  after: DocReader,
  before: DocCounts,
): DocRefusal | null {
  if (touched.nodes.size === 0 && touched.connections.size === 0 && touched.registers.size === 0) {
    return null
  }
  const counts = after.counts()
  if (touched.nodes.size > 0 && counts.nodes > MAX_NODES && counts.nodes > before.nodes) {
    return refuse(UPDATE_REFUSAL_REASONS.tooManyNodes, `${counts.nodes} nodes`)
  }
  for (const id of touched.nodes) {
    const changed = touched.nodeData.get(id) ?? new Set<string>()
    const problem = nodeRefusal(id, after.node(id), after.mapOf, changed)
    if (problem) return problem
  }
  if (
    touched.connections.size > 0 &&
    counts.connections > MAX_CONNECTIONS &&
    counts.connections > before.connections
  ) {
    return refuse(UPDATE_REFUSAL_REASONS.tooManyConnections, `${counts.connections} connections`)
  }
  for (const key of touched.connections) {
    const problem = connectionRefusal(key, after.connection(key))
    if (problem) return problem
  }
  return timelineRefusal(touched.registers, after, before)
}

/**
 * The timeline registers a change wrote (issue 24 item 1): each is a known field with a value
 * of its kind, the map keeps within MAX_TIMELINE_REGISTERS unless it shrinks, and each touched
 * timeline within MAX_TIMELINE_CUTS cuts.
 */
function timelineRefusal(
  touched: ReadonlySet<string>,
  after: DocReader,
  before: DocCounts,
): DocRefusal | null {
  if (touched.size === 0) return null
  const registers = after.timelines()
  const count = registers.size
  if (count > MAX_TIMELINE_REGISTERS && count > before.timelineRegisters) {
    return refuse(UPDATE_REFUSAL_REASONS.tooManyCuts, `${count} timeline registers`)
  }
  const videos = new Set<string>()
  for (const key of touched) {
    const problem = timelineRegisterProblem(key, registers.get(key))
    if (problem) return refuse(UPDATE_REFUSAL_REASONS.invalidTimeline, problem)
    videos.add(key.split('/')[0]!)
  }
  const tooMany = timelineCutsProblem(registers.keys(), videos)
  return tooMany ? refuse(UPDATE_REFUSAL_REASONS.tooManyCuts, tooMany) : null
}

/** What a transaction records as changed: each changed Yjs type and its changed keys. */
export type ChangedTypes = Y.Transaction['changed']
/** A Yjs shared type, as `ChangedTypes` keys them. */
type YType = ChangedTypes extends Map<infer K, unknown> ? K : never

/** Where each entry of a transaction's `changed` landed. */
function* changeSites(doc: Y.Doc, changed: ChangedTypes): Generator<ChangeSite> {
  const rootNames = new Map<YType, string>()
  for (const [name, type] of doc.share) rootNames.set(type, name)
  for (const [type, keys] of changed) {
    let root = type
    const path: (string | null)[] = []
    for (let item = root._item; item; item = root._item) {
      path.unshift(item.parentSub)
      root = item.parent as YType
    }
    const name = rootNames.get(root) ?? null
    const nested = root !== type
    const branchKey = path[0] ?? null
    for (const key of keys) {
      yield { root: name, nested, key, branchKey: nested ? branchKey : key, path }
    }
  }
}

/** A {@link DocReader} over a Y.Doc. */
export function docReader(doc: Y.Doc): DocReader {
  const nodes = doc.getMap<unknown>(DOC_NODES_KEY)
  const connections = doc.getMap<unknown>(DOC_CONNECTIONS_KEY)
  const timelines = doc.getMap<unknown>(DOC_TIMELINES_KEY)
  return {
    counts: () => ({
      nodes: nodes.size,
      connections: connections.size,
      timelineRegisters: timelines.size,
    }),
    timelines: () => timelines,
    node: (id) => nodes.get(id),
    connection: (key) => connections.get(key),
    mapOf: yMapOf,
  }
}

/**
 * Checks a change already applied to `doc` (a copy that can be thrown away) against the
 * rules above, reading only what it touched.
 *
 * @param doc the document after the change
 * @param changed the change's `Y.Transaction.changed`: each changed type and the keys that
 *   changed in it (`null` for list content)
 * @param before the doc's {@link docCounts} before the change: limits refuse a change that
 *   adds past MAX_NODES / MAX_CONNECTIONS, never one that shrinks an oversized project
 * @returns the first problem found, or null when the change keeps every rule
 * @see issue 11 (Build: the server validates every sync update); spec §3
 */
export function validateDocChange(
  doc: Y.Doc,
  changed: ChangedTypes,
  before: DocCounts,
): DocRefusal | null {
  const touched = touchedEntries(changeSites(doc, changed))
  if ('reason' in touched) return touched
  return entriesRefusal(touched, docReader(doc), before)
}
