import type * as Y from 'yjs'
import { docToGraph, getNodesMap, readNode, updateNodeData } from './graph-doc.ts'
import { readNodeData } from './nodes/registry.ts'
import { RESULT_INPUT_HASH_KEY } from './nodes/result-hash.ts'
import {
  effectivePrompt,
  effectiveStartImage,
  generatorInputHash,
  isGeneratorType,
  type TimelineOf,
} from './stale.ts'
import { storedTimelineOf } from './timeline.ts'
import { getTimelinesMap } from './timeline-doc.ts'

/**
 * The stale hashes of a project's Y.Doc (issue 42 item 4): what the api reads and writes on
 * the server, inside the document transaction of a job's submission or result.
 */

/** The timelines of `doc`'s Video nodes, as shared's stale functions read them. */
export function docTimelineOf(doc: Y.Doc): TimelineOf {
  const entries = [...getTimelinesMap(doc).entries()]
  return (videoId) => storedTimelineOf(entries, videoId)
}

/** Generator `nodeId`'s input hash in `doc` now, or null when it is no generator of it. */
export function docInputHash(doc: Y.Doc, nodeId: string): string | null {
  return generatorInputHash(docToGraph(doc), nodeId, docTimelineOf(doc))
}

/**
 * Stores on generator `nodeId` the hash of the inputs its result was just made from: `hash`,
 * or (null: a result whose inputs were not hashed when it started) the hash of its inputs in
 * `doc` now. Call it in the transaction that writes the result. Nothing is written to a node
 * that is gone or is no generator with a result hash (a Video node's takes carry theirs).
 * @see issue 42 item 4
 */
export function stampResultHash(
  doc: Y.Doc,
  nodeId: string,
  hash: string | null,
  origin: unknown = null,
): void {
  const type = readNode(nodeId, getNodesMap(doc).get(nodeId))?.type
  if (type === undefined || type === 'video' || !isGeneratorType(type)) return
  const value = hash ?? docInputHash(doc, nodeId)
  if (value === null) return
  updateNodeData(doc, nodeId, { [RESULT_INPUT_HASH_KEY]: value }, origin)
}

/**
 * Before a run starts generator `nodeId` (issue 42 item 4): an image or video generator that
 * takes its prompt from a scene gets the scene's current visuals as its prompt, and a Video
 * Generator the newest picture of its start image node as its `imageUrl` (shared's
 * `effectivePrompt`, `effectiveStartImage`), so its request is what its input hash says.
 * Fields already right are not written. Call it in a document transaction.
 */
export function prepareRunNode(doc: Y.Doc, nodeId: string, origin: unknown = null): void {
  const graph = docToGraph(doc)
  const node = graph.nodes.find((n) => n.id === nodeId)
  if (node?.type !== 'image-generator' && node?.type !== 'video-generator') return
  const patch: Record<string, string> = {}
  const data = readNodeData(node.type, node.data)
  const prompt = effectivePrompt(graph, nodeId)
  if (prompt !== data.prompt) patch.prompt = prompt
  if (node.type === 'video-generator') {
    const imageUrl = effectiveStartImage(graph, nodeId)
    if (imageUrl !== readNodeData('video-generator', node.data).imageUrl) patch.imageUrl = imageUrl
  }
  if (Object.keys(patch).length > 0) updateNodeData(doc, nodeId, patch, origin)
}
