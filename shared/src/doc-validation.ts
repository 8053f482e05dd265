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
import { DOC_TIMELINES_KEY } from './timeline.ts'
import {
  MAX_TIMELINE_REGISTERS,
  timelineCutsProblem,
  timelineRegisterProblem,
} from './timeline-rules.ts'
import { nodeDataProblem } from './nodes/registry.ts'
import { UPDATE_REFUSAL_REASONS, type UpdateRefusalReason } from './sync.ts'
import { textProblem } from './text.ts'

/**
 * The rules every change to a project's Y.Doc must keep, whoever sends it (issue 11): the
 * same as REST's graph schema (`graph.ts`), and data the node type's schema can read where
 * the change wrote it (`nodeDataProblem`, issue 21 item 3), read off the doc after a change
 * was applied to a copy of it. Only what the change touched is read, so a one-node move on
 * a 1,000-node document checks one node.
 *
 * The document shape (`graph-doc.ts`): top-level Y.Maps `nodes` (id -> Y.Map with `type`,
 * `label`, `position` {x, y}, `data` Y.Map of string | number | boolean, `connectionPoints`)
 * and `connections` ("source->target" -> {source, target}), and the `timelines` registers
 * of the Video nodes' timelines (`timeline.ts`, rules in `timeline-rules.ts`, issue 24).
 * Nothing else: a document
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

/** How many nodes and connections `doc` holds. */
export function docCounts(doc: Y.Doc): DocCounts {
  return {
    nodes: doc.getMap(DOC_NODES_KEY).size,
    connections: doc.getMap(DOC_CONNECTIONS_KEY).size,
    timelineRegisters: doc.getMap(DOC_TIMELINES_KEY).size,
  }
}

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

/** A Y.Map used as a map only (no list content, which a Y.Array sent under its name adds). */
function isPureMap(value: unknown): value is Y.Map<unknown> {
  return value instanceof Y.Map && value._start === null
}

function nodeIdRefusal(id: string): DocRefusal | null {
  if (id.length > NODE_ID_MAX_LENGTH || !NODE_ID_PATTERN.test(id)) {
    return refuse(UPDATE_REFUSAL_REASONS.invalidNode, `node id ${shown(id)} is not a node id`)
  }
  return null
}

