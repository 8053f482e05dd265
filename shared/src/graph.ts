import { z } from 'zod'
import { NODE_TYPES, nodeDataProblem, type NodeType } from './nodes/registry.ts'
import {
  CONNECTION_POINTS,
  type ConnectionPoints,
  type NodeData,
  type NodeDataValue,
} from './node-values.ts'
import { refineSafeText, textProblem } from './text.ts'

/**
 * The project graph as the REST API and the database carry it: nodes and connections.
 * @see spec §3 Node, Connection, Node data by type; ARCHITECTURE decision 2
 */

/** The node types and their names, from the node registry (`nodes/registry.ts`). */
export { NODE_TYPES, type NodeType }

export { CONNECTION_POINTS, type ConnectionPoints, type NodeData, type NodeDataValue }

/** At most 2,000 nodes per project (issue 3). */
export const MAX_NODES = 2000
/** At most 5,000 connections per project (issue 3). */
export const MAX_CONNECTIONS = 5000
/** At most 100 KB (UTF-8 bytes) in one text field (issue 3). */
export const MAX_TEXT_FIELD_BYTES = 100 * 1024
/** At most 5 MiB per project, as JSON (issue 3). */
export const MAX_PROJECT_BYTES = 5 * 1024 * 1024
/** Node labels are short titles. */
export const MAX_LABEL_LENGTH = 200
/**
 * Data keys per node: the richest type has 18 (the Video node with a render and a job,
 * `nodes/video.ts`); room for later fields and keys no type knows.
 */
export const MAX_DATA_KEYS = 50
/** Data keys are field names: at most 64 characters. */
export const MAX_DATA_KEY_LENGTH = 64
/** Project names (spec §3: required). */
export const PROJECT_NAME_MAX_LENGTH = 100
export const PROJECT_DESCRIPTION_MAX_LENGTH = 1000

/** A node id: the type, a millisecond timestamp and a random suffix (spec §3 Node). */
export const NODE_ID_PATTERN = /^[a-z][a-z-]*-\d{1,16}-[a-z0-9]{1,16}$/
export const NODE_ID_MAX_LENGTH = 64

/** Makes a node id of the spec's shape: `<type>-<ms timestamp>-<random base36>`. */
export function createNodeId(type: NodeType, now = Date.now()): string {
  const random = Math.floor(Math.random() * 36 ** 8)
    .toString(36)
    .padStart(8, '0')
  return `${type}-${now}-${random}`
}

const utf8 = new TextEncoder()
/** UTF-8 length of a string in bytes. */
export function utf8Bytes(text: string): number {
  return utf8.encode(text).length
}

/**
 * Whether `text` fits MAX_TEXT_FIELD_BYTES in UTF-8. A UTF-16 code unit takes at most 3
 * bytes, so a string of up to a third of the limit fits without being encoded (the REST
 * autosave checks every text of a 300-node graph each second: issue 23).
 */
function fitsTextField(text: string): boolean {
  if (text.length > MAX_TEXT_FIELD_BYTES) return false
  return text.length * 3 <= MAX_TEXT_FIELD_BYTES || utf8Bytes(text) <= MAX_TEXT_FIELD_BYTES
}

/** Why a text field's value is refused (too long, or text no string may hold), or null. */
function textFieldProblem(text: string): string | null {
  if (!fitsTextField(text))
    return `A text field can hold at most ${MAX_TEXT_FIELD_BYTES / 1024} KB.`
  const problem = textProblem(text)
  return problem && `This text ${problem}`
}

