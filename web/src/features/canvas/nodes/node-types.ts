import type { NodeTypes } from '@xyflow/react'
import { ClipNode } from './clip-node'
import { EditableTextNode } from './editable-text-node'
import { ImageGeneratorNode } from './image-generator-node'
import { ImageNode } from './image-node'
import { SceneNode } from './scene-node'
import { ScriptGeneratorNode } from './script-generator-node'
import { VideoGeneratorNode } from './video-generator-node'
import { VideoNode } from './video-node'

/**
 * React Flow's node components by node type, at module scope so React Flow never sees a
 * new object (which would remount every node).
 */
export const NODE_COMPONENTS = {
  'script-generator': ScriptGeneratorNode,
  scene: SceneNode,
  'editable-text': EditableTextNode,
  'image-generator': ImageGeneratorNode,
  image: ImageNode,
  video: VideoNode,
  'video-generator': VideoGeneratorNode,
  clip: ClipNode,
} satisfies NodeTypes
