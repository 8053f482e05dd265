import {
  addGraphNodes,
  connectGraphNodes,
  deleteGraphNodes,
  updateGraphNode,
} from '../../projects/graph-edit-service.ts'
import { defineTool } from '../mcp-tool.ts'

/**
 * The graph-editing tools (issue 41 item 2): each one Yjs change to the project's live
 * document (`graph-edit-service.ts`), so the people with the canvas open see it at once.
 */

export const addNodesTool = defineTool({
  name: 'add_nodes',
  title: 'Add nodes',
  description:
    'Adds nodes to a project’s canvas, each with its type’s defaults and the data you give. Types: script-generator (topic, style, tone, format), editable-text (content, sceneCount), scene (narration, visuals), image-generator (prompt, width, height, modelVersionId), image, video-generator (prompt, modelId, durationSeconds, aspectRatio), clip, video (preset, subtitles, music). Without a position a node goes to the nearest free spot. Answers the nodes with their ids. Editors and owners only.',
  readOnly: false,
  async run({ projectId, nodes }, { deps, actor }) {
    const added = await addGraphNodes(deps, { userId: actor.user.id, projectId, nodes })
    return { nodes: added }
  },
})

export const connectNodesTool = defineTool({
  name: 'connect_nodes',
  title: 'Connect nodes',
  description:
    'Connects nodes: each connection runs from `source`’s output to `target`’s input (script-generator -> editable-text -> scene -> image-generator -> image -> video, image -> video-generator -> clip -> video). A pair already connected stays once. Editors and owners only.',
  readOnly: false,
  async run({ projectId, connections }, { deps, actor }) {
    const made = await connectGraphNodes(deps, { userId: actor.user.id, projectId, connections })
    return { connections: made }
  },
})

export const updateNodeTool = defineTool({
  name: 'update_node',
  title: 'Change a node',
  description:
    'Changes some data fields, the label or the position of one node; the fields you leave out are kept. Answers the node as it is now. Editors and owners only.',
  readOnly: false,
  async run({ projectId, nodeId, data, label, position }, { deps, actor }) {
    const node = await updateGraphNode(deps, {
      userId: actor.user.id,
      projectId,
      nodeId,
      data,
      label,
      position,
    })
    return { node }
  },
})

export const deleteNodesTool = defineTool({
  name: 'delete_nodes',
  title: 'Delete nodes',
  description:
    'Deletes nodes and every connection touching them, in one change. Every id must be a node of the project (else nothing is deleted). Editors and owners only.',
  readOnly: false,
  destructive: true,
  async run({ projectId, nodeIds }, { deps, actor }) {
    const deleted = await deleteGraphNodes(deps, { userId: actor.user.id, projectId, nodeIds })
    return { deleted }
  },
})
