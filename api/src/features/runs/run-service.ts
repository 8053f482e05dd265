import {
  docTimelineOf,
  docToGraph,
  type Graph,
  type GeneratorNodeType,
  GENERATOR_NODE_TYPES,
  isGeneratorType,
  modelCredits,
  planRun,
  type PlannedRunNode,
  prepareRunNode,
  type ProjectRunOutput,
  readNodeData,
  type RunScope,
  type SkippedRunNode,
  type TimelineOf,
  collectVideoInputs,
  videoRenderCost,
} from '@reelgraph/shared'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { OPEN_JOB_STATUSES } from '../jobs/job-store.ts'
import { type CapturedSubmission, captureSubmission } from '../jobs/submission-capture.ts'
import { newJobId, recordRunJobs } from '../jobs/waiting-jobs.ts'
import { runNode, type RunNodeDeps } from './run-node.ts'

/**
 * Run only what is stale (issue 42 item 4, decision 034): plan a project's run with shared's
 * `planRun` over the live document, price each node as its own Generate button would charge
 * (the submission `runNode` makes, captured: image cost, the clip model's credits, the render's
 * COST_VIDEO + a voice per narration the cache lacks), and record them as jobs that wait for
 * their inputs.
 */

/** What a run needs: what running one node needs. */
export type RunDeps = RunNodeDeps

/** Who runs what. */
export interface ProjectRunRequest {
  userId: number
  projectId: number
  scope: RunScope
  nodeIds?: readonly string[] | undefined
}

/** One priced node of a run. */
interface PricedNode extends PlannedRunNode {
  credits: number
  /** The submission read now; null for a waiting node whose request cannot be read yet. */
  submission: CapturedSubmission | null
}

/** How many times a plan is made again after a node turned out not to run. */
const REPLANS_MAX = 5

/** The nodes of the project with a job still open (a run never starts them twice). */
async function busyNodes(deps: RunDeps, projectId: number): Promise<Set<string>> {
  const rows = await deps.db
    .selectFrom('generation_jobs')
    .select('node_id')
    .where('project_id', '=', projectId)
    .where('status', 'in', OPEN_JOB_STATUSES)
    .execute()
  return new Set(rows.flatMap((r) => (r.node_id ? [r.node_id] : [])))
}

async function readProject(
  deps: RunDeps,
  projectId: number,
): Promise<{ graph: Graph; timelineOf: TimelineOf }> {
  return deps.documents.transact(projectId, (doc) => ({
    graph: docToGraph(doc),
    timelineOf: docTimelineOf(doc),
  }))
}

/**
 * A waiting node's credits when its request cannot be read before its inputs exist (a Video
 * node whose scenes' first pictures the run makes): the most it can cost.
 */
function estimateCredits(deps: RunDeps, graph: Graph, nodeId: string): number {
  const node = graph.nodes.find((n) => n.id === nodeId)
  const costs = deps.env.costs
  switch (node?.type) {
    case 'script-generator':
      return costs.script
    case 'editable-text':
      return costs.scenes
    case 'image-generator':
      return costs.image
    case 'video-generator': {
      const data = readNodeData('video-generator', node.data)
      const model = deps.catalog.video(data.modelId)?.model
      return model ? modelCredits(model, data.durationSeconds) : 0
    }
    case 'video': {
      const scenes = collectVideoInputs(graph, nodeId)?.scenes ?? []
      return videoRenderCost(costs, scenes.filter((s) => s.narration.trim() !== '').length)
    }
    default:
      return 0
  }
}

/**
 * Plans and prices the run: each node that runs at once is prepared (a scene's visuals into
 * its prompt; `prepare`, only for a real run) and its submission read; a waiting node is
 * priced by the submission it would make now. A node that cannot be submitted now (its button
 * would refuse it) leaves the run with its reason, and the plan is made again without it.
 */
async function priceRun(
  deps: RunDeps,
  request: ProjectRunRequest,
  prepare: boolean,
): Promise<{ nodes: PricedNode[]; skipped: SkippedRunNode[] }> {
  const { userId, projectId } = request
  const busy = await busyNodes(deps, projectId)
  const refused = new Map<string, string>()
  for (let attempt = 0; ; attempt++) {
    const { graph, timelineOf } = await readProject(deps, projectId)
    const plan = planRun(
      graph,
      { scope: request.scope, nodeIds: request.nodeIds, busy, refused },
      timelineOf,
    )
    const nodes: PricedNode[] = []
    let replan = false
    for (const node of plan.nodes) {
      const waits = node.waitsFor.length > 0
      try {
        if (prepare && !waits) {
          await deps.documents.transact(projectId, (doc, origin) =>
            prepareRunNode(doc, node.nodeId, origin),
          )
        }
        const submission = await captureSubmission(() =>
          runNode(deps, { userId, projectId, nodeId: node.nodeId }),
        )
        nodes.push({ ...node, credits: submission.cost, submission })
      } catch (err) {
        if (!(err instanceof AppError)) throw err
        // Access is the caller's, not the node's: a 403/404 of the project stops the run.
        if (err.code === 'FORBIDDEN') throw err
        if (waits) {
          nodes.push({
            ...node,
            credits: estimateCredits(deps, graph, node.nodeId),
            submission: null,
          })
        } else {
          refused.set(node.nodeId, err.message)
          replan = true
        }
      }
    }
    if (!replan || attempt >= REPLANS_MAX) {
      return {
        nodes: replan ? nodes.filter((n) => !refused.has(n.nodeId)) : nodes,
        skipped: plan.skipped,
      }
    }
  }
}

