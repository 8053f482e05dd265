import type { NodeType } from '@reelgraph/shared'

/**
 * The Nodes Library's entries. What a new node starts with (`defaultNodeData`,
 * `createGraphNode`, `NODE_TITLES`) lives in shared, one copy for the canvas and the job
 * worker (issue 12).
 */

/**
 * A Nodes Library entry (spec §2: script generator, scene, text node; issue 13: video; issue
 * 22: the Video Generator, whose Clip nodes are results, not entries).
 */
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
  {
    type: 'video-generator',
    title: 'Video Generator',
    description: 'Turn a scene’s image or a prompt into a moving clip with a video model.',
  },
  {
    type: 'video',
    title: 'Video',
    description: 'Render connected scenes, or a text node’s scenes, into an MP4.',
  },
]

/** The MIME type a library entry carries while it is dragged onto the canvas. */
export const LIBRARY_DRAG_MIME = 'application/x-reelgraph-node-type'