// One check per string, not a chain of them: a REST autosave parses every field of a
// 300-node graph each second, and each check zod runs costs (issue 23).
const textField = z.string().superRefine((text, ctx) => {
  const problem = textFieldProblem(text)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

export const nodeIdSchema = z
  .string({ error: 'A node id must be a string.' })
  .max(NODE_ID_MAX_LENGTH, `A node id can be at most ${NODE_ID_MAX_LENGTH} characters.`)
  .regex(NODE_ID_PATTERN, 'A node id must look like "<type>-<timestamp>-<suffix>".')

/** A finite number (zod's numbers refuse Infinity and NaN). */
const finite = z.number({ error: 'A position must be a finite number.' })

/** A node's data value: string, number or boolean (ARCHITECTURE decision 2). */
export const nodeDataValueSchema = z.union([textField, z.number(), z.boolean()], {
  error: 'A data value must be a string, a finite number or a boolean.',
})

/** Why a data key is refused, or null: 1 to 64 characters of text any string may hold. */
function dataKeyProblem(key: string): string | null {
  if (key.length === 0) return 'A data key must not be empty.'
  if (key.length > MAX_DATA_KEY_LENGTH) {
    return `A data key can be at most ${MAX_DATA_KEY_LENGTH} characters.`
  }
  const problem = textProblem(key)
  return problem && `This data key ${problem}`
}

/**
 * A node's data: at most MAX_DATA_KEYS fields of {@link nodeDataValueSchema}. The keys are
 * checked in one pass over the record rather than by a key schema (zod would run one per key).
 */
export const nodeDataSchema = z.record(z.string(), nodeDataValueSchema).superRefine((data, ctx) => {
  let keys = 0
  for (const key in data) {
    keys += 1
    const problem = dataKeyProblem(key)
    if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem })
  }
  if (keys > MAX_DATA_KEYS) {
    ctx.addIssue({
      code: 'custom',
      message: `A node can hold at most ${MAX_DATA_KEYS} data fields.`,
    })
  }
})

/** A node (spec §3 Node). */
export const graphNodeSchema = z
  .object({
    id: nodeIdSchema,
    type: z.enum(NODE_TYPES, { error: `A node type must be one of: ${NODE_TYPES.join(', ')}.` }),
    label: z
      .string()
      .max(MAX_LABEL_LENGTH, `A label can be at most ${MAX_LABEL_LENGTH} characters.`)
      .superRefine(refineSafeText),
    position: z.object({ x: finite, y: finite }),
    data: nodeDataSchema,
    connectionPoints: z.enum(CONNECTION_POINTS).default('both'),
  })
  .meta({ id: 'Node' })
export type GraphNode = z.infer<typeof graphNodeSchema>

/** A connection from one node to another (spec §3 Connection). */
export const connectionSchema = z
  .object({ source: nodeIdSchema, target: nodeIdSchema })
  .meta({ id: 'Connection' })
export type Connection = z.infer<typeof connectionSchema>

/** The key of a connection in the document and for duplicate detection. */
export function connectionKey(c: Connection): string {
  return `${c.source}->${c.target}`
}

/** The nodes array of a graph: at most MAX_NODES. */
export const nodesSchema = z
  .array(graphNodeSchema)
  .max(MAX_NODES, `A project can hold at most ${MAX_NODES.toLocaleString('en-US')} nodes.`)

/**
 * Nodes known valid, by id: outputs of {@link graphNodeSchema} whose data passes
 * {@link refineNodeData} (the nodes of a graph the full parse accepted).
 */
export type KnownNodes = ReadonlyMap<string, GraphNode>

/**
 * The nodes of a project's stored document (`docToGraph`, `graphIndexNodes`) as
 * {@link KnownNodes}, frozen in place (they are the caller's fresh reads): a REST autosave's
 * first save on a project compares its body with them instead of parsing every node
 * (issue 23). They passed the document rules when they were written (decision 011), which
 * refuse field by field what {@link graphNodeSchema} refuses; those rules check a data value
 * against its node type (`nodeDataProblem`) only for the keys a change wrote, so that check
 * is made again here, and a node that fails it is left out (the body's copy of it gets the
 * full parse).
 */
