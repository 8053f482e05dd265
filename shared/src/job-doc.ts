import * as Y from 'yjs'
import { getConnectionsMap, getNodesMap, nodeToYMap, readNode } from './graph-doc.ts'
import {
  connectionKey,
  type GraphNode,
  MAX_NODES,
  type NodeDataValue,
  type NodeType,
} from './graph.ts'
import { JOB_KINDS, type JobKind, type JobStatus } from './jobs.ts'
import { JOB_FIELDS, type JobFields, readJobFields } from './nodes/job-fields.ts'
import { type GraphAddition, type PlacementSource, placeInFreeSpace } from './placement.ts'
import { UPDATE_REFUSAL_MESSAGES } from './sync.ts'

/**
 * How a job's state and result are written into a project's Y.Doc (issue 12): pure functions
 * over the doc, used by the job worker through the sync server's document gateway.
 */

/** The job state shown on its generator node ({@link JOB_FIELDS}). */
export interface JobNodeState {
  id: string
  /** The job kind's name (shared's `JOB_KINDS` are those the canvas words). */
  kind: string
  status: JobStatus
  /** 0-100, or null when the provider does not report progress. */
  progress: number | null
  stage: string | null
  message: string | null
  /** Credits given back, or null before any refund question arises. */
  refunded: number | null
  /** When the state changed. */
  updatedAt: Date
}

const STATUS_RANK: Record<JobStatus, number> = {
  queued: 0,
  running: 1,
  succeeded: 2,
  failed: 2,
  cancelled: 2,
}

/**
 * True when the node already shows something newer than `state`: the same job further along
 * (writes of one job may arrive out of order: the api's "queued" after the worker's
 * "running"), or another job's state stamped later (a newer job of the same node).
 */
function isStale(ydata: unknown, state: JobNodeState): boolean {
  if (!(ydata instanceof Y.Map)) return false
  const shown = readJobFields(ydata.toJSON() as Record<string, unknown>)
  if (shown.jobId === state.id) {
    return shown.jobStatus !== undefined && STATUS_RANK[shown.jobStatus] > STATUS_RANK[state.status]
  }
  return shown.jobUpdatedAt !== undefined && shown.jobUpdatedAt > state.updatedAt.toISOString()
}

function isJobKind(kind: string): kind is JobKind {
  return (JOB_KINDS as readonly string[]).includes(kind)
}

/** The job fields `state` shows ({@link JOB_FIELDS}), absent where `state` has none. */
function jobFieldsOf(state: JobNodeState): JobFields {
  return {
    jobId: state.id,
    // A kind the canvas does not word (one a test or a later server runs) is left unsaid.
    ...(isJobKind(state.kind) && { jobKind: state.kind }),
    jobStatus: state.status,
    ...(state.progress !== null && { jobProgress: state.progress }),
    ...(state.stage !== null && { jobStage: state.stage }),
    ...(state.message !== null && { jobMessage: state.message }),
    ...(state.refunded !== null && { jobRefunded: state.refunded }),
    jobUpdatedAt: state.updatedAt.toISOString(),
  }
}

/**
 * Writes `state` onto node `nodeId`'s data (the fields of {@link JOB_FIELDS}; a null field
 * removes its key), in one transaction with `origin`. A state older than the one the node
 * shows (the same job further along, or a later job) is not written.
 * @returns false when the doc has no such node (it was deleted): nothing is written.
 */
export function writeJobState(
  doc: Y.Doc,
  nodeId: string,
  state: JobNodeState,
  origin: unknown = null,
): boolean {
  const ynode = getNodesMap(doc).get(nodeId)
  if (!(ynode instanceof Y.Map)) return false
  if (isStale(ynode.get('data'), state)) return true
  const fields: Record<string, unknown> = jobFieldsOf(state)
  doc.transact(() => {
    let data = ynode.get('data')
    if (!(data instanceof Y.Map)) {
      data = new Y.Map<NodeDataValue>()
      ynode.set('data', data)
    }
    const ydata = data as Y.Map<NodeDataValue>
    for (const [key, field] of Object.entries(JOB_FIELDS)) {
      const value = fields[key]
      if (value === undefined) {
        if (ydata.has(key)) ydata.delete(key)
      } else {
        const stored = field.store(value as never)
        if (ydata.get(key) !== stored) ydata.set(key, stored)
      }
    }
  }, origin)
  return true
}

/** Lower-case hex of a job id (a UUID), at least 14 characters. */
function hexOf(jobId: string): string {
  const hex = jobId.toLowerCase().replace(/[^0-9a-f]/g, '')
  return hex.padStart(14, '0')
}

/**
 * The ids of a job's result nodes: `<type>-<job created, ms>-<14 hex of the job id><index,
 * 2 base-36 digits>`, the spec's id shape (`NODE_ID_PATTERN`) and the same every time for one
 * job, so writing its result twice (a worker that died after writing, a retry) adds nothing.
 */
export function resultNodeIds(
  jobId: string,
  createdAtMs: number,
  type: NodeType,
  count: number,
): string[] {
  const hex = hexOf(jobId).slice(-14)
  return Array.from(
    { length: count },
    (_, i) => `${type}-${Math.floor(createdAtMs)}-${hex}${i.toString(36).padStart(2, '0')}`,
  )
}

/** What {@link writeJobResult} did. */
export type ResultWrite = 'written' | 'already-written' | 'source-missing' | 'no-room'

/**
 * Adds a job's result beside its source node, in one transaction with `origin`, together
 * with the final `state` on the source node (none when `state` is null: a step of a chain,
 * whose state is shown on the chain's own node): the result built by `build` from the source's
 * current position is moved into free space ({@link placeInFreeSpace}) among the doc's
 * nodes, and connected source -> result.
 * Idempotent: when a result node id is already in the doc nothing is added (the state is
 * still written).
 * Server writes skip the sync server's update check, so the project limit is kept here: a
 * result that would take the project past MAX_NODES is not placed, and the node says so.
 * @returns `source-missing` when the source node was deleted meanwhile (nothing is written);
 *   `no-room` when the result would pass MAX_NODES (only the state is written).
 */
export function writeJobResult(
  doc: Y.Doc,
  sourceId: string,
  build: (source: PlacementSource) => GraphAddition,
  state: JobNodeState | null,
  origin: unknown = null,
): ResultWrite {
  const nodes = getNodesMap(doc)
  const source = readNode(sourceId, nodes.get(sourceId))
  if (!source) return 'source-missing'
  const addition = build({ id: source.id, position: source.position })
  if (addition.nodes.some((n) => nodes.has(n.id))) {
    if (state) writeJobState(doc, sourceId, state, origin)
    return 'already-written'
  }
  if (nodes.size + addition.nodes.length > MAX_NODES) {
    const message = `${UPDATE_REFUSAL_MESSAGES['too-many-nodes']} The result was not placed.`
    if (state) writeJobState(doc, sourceId, { ...state, message }, origin)
    return 'no-room'
  }
  const existing: GraphNode[] = []
  for (const [id, ynode] of nodes.entries()) {
    const node = readNode(id, ynode)
    if (node) existing.push(node)
  }
  const placed = placeInFreeSpace(addition, existing)
  doc.transact(() => {
    for (const node of placed.nodes) nodes.set(node.id, nodeToYMap(node))
    const connections = getConnectionsMap(doc)
    for (const c of placed.connections) {
      const key = connectionKey(c)
      if (c.source !== c.target && !connections.has(key)) {
        connections.set(key, { source: c.source, target: c.target })
      }
    }
    if (state) writeJobState(doc, sourceId, state, origin)
  }, origin)
  return 'written'
}
