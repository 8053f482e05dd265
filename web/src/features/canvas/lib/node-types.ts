import type { ConnectionPoints, NodeDataOf as StoredNodeDataOf, NodeType } from '@reelgraph/shared'
import type { Edge, Node } from '@xyflow/react'

/**
 * The canvas's React Flow nodes: one `Node<Data, 'kind'>` per node type of shared
 * `NODE_KINDS`, whose data is the node's data as its type reads it (shared `NodeDataOf`:
 * every field typed, missing or mistyped ones at their defaults, a generator's job fields
 * when it has a job) plus what only the canvas shows (label, connection points).
 */

/**
 * What every node's flow data carries besides its type's fields (a type, not an interface,
 * so that flow data fits React Flow's `Record<string, unknown>`).
 */
export type BaseNodeData = {
  label: string
  connectionPoints: ConnectionPoints
}

/** The flow data of the node of type `T`. */
export type NodeDataOf<T extends NodeType> = StoredNodeDataOf<T> & BaseNodeData

export type ScriptGeneratorData = NodeDataOf<'script-generator'>
export type EditableTextData = NodeDataOf<'editable-text'>
export type ImageGeneratorData = NodeDataOf<'image-generator'>
export type VideoGeneratorData = NodeDataOf<'video-generator'>
export type ClipData = NodeDataOf<'clip'>

/** The React Flow node of each type. */
type FlowNodes = { [T in NodeType]: Node<NodeDataOf<T>, T> }

export type ScriptGeneratorNode = FlowNodes['script-generator']
export type SceneNode = FlowNodes['scene']
export type EditableTextNode = FlowNodes['editable-text']
export type ImageGeneratorNode = FlowNodes['image-generator']
export type ImageNode = FlowNodes['image']
export type VideoNode = FlowNodes['video']
export type VideoGeneratorNode = FlowNodes['video-generator']
export type ClipNode = FlowNodes['clip']

/** Any node on the canvas. */
export type CanvasNode = FlowNodes[NodeType]

/** A connection on the canvas: a bezier edge whose id is the shared `connectionKey`. */
export type CanvasEdge = Edge
