import type { DB } from '@reelgraph/db'
import {
  type Connection,
  connectionKey,
  createGraphNode,
  createNodeId,
  docToGraph,
  type DocumentGateway,
  getConnectionsMap,
  getNodesMap,
  type Graph,
  type GraphNode,
  graphNodeSchema,
  MAX_CONNECTIONS,
  MAX_NODES,
  type McpNewNode,
  type NodeData,
  nodeDataProblem,
  nodeToYMap,
  placeAtNearestFreeSpot,
  removeNodes,
  updateNodeData,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { assertProjectSize } from './project-service.ts'

/**
 * Changes to a project's graph one piece at a time (issue 41 item 2: the MCP server's
 * `add_nodes`, `connect_nodes`, `update_node` and `delete_nodes`), written into the live
 * document through the gateway in one Yjs transaction each, so every editor sees them at
 * once. Each checks the caller is an editor and holds the result to the rules REST holds a
 * whole graph to (shared's `graphNodeSchema` and each type's data fields, the node,
 * connection and size limits); a change that breaks one is refused in words and nothing of
 * it is written. Reads and writes happen in the same synchronous callback on the document,
 * so a change made meanwhile by someone else cannot slip between the check and the write.
 */

/** What every graph edit needs. */
export interface GraphEditDeps {
  db: Kysely<DB>
  documents: DocumentGateway
}

/** Who edits which project. */
export interface GraphEditCaller {
  userId: number
  projectId: number
}

/** A 400 in words, naming what to fix. */
function invalid(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message)
}

/** The first problem of `node` by REST's rules (shape, then each data field), or null. */
function nodeProblem(node: GraphNode): string | null {
  const parsed = graphNodeSchema.safeParse(node)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? ` (${issue.path.join('.')})` : ''
    return `Node "${node.id}"${where}: ${issue?.message ?? 'not a valid node.'}`
  }
  for (const [key, value] of Object.entries(node.data)) {
    const problem = nodeDataProblem(node.type, key, value)
    if (problem) return `Node "${node.id}": ${problem}.`
  }
  return null
}

/** The node `nodeId` of `graph`, or a 404 in words. */
function nodeOf(graph: Graph, nodeId: string): GraphNode {
  const node = graph.nodes.find((n) => n.id === nodeId)
  if (!node) throw new AppError('NOT_FOUND', `This project has no node "${nodeId}".`)
  return node
}

/**
 * Runs `edit` on the project's document (an editor's), with the graph it holds now.
 * @throws AppError 404/403 from the role check, or whatever `edit` throws (nothing written).
 */
async function editGraph<T>(
  deps: GraphEditDeps,
  { userId, projectId }: GraphEditCaller,
  edit: (doc: Y.Doc, graph: Graph, origin: unknown) => T,
): Promise<T> {
  await requireProjectRole(deps.db, { userId, projectId, needed: 'editor' })
  return deps.documents.transact(projectId, (doc, origin) => edit(doc, docToGraph(doc), origin))
}

/**
 * Adds nodes of the given types with their types' defaults, the caller's fields over them,
 * each where asked or at the nearest free spot (never on another node).
 * @returns the nodes as written, in the order given.
 * @throws AppError 400 for an id already taken, a field its type cannot hold, past MAX_NODES
 *   or the project size; 404/403 for a project the caller may not edit.
 */
export async function addGraphNodes(
  deps: GraphEditDeps,
  request: GraphEditCaller & { nodes: readonly McpNewNode[] },
): Promise<GraphNode[]> {
  return editGraph(deps, request, (doc, graph, origin) => {
    if (graph.nodes.length + request.nodes.length > MAX_NODES) {
      throw invalid(
        `A project can hold at most ${MAX_NODES.toLocaleString('en-US')} nodes; this one has ${graph.nodes.length}.`,
      )
    }
    const taken = new Set(graph.nodes.map((n) => n.id))
    const placed: GraphNode[] = [...graph.nodes]
    const added: GraphNode[] = []
    const now = Date.now()
    for (const wanted of request.nodes) {
      const base = createGraphNode(
        wanted.type,
        wanted.position ?? { x: 0, y: 0 },
        placed,
        now,
        wanted.id ?? createNodeId(wanted.type, now),
      )
      if (taken.has(base.id)) throw invalid(`This project already has a node "${base.id}".`)
      let node: GraphNode = {
        ...base,
        label: wanted.label ?? base.label,
        data: { ...base.data, ...wanted.data },
      }
      if (!wanted.position) {
        node = placeAtNearestFreeSpot({ nodes: [node], connections: [] }, placed).nodes[0] ?? node
      }
      const problem = nodeProblem(node)
      if (problem) throw invalid(problem)
      taken.add(node.id)
      placed.push(node)
      added.push(node)
    }
    assertProjectSize({ nodes: placed, connections: graph.connections })
    const nodes = getNodesMap(doc)
    doc.transact(() => {
      for (const node of added) nodes.set(node.id, nodeToYMap(node))
    }, origin)
    return added
  })
}