export function storedKnownNodes(nodes: GraphNode[]): KnownNodes {
  const known = new Map<string, GraphNode>()
  for (const node of nodes) {
    let readable = true
    for (const key in node.data) {
      if (nodeDataProblem(node.type, key, node.data[key])) readable = false
    }
    if (!readable) continue
    Object.freeze(node.position)
    Object.freeze(node.data)
    known.set(node.id, Object.freeze(node))
  }
  return known
}

/** The keys of a node as {@link graphNodeSchema} answers it, in the order its JSON has them. */
export const NODE_KEYS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'label',
  'position',
  'data',
  'connectionPoints',
])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** How many own enumerable keys `value` has. */
function keyCount(value: object): number {
  let keys = 0
  for (const _ in value) keys += 1
  return keys
}

/**
 * Whether `value` (a parsed JSON value, or a node) is exactly `known`, a node
 * {@link graphNodeSchema} accepted: the six keys of a node and no other, the same id, type,
 * label, connection points and position, the same data keys holding the same values. Such a
 * value parses to a node equal to `known`, so it need not be parsed again: a REST autosave
 * sends a whole graph each second with one node moved (issue 23).
 */
export function isKnownNode(known: GraphNode, value: unknown): boolean {
  if (value === known) return true
  if (!isRecord(value)) return false
  if (
    value.id !== known.id ||
    value.type !== known.type ||
    value.label !== known.label ||
    value.connectionPoints !== known.connectionPoints
  ) {
    return false
  }
  let keys = 0
  for (const key in value) {
    if (!NODE_KEYS.has(key)) return false
    keys += 1
  }
  if (keys !== NODE_KEYS.size) return false
  const { position, data } = value
  if (
    !isRecord(position) ||
    position.x !== known.position.x ||
    position.y !== known.position.y ||
    keyCount(position) !== 2 ||
    !isRecord(data)
  ) {
    return false
  }
  let dataKeys = 0
  for (const key in data) {
    if (!Object.hasOwn(known.data, key) || known.data[key] !== data[key]) return false
    dataKeys += 1
  }
  return dataKeys === keyCount(known.data)
}

/**
 * Parses `{nodes, connections}` (exactly those keys) as `graphSchema` would, quickly when it
 * is plainly valid: a node equal to one of `known` (nodes the caller knows valid:
 * {@link isKnownNode}) is answered with the known node itself, any other is parsed with
 * {@link graphNodeSchema} and its data checked as {@link refineNodeData} does, and each
 * connection must join two of the body's nodes (so its ends are valid ids). An autosave of a
 * 300-node graph with one node moved takes about 0.3 ms here, against 0.9 ms for zod's walk
 * of every node and connection with the known nodes not parsed (issue 23, decision 020).
 * @returns the graph (connections without repeats), or null when anything would need the
 *   full parse's judgment (a missing or extra key, an invalid node, a repeated id, a
 *   connection to nowhere or to itself, too many nodes): call the full parse for its answer
 *   and its messages. The known nodes' raw values are added to `taken` only on success.
 */
export function parseKnownGraph(
  body: unknown,
  known: KnownNodes,
  taken?: Set<object>,
): Graph | null {
  if (!isRecord(body)) return null
  let keys = 0
  for (const key in body) {
    if (key !== 'nodes' && key !== 'connections') return null
    keys += 1
  }
  const { nodes: rawNodes, connections: rawConnections } = body
  if (keys !== 2 || !Array.isArray(rawNodes) || !Array.isArray(rawConnections)) return null
  if (rawNodes.length > MAX_NODES || rawConnections.length > MAX_CONNECTIONS) return null
  const nodes: GraphNode[] = []
  const ids = new Set<string>()
  const knownValues: object[] = []
  for (const value of rawNodes as unknown[]) {
    const id = isRecord(value) ? value.id : undefined
    const was = typeof id === 'string' ? known.get(id) : undefined
    let node: GraphNode
    if (was && isKnownNode(was, value)) {
      node = was
      knownValues.push(value as object)
    } else {
      const parsed = graphNodeSchema.safeParse(value)
      if (!parsed.success) return null
      node = parsed.data
      for (const key in node.data) {
        if (nodeDataProblem(node.type, key, node.data[key])) return null
      }
    }
    if (ids.has(node.id)) return null
    ids.add(node.id)
    nodes.push(node)
  }
  const connections: Connection[] = []
  for (const value of rawConnections as unknown[]) {
    if (!isRecord(value)) return null
    const { source, target } = value
    if (typeof source !== 'string' || typeof target !== 'string') return null
    if (source === target || !ids.has(source) || !ids.has(target)) return null
    connections.push({ source, target })
  }
  for (const value of knownValues) taken?.add(value)
  return { nodes, connections: dropDuplicateConnections(connections) }
}

