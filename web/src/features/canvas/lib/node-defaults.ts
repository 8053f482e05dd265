import {
  type ConnectionPoints,
  createNodeId,
  type GraphNode,
  IMAGE_DEFAULT_GUIDANCE,
  IMAGE_DEFAULT_HEIGHT_PX,
  IMAGE_DEFAULT_STEPS,
  IMAGE_DEFAULT_WIDTH_PX,
  type NodeData,
  type NodeType,
  SCENE_COUNT_DEFAULT,
  SCRIPT_FORMATS,
  SCRIPT_STYLES,
  SCRIPT_TONES,
} from '@reelgraph/shared'

/**
 * What a new node of each type starts with (spec §3 Node data by type, §5, §9 Image
 * defaults and Script choices). Fields the spec shows as strings are strings
 * (ARCHITECTURE decision 2); sizes, steps, guidance and the scene count are numbers.
 */
export function defaultNodeData(type: NodeType): NodeData {
  switch (type) {
    case 'script-generator':
      return {
        topic: '',
        style: SCRIPT_STYLES[0],
        tone: SCRIPT_TONES[0],
        format: SCRIPT_FORMATS[0],
      }
    case 'scene':
      return { sceneNumber: '1', narration: '', visuals: '' }
    case 'editable-text':
      return { content: '', sceneCount: SCENE_COUNT_DEFAULT }
    case 'image-generator':
      return {
        prompt: '',
        negativePrompt: '',
        width: IMAGE_DEFAULT_WIDTH_PX,
        height: IMAGE_DEFAULT_HEIGHT_PX,
        numInferenceSteps: IMAGE_DEFAULT_STEPS,
        guidanceScale: IMAGE_DEFAULT_GUIDANCE,
        seed: '',
        modelId: '',
        modelVersionId: '',
        promptFromScene: 'false',
      }
    case 'image':
      return {
        imageUrl: '',
        prompt: '',
        width: IMAGE_DEFAULT_WIDTH_PX,
        height: IMAGE_DEFAULT_HEIGHT_PX,
      }
  }
}

/** The title a node of each type gets (shown in its header). */
export const NODE_TITLES: Record<NodeType, string> = {
  'script-generator': 'Script Generator',
  scene: 'Scene',
  'editable-text': 'Text',
  'image-generator': 'Image Generator',
  image: 'Image',
}

/**
 * Where each type connects: a script generator only feeds others, an image is only fed,
 * the rest both (spec §3 Node connectionPoints; spec §4's flow script -> text -> scenes ->
 * image generator -> image).
 */
export const DEFAULT_CONNECTION_POINTS: Record<NodeType, ConnectionPoints> = {
  'script-generator': 'output',
  scene: 'both',
  'editable-text': 'both',
  'image-generator': 'both',
  image: 'input',
}

/**
 * A new node of `type` at `position` with the type's defaults. A scene is numbered one
 * past the highest scene number already on the canvas and labelled "Scene N".
 */
export function createGraphNode(
  type: NodeType,
  position: { x: number; y: number },
  existing: readonly Pick<GraphNode, 'type' | 'data'>[] = [],
  now = Date.now(),
): GraphNode {
  const data = defaultNodeData(type)
  let label = NODE_TITLES[type]
  if (type === 'scene') {
    const next = nextSceneNumber(existing)
    data.sceneNumber = String(next)
    label = `Scene ${next}`
  }
  return {
    id: createNodeId(type, now),
    type,
    label,
    position: { x: position.x, y: position.y },
    data,
    connectionPoints: DEFAULT_CONNECTION_POINTS[type],
  }
}

/** One more than the highest numeric sceneNumber among `nodes` (1 when there is none). */
export function nextSceneNumber(nodes: readonly Pick<GraphNode, 'type' | 'data'>[]): number {
  let highest = 0
  for (const node of nodes) {
    if (node.type !== 'scene') continue
    const n = Number(node.data.sceneNumber)
    if (Number.isInteger(n) && n > highest) highest = n
  }
  return highest + 1
}

/** A Nodes Library entry (spec §2: script generator, scene and text node only). */
export interface LibraryEntry {
  type: NodeType
  title: string
  description: string
}

/** The Nodes Library, in order (spec §2 "/ (canvas editor)"). */
export const LIBRARY_ENTRIES: readonly LibraryEntry[] = [
  {
    type: 'script-generator',
    title: 'Script Generator',
    description: 'Write a video script from a topic, style, tone and format.',
  },
  {
    type: 'scene',
    title: 'Scene',
    description: 'Narration and visual instructions for one scene.',
  },
  {
    type: 'editable-text',
    title: 'Text Node',
    description: 'Edit a script and split it into scenes.',
  },
]

/** The MIME type a library entry carries while it is dragged onto the canvas. */
export const LIBRARY_DRAG_MIME = 'application/x-reelgraph-node-type'
