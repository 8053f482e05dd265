import {
  buildClipRequest,
  buildImageRequest,
  buildScenesRequest,
  buildScriptRequest,
  docToGraph,
  generateImageInput,
  generateScenesInput,
  generateScriptInput,
  generateVideoInput,
  type GraphNode,
  type NodeType,
  readNodeData,
} from '@reelgraph/shared'
import type { z } from 'zod'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { submitClip } from '../generation/clip-service.ts'
import { submitImage, submitScenes, submitScript } from '../generation/generation-service.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { submitVideoRender } from '../video/video-service.ts'

/**
 * `run_node` (issue 41 item 2): runs a generator node as its Generate (or Render) button does,
 * with the request the canvas builds from the node's data (shared's `node-requests.ts`) and
 * the same submission REST uses, so the job writes its state and result onto the canvas.
 */

/** What running a node needs. */
export type RunNodeDeps = Pick<
  AppDeps,
  'db' | 'env' | 'jobs' | 'documents' | 'tasks' | 'catalog' | 'assets'
>

/** Who runs which node. */
export interface RunNodeRequest {
  userId: number
  projectId: number
  nodeId: string
}

/** How one node type runs: the job it submits. */
type NodeRunner = (deps: RunNodeDeps, node: GraphNode, request: RunNodeRequest) => Promise<JobRow>

/** `schema`'s parse of `value`, or a 400 with its first problem (what the button would say). */
function requestOf<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new AppError(
    'VALIDATION_FAILED',
    parsed.error.issues[0]?.message ?? 'Check the node’s fields.',
  )
}

/** The node types that run, and how (a registry: one line per runnable type). */
const RUNNERS: Partial<Record<NodeType, NodeRunner>> = {
  'script-generator': (deps, node, { userId, projectId, nodeId }) =>
    submitScript(deps, {
      userId,
      input: requestOf(generateScriptInput, {
        ...buildScriptRequest(readNodeData('script-generator', node.data)),
        projectId,
        nodeId,
      }),
    }),
  'editable-text': (deps, node, { userId, projectId, nodeId }) =>
    submitScenes(deps, {
      userId,
      input: requestOf(generateScenesInput, {
        ...buildScenesRequest(readNodeData('editable-text', node.data)),
        projectId,
        nodeId,
      }),
    }),
  'image-generator': (deps, node, { userId, projectId, nodeId }) => {
    const data = readNodeData('image-generator', node.data)
    // An image generator without a model draws with the first listed, as the canvas picks it.
    const modelVersionId = data.modelVersionId || (deps.catalog.list('image')[0]?.id ?? '')
    return submitImage(deps, {
      userId,
      input: requestOf(generateImageInput, {
        ...buildImageRequest(projectId, { ...data, modelVersionId }),
        nodeId,
      }),
    })
  },
  'video-generator': (deps, node, { userId, projectId, nodeId }) => {
    const data = readNodeData('video-generator', node.data)
    const model = deps.catalog.video(data.modelId)?.model
    if (!model) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Pick a video model for this node (list_models kind video) with update_node’s `modelId`.',
      )
    }
    return submitClip(deps, {
      userId,
      input: requestOf(generateVideoInput, {
        ...buildClipRequest(data, model),
        projectId,
        nodeId,
      }),
    })
  },
  video: (deps, _node, { userId, projectId, nodeId }) =>
    submitVideoRender(deps, { userId, projectId, nodeId }),
}

/** The node types `run_node` runs. */
export const RUNNABLE_NODE_TYPES = Object.keys(RUNNERS) as NodeType[]

/**
 * Runs node `nodeId` of the project: a script generator writes a script, a text node its
 * scenes, an image generator an image, a video generator a clip, a Video node its render.
 * @returns the job (follow it with `get_job`).
 * @throws AppError 404 for a project the caller may not read or a node it does not have; 403
 *   for a viewer; 400 for a node that does not run or whose fields its button would refuse;
 *   402 when the caller cannot pay (nothing charged).
 */
export async function runNode(deps: RunNodeDeps, request: RunNodeRequest): Promise<JobRow> {
  const { userId, projectId, nodeId } = request
  await requireProjectRole(deps.db, { userId, projectId, needed: 'editor' })
  const graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
  const node = graph.nodes.find((n) => n.id === nodeId)
  if (!node) throw new AppError('NOT_FOUND', `This project has no node "${nodeId}".`)
  const runner = RUNNERS[node.type]
  if (!runner) {
    throw new AppError(
      'BAD_REQUEST',
      `A ${node.type} node does not run. Run one of: ${RUNNABLE_NODE_TYPES.join(', ')}.`,
    )
  }
  return runner(deps, node, request)
}