/** The connections array of a graph: at most MAX_CONNECTIONS. */
export const connectionsSchema = z
  .array(connectionSchema)
  .max(
    MAX_CONNECTIONS,
    `A project can hold at most ${MAX_CONNECTIONS.toLocaleString('en-US')} connections.`,
  )

/**
 * Checks a graph's integrity: unique node ids, connection ends that are nodes of the graph,
 * no self-connections. For `.superRefine()` on any object with `nodes` and `connections`.
 */
export function refineGraph(
  graph: { nodes?: GraphNode[] | undefined; connections?: Connection[] | undefined },
  ctx: z.RefinementCtx,
): void {
  const ids = new Set<string>()
  ;(graph.nodes ?? []).forEach((node, i) => {
    if (ids.has(node.id)) {
      ctx.addIssue({
        code: 'custom',
        path: ['nodes', i, 'id'],
        message: `Two nodes have the id "${node.id}".`,
      })
    }
    ids.add(node.id)
  })
  ;(graph.connections ?? []).forEach((c, i) => {
    for (const end of ['source', 'target'] as const) {
      if (!ids.has(c[end])) {
        ctx.addIssue({
          code: 'custom',
          path: ['connections', i, end],
          message: `A connection's ${end} "${c[end]}" is not a node of this project.`,
        })
      }
    }
    if (c.source === c.target) {
      ctx.addIssue({
        code: 'custom',
        path: ['connections', i],
        message: 'A node cannot connect to itself.',
      })
    }
  })
}

/**
 * Checks that each node's known data fields hold values its type's schema can read
 * (`nodeDataProblem`: a number for `width`, true or false for `subtitles`...), as the sync
 * server refuses them in document updates (issue 21 item 3). For the REST bodies that
 * write a graph; stored graphs are read tolerantly instead (a field that does not read
 * reads as its default).
 */
export function refineNodeData(
  graph: { nodes?: GraphNode[] | undefined },
  ctx: z.RefinementCtx,
): void {
  ;(graph.nodes ?? []).forEach((node, i) => {
    for (const [key, value] of Object.entries(node.data)) {
      const problem = nodeDataProblem(node.type, key, value)
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          path: ['nodes', i, 'data', key],
          message: `Node "${node.id}": ${problem}.`,
        })
      }
    }
  })
}

/** Drops connections that repeat an earlier one's source and target (spec §4). */
export function dropDuplicateConnections(connections: Connection[]): Connection[] {
  const seen = new Set<string>()
  return connections.filter((c) => {
    const key = connectionKey(c)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * A whole graph. Node ids must be unique; each connection's ends must be nodes of the
 * graph and differ; duplicate connections (same source and target) are dropped.
 * @see issue 3 item 1
 */
export const graphSchema = z
  .object({ nodes: nodesSchema, connections: connectionsSchema })
  .superRefine(refineGraph)
  .transform((graph) => ({
    nodes: graph.nodes,
    connections: dropDuplicateConnections(graph.connections),
  }))
  .meta({ id: 'Graph' })
export type Graph = z.output<typeof graphSchema>