function dataValueRefusal(key: string, value: unknown, at: string): DocRefusal | null {
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
 * Which data keys of a node a change wrote: all of them (a new node, a new data map, a new
 * type), or some. Values of the node's type must be readable by its schema only where the
 * change wrote them: a value stored before this rule (read as its default) does not block
 * edits of the node's other fields.
 */
export type ChangedDataKeys = 'all' | ReadonlySet<string>

/**
 * What is wrong with the node stored under `id`, or null when it is a node of the spec (or
 * was deleted). Known data fields of its type among `changedData` must hold a value the
 * type's schema reads ({@link nodeDataProblem}).
 */
export function nodeRefusal(
  id: string,
  value: unknown,
  changedData: ChangedDataKeys = 'all',
): DocRefusal | null {
  if (value === undefined) return null
  const bad = (detail: string) => refuse(UPDATE_REFUSAL_REASONS.invalidNode, detail)
  const idProblem = nodeIdRefusal(id)
  if (idProblem) return idProblem
  const at = `node ${shown(id)}`
  if (!isPureMap(value)) return bad(`${at} is not a map`)
  for (const key of value.keys()) {
    if (!NODE_KEYS.has(key)) return bad(`${at} has an unknown field ${shown(key)}`)
  }
  // A field may be missing (readers then skip the node, as `readNode` does): concurrent or
  // out-of-order changes make such nodes for a while, e.g. a move whose new position waits
  // for an earlier update while its deletion of the old one is already applied. Missing a
  // field is no worse than the deletion an editor may make anyway; a value that is present
  // must be right.
  const type = value.get('type')
  if (type !== undefined && !(NODE_TYPES as readonly unknown[]).includes(type)) {
    return bad(`${at} has no node type of the spec`)
  }
  const label = value.get('label')
  if (label !== undefined) {
    if (typeof label !== 'string') return bad(`${at} has a label that is not text`)
    if (label.length > MAX_LABEL_LENGTH) return bad(`${at} has a label over 200 characters`)
    const labelProblem = textRefusal(label, `${at} label`)
    if (labelProblem) return labelProblem
  }
  const position = value.get('position')
  if (
    position !== undefined &&
    (!isPlainObject(position) ||
      Object.keys(position).length !== 2 ||
      typeof position.x !== 'number' ||
      typeof position.y !== 'number' ||
      !Number.isFinite(position.x) ||
      !Number.isFinite(position.y))
  ) {
    return bad(`${at} has a position that is not finite {x, y}`)
  }
  const points = value.get('connectionPoints')
  if (points !== undefined && !(CONNECTION_POINTS as readonly unknown[]).includes(points)) {
    return bad(`${at} has unknown connection points`)
  }
  const data = value.get('data')
  if (data === undefined) return null
  if (!isPureMap(data)) return bad(`${at} has a data field that is not a map`)
  if (data.size > MAX_DATA_KEYS) return bad(`${at} has more than ${MAX_DATA_KEYS} data fields`)
  for (const [key, item] of data.entries()) {
    if (key.length === 0 || key.length > MAX_DATA_KEY_LENGTH) {
      return bad(`${at} has a data key of ${key.length} characters`)
    }
    const problem = textRefusal(key, `${at} data key`) ?? dataValueRefusal(key, item, at)
    if (problem) return problem
    if (changedData === 'all' || changedData.has(key)) {
      const unreadable = nodeDataProblem(type, key, item)
      if (unreadable) return bad(`${at} ${unreadable}`)
    }
  }
  return null
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

/** What a transaction records as changed: each changed Yjs type and its changed keys. */
export type ChangedTypes = Y.Transaction['changed']
/** A Yjs shared type, as `ChangedTypes` keys them. */
type YType = ChangedTypes extends Map<infer K, unknown> ? K : never

/** The top-level type above `type` and the key under which its branch hangs there. */
function branchOf(type: YType): {
  root: YType
  key: string | null
} {
  let current = type
  let key: string | null = null
  for (;;) {
    const item = current._item
    if (!item) return { root: current, key }
    key = item.parentSub
    current = item.parent as YType
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
  const shape = (detail: string) => refuse(UPDATE_REFUSAL_REASONS.documentShape, detail)
  const rootNames = new Map<YType, string>()
  for (const [name, type] of doc.share) rootNames.set(type, name)
  const nodes = doc.getMap<unknown>(DOC_NODES_KEY)
  const connections = doc.getMap<unknown>(DOC_CONNECTIONS_KEY)
  const touchedNodes = new Set<string>()
  /** The data keys each touched node's change wrote (see {@link ChangedDataKeys}). */
  const changedData = new Map<string, ChangedDataKeys>()
  const dataChanged = (id: string, keys: readonly (string | null)[] | 'all') => {
    const known = changedData.get(id)
    if (known === 'all') return
    if (keys === 'all') changedData.set(id, 'all')
    else changedData.set(id, new Set([...(known ?? []), ...keys.filter((k) => k !== null)]))
  }
  const touchedConnections = new Set<string>()
  const touchedRegisters = new Set<string>()

  for (const [type, keys] of changed) {
    const { root, key } = branchOf(type)
    const name = rootNames.get(root)
    if (name === DOC_NODES_KEY) {
      if (type === root) {
        for (const k of keys) {
          if (k === null) return shape('"nodes" holds list content; it is a map')
          touchedNodes.add(k)
          dataChanged(k, 'all')
        }
      } else if (key !== null) {
        touchedNodes.add(key)
        const parent = type._item?.parent
        if (parent === root) {
          // The node's own map: a new data map or a new type makes every data value new.
          if (keys.has('data') || keys.has('type')) dataChanged(key, 'all')
        } else if (type._item?.parentSub === 'data' && (parent as YType)._item?.parent === root) {
          dataChanged(key, [...keys])
        }
      } else {
        return shape('"nodes" holds list content; it is a map')
      }
    } else if (name === DOC_CONNECTIONS_KEY) {
      if (type !== root) return shape('a connection holds a nested type')
      for (const k of keys) {
        if (k === null) return shape('"connections" holds list content; it is a map')
        touchedConnections.add(k)
      }
    } else if (name === DOC_TIMELINES_KEY) {
      if (type !== root) return shape('a timeline register holds a nested type')
      for (const k of keys) {
        if (k === null) return shape('"timelines" holds list content; it is a map')
        touchedRegisters.add(k)
      }
    } else {
      return shape(`unknown top-level type ${shown(name ?? '?')}`)
    }
  }

  return (
    touchedRefusal(touchedNodes, nodes, before.nodes, MAX_NODES, 'nodes', (id, value) =>
      nodeRefusal(id, value, changedData.get(id) ?? new Set()),
    ) ??
    touchedRefusal(
      touchedConnections,
      connections,
      before.connections,
      MAX_CONNECTIONS,
      'connections',
      connectionRefusal,
    ) ??
    timelineRefusal(doc, touchedRegisters, before.timelineRegisters)
  )
}

/**
 * The timeline registers a change wrote (issue 24 item 1): each is a known field with a value
 * of its kind, the map keeps within MAX_TIMELINE_REGISTERS unless it shrinks, and each touched
 * timeline within MAX_TIMELINE_CUTS cuts.
 */
function timelineRefusal(
  doc: Y.Doc,
  touched: ReadonlySet<string>,
  countBefore: number,
): DocRefusal | null {
  if (touched.size === 0) return null
  const map = doc.getMap<unknown>(DOC_TIMELINES_KEY)
  if (map.size > MAX_TIMELINE_REGISTERS && map.size > countBefore) {
    return refuse(UPDATE_REFUSAL_REASONS.tooManyCuts, `${map.size} timeline registers`)
  }
  const videos = new Set<string>()
  for (const key of touched) {
    const problem = timelineRegisterProblem(key, map.get(key))
    if (problem) return refuse(UPDATE_REFUSAL_REASONS.invalidTimeline, problem)
    videos.add(key.split('/')[0]!)
  }
  const tooMany = timelineCutsProblem(map.keys(), videos)
  return tooMany ? refuse(UPDATE_REFUSAL_REASONS.tooManyCuts, tooMany) : null
}

/**
 * The limit, then each touched entry of one top-level map: a map past `max` that grew
 * refuses; an oversized one (from before the limit) may still shrink and change.
 */
function touchedRefusal(
  touched: ReadonlySet<string>,
  map: Y.Map<unknown>,
  countBefore: number,
  max: number,
  what: 'nodes' | 'connections',
  entryRefusal: (key: string, value: unknown) => DocRefusal | null,
): DocRefusal | null {
  if (touched.size === 0) return null
  const count = map.size
  if (count > max && count > countBefore) {
    const reason =
      what === 'nodes'
        ? UPDATE_REFUSAL_REASONS.tooManyNodes
        : UPDATE_REFUSAL_REASONS.tooManyConnections
    return refuse(reason, `${count} ${what}`)
  }
  for (const key of touched) {
    const problem = entryRefusal(key, map.get(key))
    if (problem) return problem
  }
  return null
}
