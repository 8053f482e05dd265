import type { ConnectionPoints, NodeData } from '../node-values.ts'
import { editableTextNode } from './editable-text.ts'
import { imageNode } from './image.ts'
import { imageGeneratorNode } from './image-generator.ts'
import type { NodeFields } from './node-field.ts'
import type { NodeKind, StoredNodeData } from './node-kind.ts'
import { sceneNode } from './scene.ts'
import { scriptGeneratorNode } from './script-generator.ts'
import { clipNode } from './clip.ts'
import { videoNode } from './video.ts'
import { videoGeneratorNode } from './video-generator.ts'

/**
 * Every node type by name (issue 21 item 3): the one registry of node data. The canvas, the
 * sync validator, the api and the workers read and write node data only through it; the
 * node types, titles, connection points, footprints and defaults derive from it. Adding a
 * node type is one module under `nodes/` and one line here.
 * @see spec §3 Node data by type; issue 13 item 5 (Video)
 */
export const NODE_KINDS = {
  'script-generator': scriptGeneratorNode,
  scene: sceneNode,
  'editable-text': editableTextNode,
  'image-generator': imageGeneratorNode,
  image: imageNode,
  video: videoNode,
  'video-generator': videoGeneratorNode,
  clip: clipNode,
} as const satisfies { [T in string]: NodeKind<T, NodeFields> }

/**
 * A node type (spec §3's five, the Video node of issue 13 item 5, the Video Generator and
 * Clip of issue 22).
 */
export type NodeType = keyof typeof NODE_KINDS

/** The node types, in the registry's order. */
export const NODE_TYPES = Object.keys(NODE_KINDS) as [NodeType, ...NodeType[]]

/** The data of a node of type `T`, as read: every field of its type, typed. */
export type NodeDataOf<T extends NodeType> = ReturnType<(typeof NODE_KINDS)[T]['read']>

/** The data of any node, as read. */
export type AnyNodeData = { [T in NodeType]: NodeDataOf<T> }[NodeType]

/** True when `type` is a node type. */
export function isNodeType(type: unknown): type is NodeType {
  return typeof type === 'string' && Object.hasOwn(NODE_KINDS, type)
}

/**
 * A node's data as its type reads it (stored data, or the canvas's flow data): older shapes
 * migrated, each field of the right kind or its default, unknown keys left out.
 */
export function readNodeData<T extends NodeType>(type: T, data: StoredNodeData): NodeDataOf<T> {
  return NODE_KINDS[type].read(data) as NodeDataOf<T>
}

/** The stored form of some fields of a node of type `T` (to write into its data). */
export function storedNodeData<T extends NodeType>(
  type: T,
  patch: Partial<NodeDataOf<T>>,
): NodeData {
  const kind = NODE_KINDS[type] as unknown as NodeKind<T, NodeFields>
  return kind.store(patch)
}

/**
 * Why a node of `type` cannot hold `value` under data key `key` ("data \"width\" of a
 * image-generator node must be a number"), or null when it can: `key` is a field of the
 * type and `value` one it reads (a numeric string for a number, "true" or "false" for a
 * boolean, one of the choices). Unknown keys and unknown types answer null (the document's
 * other rules judge them). The sync validator refuses a change that stores such a value.
 */
export function nodeDataProblem(type: unknown, key: string, value: unknown): string | null {
  return isNodeType(type) ? NODE_KINDS[type].problem(key, value) : null
}

/** What a new node of `type` starts with (spec §3, §5, §9 Image defaults and Script choices). */
export function defaultNodeData(type: NodeType): NodeData {
  return NODE_KINDS[type].defaults()
}

function byType<V>(pick: (kind: (typeof NODE_KINDS)[NodeType]) => V): Record<NodeType, V> {
  return Object.fromEntries(NODE_TYPES.map((type) => [type, pick(NODE_KINDS[type])])) as Record<
    NodeType,
    V
  >
}

/** The title a node of each type gets (shown in its header). */
export const NODE_TITLES: Record<NodeType, string> = byType((kind) => kind.title)

/**
 * Where each type connects: a script generator only feeds others, an image is only fed,
 * the rest both (spec §3 Node connectionPoints; spec §4's flow script -> text -> scenes ->
 * image generator -> image).
 */
export const DEFAULT_CONNECTION_POINTS: Record<NodeType, ConnectionPoints> = byType(
  (kind) => kind.connectionPoints,
)

/**
 * The area each node type is taken to cover, in canvas units, for free-space placement: the
 * width the canvas renders (spec §9: 300, images up to 400) and the height of a node with its
 * default fields (measured in the canvas at 100 % zoom, rounded up). The server has no
 * measured sizes, so these are nominal; a node that grew taller may still be touched.
 */
export const NODE_FOOTPRINTS: Record<NodeType, { width: number; height: number }> = byType(
  (kind) => kind.footprint,
)