/** The nodeIds of the request that are no generator of the project: a 400 in words. */
async function checkNodeIds(deps: RunDeps, request: ProjectRunRequest): Promise<void> {
  if (!request.nodeIds) return
  const { graph } = await readProject(deps, request.projectId)
  const types = new Map(graph.nodes.map((n) => [n.id, n.type]))
  const unknown = request.nodeIds.filter((id) => {
    const type = types.get(id)
    return type === undefined || !isGeneratorType(type)
  })
  if (unknown.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `These nodes are not generators of this project: ${unknown.join(', ')}. A run takes ${GENERATOR_NODE_TYPES.join(', ')} nodes.`,
      { fields: { nodeIds: `Not generators of this project: ${unknown.join(', ')}.` } },
    )
  }
}

function answer(
  nodes: readonly (PricedNode & { jobId: string | null })[],
  skipped: SkippedRunNode[],
): ProjectRunOutput {
  return {
    nodes: nodes.map((n) => ({
      nodeId: n.nodeId,
      type: n.type as GeneratorNodeType,
      jobId: n.jobId,
      credits: n.credits,
      waitsFor: n.waitsFor,
    })),
    credits: nodes.reduce((sum, n) => sum + n.credits, 0),
    skipped,
  }
}

/**
 * What a run of the project would run and cost now (issue 42 item 4: the canvas's "Run stale"
 * button), nothing started or written: the nodes in dependency order with their credits.
 * @throws AppError 404 for a project the caller is no member of; 400 for `nodeIds` that are no
 *   generators of it.
 */
export async function quoteProjectRun(
  deps: RunDeps,
  request: ProjectRunRequest,
): Promise<ProjectRunOutput> {
  await requireProjectRole(deps.db, { ...request, needed: 'member' })
  await checkNodeIds(deps, request)
  const { nodes, skipped } = await priceRun(deps, request, false)
  return answer(
    nodes.map((n) => ({ ...n, jobId: null })),
    skipped,
  )
}

/**
 * Runs the project's stale (or all) generators (issue 42 item 4): plans them in dependency
 * order, prices them, checks the balance, and records them as jobs in one transaction — those
 * whose inputs are not in the run on the queue at once, the others waiting for the jobs of
 * their inputs (released with their input read from the live document once those succeeded;
 * cancelled and refunded in words when one fails). Nothing stale: an empty answer, 0 credits.
 * @returns the nodes with their jobs and credits, the total, and the nodes left out and why.
 * @throws AppError 404 for a stranger, 403 for a viewer, 400 for `nodeIds` that are no
 *   generators of the project, 402 when the user cannot pay for the whole run (nothing charged).
 */
export async function runProject(
  deps: RunDeps,
  request: ProjectRunRequest,
): Promise<ProjectRunOutput> {
  await requireProjectRole(deps.db, { ...request, needed: 'editor' })
  await checkNodeIds(deps, request)
  const { nodes, skipped } = await priceRun(deps, request, true)
  const ids = new Map(nodes.map((n) => [n.nodeId, newJobId()]))
  const specs = nodes.map((n) => ({
    id: ids.get(n.nodeId)!,
    submission: n.submission ?? placeholderSubmission(n, request),
    waitsFor: n.waitsFor.map((w) => ids.get(w)!),
  }))
  await recordRunJobs(deps, { userId: request.userId, jobs: specs })
  return answer(
    nodes.map((n) => ({ ...n, jobId: ids.get(n.nodeId)! })),
    skipped,
  )
}

/** The job kind each node type's run submits. */
const KIND_OF: Record<GeneratorNodeType, string> = {
  'script-generator': 'script',
  'editable-text': 'scenes',
  'image-generator': 'image',
  'video-generator': 'clip',
  video: 'video',
}

/**
 * The recorded submission of a waiting node whose request could not be read yet: its kind,
 * its estimated charge, and no input (read when it is released; never run as it is).
 */
function placeholderSubmission(node: PricedNode, request: ProjectRunRequest): CapturedSubmission {
  return {
    kind: KIND_OF[node.type as GeneratorNodeType],
    input: null,
    cost: node.credits,
    projectId: request.projectId,
    nodeId: node.nodeId,
    description: `Run: ${node.type} ${node.nodeId}`,
    inputHash: null,
  }
}
