import type { ConnectionPoints, NodeType } from '@reelgraph/shared'
import type { Edge, Node } from '@xyflow/react'
import type { JobFields } from './job-state'

/**
 * The canvas's React Flow nodes: one `Node<Data, 'kind'>` per node type of shared
 * `NODE_TYPES`, with the data each type's component shows (spec §3 Node data by type).
 * Values are normalized when read from the doc (missing or mistyped fields get their
 * defaults), so components never guess.
 */

/** What every node's data carries besides its own fields. */
export interface BaseNodeData extends Record<string, unknown> {
  label: string
  connectionPoints: ConnectionPoints
}

/** script-generator: topic, style, tone, format (spec §3, §9 Script choices), and its job. */
export interface ScriptGeneratorData extends BaseNodeData, JobFields {
  topic: string
  style: string
  tone: string
  format: string
}

/** scene: sceneNumber (a string), narration, visuals (spec §3). */
export interface SceneData extends BaseNodeData {
  sceneNumber: string
  narration: string
  visuals: string
}

/** editable-text: content, the scene count for Generate Scenes (spec §5), and its job. */
export interface EditableTextData extends BaseNodeData, JobFields {
  content: string
  sceneCount: number
}

/** image-generator (spec §3, §5 Image generation, §9 Image defaults), and its job. */
export interface ImageGeneratorData extends BaseNodeData, JobFields {
  prompt: string
  negativePrompt: string
  width: number
  height: number
  numInferenceSteps: number
  guidanceScale: number
  /** Empty means "random at generation time" (spec §5). */
  seed: string
  modelId: string
  modelVersionId: string
  promptFromScene: 'true' | 'false'
}

/** image: the generated image and what made it (spec §3). */
export interface ImageNodeData extends BaseNodeData {
  imageUrl: string
  prompt: string
  width: number
  height: number
}

/** video (issue 13 item 5): its settings, the last render's result, and its render job. */
export interface VideoNodeData extends BaseNodeData, JobFields {
  preset: string
  voice: string
  subtitles: boolean
  music: boolean
  /** The last render's assets ('' before the first render). */
  videoUrl: string
  srtUrl: string
  vttUrl: string
  durationMs: number
  /** shared `videoInputHash` of what the last render used ('' before the first). */
  inputHash: string
  /**
   * The last renders as stored (a JSON string, read with shared `videoTakesOf`): kept as a
   * string so the node's data stays equal while nothing changed.
   */
  takesJson: string
}

export type ScriptGeneratorNode = Node<ScriptGeneratorData, 'script-generator'>
export type SceneNode = Node<SceneData, 'scene'>
export type EditableTextNode = Node<EditableTextData, 'editable-text'>
export type ImageGeneratorNode = Node<ImageGeneratorData, 'image-generator'>
export type ImageNode = Node<ImageNodeData, 'image'>
export type VideoNode = Node<VideoNodeData, 'video'>

/** Any node on the canvas. */
export type CanvasNode =
  ScriptGeneratorNode | SceneNode | EditableTextNode | ImageGeneratorNode | ImageNode | VideoNode

/** The data of the node of type `T`. */
export type NodeDataOf<T extends NodeType> = Extract<CanvasNode, { type: T }>['data']

/** A connection on the canvas: a bezier edge whose id is the shared `connectionKey`. */
export type CanvasEdge = Edge
