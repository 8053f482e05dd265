import type { Connection, Graph, GraphNode, KnownNodes } from './graph.ts'

/**
 * The JSON of a graph as UTF-8 bytes, built from the JSON of its parts (issue 23: a REST
 * autosave answers the whole stored graph, about 200 KB for 300 nodes, each second, and only
 * one node differs from the answer before).
 *
 * The bytes of a frozen node (its position and data frozen too, its JSON reading back as
 * itself) and of a frozen connections array (of frozen connections) are encoded once and kept
 * with the object (a WeakMap: gone with it); anything that can still change is encoded each
 * time, so a caller that changes its objects never gets stale JSON. `graphAsApplied` answers
 * frozen graphs whose unchanged nodes are the objects of its answer before. The kept bytes
 * also read an autosave body back (`readGraphJson`).
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

/**
 * True for what JSON keeps as it is: text, finite numbers, booleans, null, and arrays and
 * plain objects of those. With `exact`, also no -0 (JSON writes it as 0): `JSON.parse` of the
 * value's JSON is then equal to the value.
 */
export function isJsonValue(value: unknown, exact = false): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(value) && !(exact && Object.is(value, -0))
    case 'object':
      if (value === null) return true
      if (Array.isArray(value)) return value.every((v) => isJsonValue(v, exact))
      if (Object.getPrototypeOf(value) !== Object.prototype) return false
      return Object.values(value).every((v) => isJsonValue(v, exact))
    default:
      return false
  }
}

/**
 * Whether a node's JSON is kept: it cannot change (frozen, its position and data too), and
 * its JSON reads back as itself, so bytes equal to it stand for the node (`readGraphJson`).
 */
function keptNode(node: GraphNode): boolean {
  return (
    Object.isFrozen(node) &&
    Object.isFrozen(node.position) &&
    Object.isFrozen(node.data) &&
    isJsonValue(node, true)
  )
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
    parts.push(fragment(node, keptNode))
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

const decoder = new TextDecoder()
const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = CLOSE[0]
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
/** How a node's JSON starts when `JSON.stringify` wrote it (`id` is a node's first key). */
const NODE_ID = encoder.encode('{"id":"')

/**
 * Node's `Buffer.prototype.compare` (target, targetStart, targetEnd, sourceStart, sourceEnd):
 * 0 when the ranges hold the same bytes. The api's bodies are Buffers; this module does not
 * import Node's own, so it runs in a browser too.
 */
type RangeCompare = (
  target: Uint8Array,
  targetStart: number,
  targetEnd: number,
  sourceStart: number,
  sourceEnd: number,
) => number

/** From this many bytes a Buffer's native compare beats the loop (a node's JSON is hundreds). */
const NATIVE_COMPARE_BYTES = 32

/**
 * True when `bytes` holds `part` at `at`. A long part in a Node Buffer is compared natively
 * (about 8 times faster than the loop: an autosave compares its 200 KB body with the kept
 * JSON, issue 23).
 */
function holds(bytes: Uint8Array, at: number, part: Uint8Array): boolean {
  const length = part.byteLength
  if (at + length > bytes.byteLength) return false
  const compare = (bytes as { compare?: RangeCompare }).compare
  if (length >= NATIVE_COMPARE_BYTES && typeof compare === 'function') {
    return compare.call(bytes, part, 0, length, at, at + length) === 0
  }
  for (let i = 0; i < length; i++) if (bytes[at + i] !== part[i]) return false
  return true
}

/**
 * Where the JSON object starting at `at` ends (the index after its `}`), reading strings
 * with their escapes; -1 when no object starts there or it does not close. Only the
 * brackets are counted: `JSON.parse` judges the rest.
 */
function objectEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== OPEN_BRACE) return -1
  let depth = 0
  for (let i = at; i < bytes.byteLength; i++) {
    const byte = bytes[i]
    if (byte === QUOTE) {
      for (i += 1; i < bytes.byteLength && bytes[i] !== QUOTE; i++) {
        if (bytes[i] === BACKSLASH) i += 1
      }
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** The value of the JSON text in `bytes` (UTF-8), or undefined when it is not JSON. */
function parsed(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown
  } catch {
    return undefined
  }
}

/**
 * The known node whose JSON (as {@link encodeGraphJson} writes it) is at `at`, with where that
 * JSON ends; undefined when there is none. Its id is read from the bytes (plain ASCII only:
 * anything escaped is left to the parse).
 */
function knownNodeAt(
  bytes: Uint8Array,
  at: number,
  known: KnownNodes,
): { node: GraphNode; end: number } | undefined {
  if (!holds(bytes, at, NODE_ID)) return undefined
  const start = at + NODE_ID.byteLength
  let end = start
  for (; end < bytes.byteLength && bytes[end] !== QUOTE; end++) {
    const byte = bytes[end]!
    if (byte === BACKSLASH || byte >= 0x80) return undefined
  }
  const node = known.get(decoder.decode(bytes.subarray(start, end)))
  if (!node) return undefined
  // Only a node whose JSON is kept (`keptNode`): equal bytes then prove equal values.
  const json = fragment(node, keptNode)
  if (fragments.get(node) !== json || !holds(bytes, at, json)) return undefined
  return { node, end: at + json.byteLength }
}

/** True when `bytes` starts as {@link encodeGraphJson}'s text does (`{"nodes":[`). */
export function startsAsGraphJson(bytes: Uint8Array): boolean {
  return holds(bytes, 0, OPEN)
}

/**
 * Reads an autosave body (`{"nodes":[…],"connections":[…]}` as UTF-8) against the nodes a
 * project holds (issue 23): a node whose bytes are exactly the JSON `encodeGraphJson` writes
 * for a known node (what the project's last answer held, so what a client sends back for a
 * node it did not touch) is that known node object, not decoded or parsed; any other node,
 * and the connections, are parsed with `JSON.parse` on their own bytes. For a 300-node body
 * with one node moved, this skips decoding the 200 KB text into one string (a large-object
 * allocation, slow where page faults are) and parsing it.
 *
 * The answer, when there is one, equals `JSON.parse` of the whole text, with the known nodes'
 * objects in place of equal values; the property test in `graph-json.test.ts` checks it.
 * @returns `{ nodes, connections }`, or null for any other layout (whitespace between the
 *   parts, other keys, another order, text that is not JSON): parse the text as usual then.
 */
export function readGraphJson(
  bytes: Uint8Array,
  known: KnownNodes,
): Record<string, unknown> | null {
  if (!holds(bytes, 0, OPEN)) return null
  let at = OPEN.byteLength
  const nodes: unknown[] = []
  if (bytes[at] !== CLOSE_BRACKET) {
    for (;;) {
      const taken = knownNodeAt(bytes, at, known)
      if (taken) {
        nodes.push(taken.node)
        at = taken.end
      } else {
        const end = objectEnd(bytes, at)
        if (end < 0) return null
        const value = parsed(bytes.subarray(at, end))
        if (value === undefined) return null
        nodes.push(value)
        at = end
      }
      if (bytes[at] !== COMMA[0]) break
      at += 1
    }
  }
  if (!holds(bytes, at, CONNECTIONS)) return null
  at += CONNECTIONS.byteLength
  const last = bytes.byteLength - 1
  if (last <= at || bytes[last] !== CLOSE_BRACE) return null
  const connections = parsed(bytes.subarray(at, last))
  if (connections === undefined) return null
  return { nodes, connections }
}
