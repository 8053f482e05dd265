import {
  IMAGE_DEFAULT_GUIDANCE,
  IMAGE_DEFAULT_HEIGHT_PX,
  IMAGE_DEFAULT_STEPS,
  IMAGE_DEFAULT_WIDTH_PX,
  SCENE_COUNT_DEFAULT,
  SCRIPT_FORMATS,
  SCRIPT_STYLES,
  SCRIPT_TONES,
} from './constants.ts'
import {
  type ConnectionPoints,
  createNodeId,
  type GraphNode,
  type NodeData,
  type NodeType,
} from './graph.ts'

/**
 * What a new node of each type starts with (spec §3 Node data by type, §5, §9 Image
 * defaults and Script choices), shared by the canvas and the job worker that writes
 * results into documents (issue 12). Fields the spec shows as strings are strings
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
    case 'video':
      // Issue 13 item 5: the settings; the result keys (VIDEO_DATA_KEYS) come with a render.
      return { preset: '16:9', voice: '', subtitles: true, music: false }
  }
}

/** The title a node of each type gets (shown in its header). */
export const NODE_TITLES: Record<NodeType, string> = {
  'script-generator': 'Script Generator',
  scene: 'Scene',
  'editable-text': 'Text',
  'image-generator': 'Image Generator',
  image: 'Image',
  video: 'Video',
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
  video: 'both',
}

/**
 * A new node of `type` at `position` with the type's defaults. A scene is numbered one
 * past the highest scene number already on the canvas and labelled "Scene N".
 * @param id the node's id; default a fresh `<type>-<now>-<random>` ({@link createNodeId})
 */
export function createGraphNode(
  type: NodeType,
  position: { x: number; y: number },
  existing: readonly ExistingNode[] = [],
  now = Date.now(),
  id: string = createNodeId(type, now),
): GraphNode {
  const data = defaultNodeData(type)
  let label = NODE_TITLES[type]
  if (type === 'scene') {
    const next = nextSceneNumber(existing)
    data.sceneNumber = String(next)
    label = `Scene ${next}`
  }
  return {
    id,
    type,
    label,
    position: { x: position.x, y: position.y },
    data,
    connectionPoints: DEFAULT_CONNECTION_POINTS[type],
  }
}

/**
 * What {@link createGraphNode} reads of the nodes already there: their type and data, as
 * stored (`GraphNode`) or as the canvas holds it (its flow data, with more fields).
 */
export interface ExistingNode {
  type: NodeType
  data: Readonly<Record<string, unknown>>
}

/** One more than the highest numeric sceneNumber among `nodes` (1 when there is none). */
export function nextSceneNumber(nodes: readonly ExistingNode[]): number {
  let highest = 0
  for (const node of nodes) {
    if (node.type !== 'scene') continue
    const n = Number(node.data.sceneNumber)
    if (Number.isInteger(n) && n > highest) highest = n
  }
  return highest + 1
}