/**
 * Connects pairs of nodes (from `source`'s output to `target`'s input); a pair already
 * connected is kept once.
 * @returns the connections the project has for these pairs.
 * @throws AppError 400 for an end that is no node of the project, a node connected to
 *   itself, an end whose node has no output (source) or input (target), past
 *   MAX_CONNECTIONS; 404/403 for a project the caller may not edit.
 */
export async function connectGraphNodes(
  deps: GraphEditDeps,
  request: GraphEditCaller & { connections: readonly Connection[] },
): Promise<Connection[]> {
  return editGraph(deps, request, (doc, graph, origin) => {
    const byId = new Map(graph.nodes.map((n) => [n.id, n]))
    const have = new Set(graph.connections.map(connectionKey))
    const fresh = new Map<string, Connection>()
    for (const c of request.connections) {
      const source = byId.get(c.source)
      const target = byId.get(c.target)
      if (!source) throw invalid(`This project has no node "${c.source}" to connect from.`)
      if (!target) throw invalid(`This project has no node "${c.target}" to connect to.`)
      if (c.source === c.target) throw invalid('A node cannot connect to itself.')
      if (source.connectionPoints === 'input') {
        throw invalid(`Node "${c.source}" (${source.type}) has no output to connect from.`)
      }
      if (target.connectionPoints === 'output') {
        throw invalid(`Node "${c.target}" (${target.type}) has no input to connect to.`)
      }
      const key = connectionKey(c)
      if (!have.has(key)) fresh.set(key, { source: c.source, target: c.target })
    }
    if (graph.connections.length + fresh.size > MAX_CONNECTIONS) {
      throw invalid(
        `A project can hold at most ${MAX_CONNECTIONS.toLocaleString('en-US')} connections.`,
      )
    }
    const connections = getConnectionsMap(doc)
    doc.transact(() => {
      for (const [key, c] of fresh) connections.set(key, c)
    }, origin)
    return request.connections.map((c) => ({ source: c.source, target: c.target }))
  })
}

/**
 * Changes some data fields, the label or the position of one node; the fields not named
 * are kept.
 * @returns the node as written.
 * @throws AppError 404 for a node the project does not have (and from the role check);
 *   400 for a value its type cannot hold or past the project size; 403 for a viewer.
 */
export async function updateGraphNode(
  deps: GraphEditDeps,
  request: GraphEditCaller & {
    nodeId: string
    data?: NodeData | undefined
    label?: string | undefined
    position?: { x: number; y: number } | undefined
  },
): Promise<GraphNode> {
  return editGraph(deps, request, (doc, graph, origin) => {
    const before = nodeOf(graph, request.nodeId)
    const node: GraphNode = {
      ...before,
      label: request.label ?? before.label,
      position: request.position ?? before.position,
      data: { ...before.data, ...request.data },
    }
    const problem = nodeProblem(node)
    if (problem) throw invalid(problem)
    assertProjectSize({
      nodes: graph.nodes.map((n) => (n.id === node.id ? node : n)),
      connections: graph.connections,
    })
    const ynode = getNodesMap(doc).get(node.id)
    doc.transact(() => {
      if (request.data) updateNodeData(doc, node.id, request.data, origin)
      if (ynode instanceof Y.Map) {
        if (node.label !== before.label) ynode.set('label', node.label)
        if (request.position) ynode.set('position', { ...node.position })
      }
    }, origin)
    return node
  })
}

/**
 * Deletes nodes, every connection that touches them and the timelines of Video nodes among
 * them, in one change.
 * @returns the ids deleted.
 * @throws AppError 404 naming the first id the project does not have (nothing deleted);
 *   404/403 for a project the caller may not edit.
 */
export async function deleteGraphNodes(
  deps: GraphEditDeps,
  request: GraphEditCaller & { nodeIds: readonly string[] },
): Promise<string[]> {
  return editGraph(deps, request, (doc, graph, origin) => {
    for (const id of request.nodeIds) nodeOf(graph, id)
    const ids = [...new Set(request.nodeIds)]
    removeNodes(doc, ids, origin)
    return ids
  })
}
