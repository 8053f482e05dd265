import {
  collectVideoInputs,
  docToGraph,
  type GenerateImageRequest,
  type GenerateScriptInput,
  type Graph,
  type GraphAddition,
  IMAGE_DEFAULT_GUIDANCE,
  IMAGE_DEFAULT_STEPS,
  IMAGE_SEED_MAX,
  imageGeneratorForScene,
  imageResult,
  type MadeVideoIds,
  type MadeVideoLayout,
  type MakeVideoInput,
  createGraphNode,
  type NodeDataOf,
  type NodeType,
  planMadeVideo,
  type PlacementSource,
  readNodeData,
  resultNodeIds,
  type Scene,
  scenesResult,
  scriptResult,
  storedNodeData,
  UPDATE_REFUSAL_MESSAGES,
  type VideoPresetName,
  writeJobResult,
} from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { ProviderError } from '../generation/providers/types.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { produceVideo, type VideoJobProgress, type VideoJobResult } from './video-job.ts'

/**
 * "Make video" (issue 13 item 6): one job runs the whole chain from a Script Generator's
 * topic to a rendered video — script, scenes (the chosen count), one image per scene, a
 * Video node, the render — writing each step's nodes into the project as it goes (laid out
 * by shared's `planMadeVideo`), with one stage and progress on the generator node.
 *
 * Every node id comes from the job, and each step first looks for its nodes in the
 * document: a chain retried after a transient failure (or a lost worker) goes on from the
 * last step it finished instead of starting over, and the segment cache makes the render
 * cheap to repeat. After each step the credits it used are marked delivered on the job, so
 * a chain that fails or is cancelled refunds only what it did not deliver.
 */

/** A `make-video` job's input: the call, and the Script Generator's fields when it was made. */
export interface MakeVideoJobInput extends MakeVideoInput {
  script: GenerateScriptInput
}

/** A `make-video` job's result: the render's, and the Video node it was written onto. */
export interface MakeVideoJobResult extends VideoJobResult {
  videoNodeId: string
}

/** What the worker gives the chain besides its deps. */
export interface MakeVideoHooks {
  /** Shows the chain's stage and progress (0-100 over the whole chain). */
  onProgress: (progress: VideoJobProgress) => void
  /**
   * Records that the steps done so far used `credits` of the charge (a running total).
   * @throws when the job is no longer running (it was cancelled).
   */
  delivered: (credits: number) => Promise<void>
}

type Deps = Pick<AppDeps, 'db' | 'env' | 'ai' | 'assets' | 'documents' | 'logger'>

/** The share of the progress bar each part of the chain ends at, in percent. */
const PROGRESS_AFTER = { script: 5, scenes: 10, images: 40, render: 100 } as const

/** The image size for each preset's frame: the spec's 1280×720 default, turned or squared. */
const IMAGE_SIZE: Record<VideoPresetName, { width: number; height: number }> = {
  '16:9': { width: 1280, height: 720 },
  '9:16': { width: 720, height: 1280 },
  '1:1': { width: 1024, height: 1024 },
}

/** The ids of every node the chain of job `row` adds (the same on every attempt). */
export function madeVideoIds(
  row: Pick<JobRow, 'id' | 'created_at'>,
  sceneCount: number,
): MadeVideoIds {
  const at = row.created_at.getTime()
  return {
    text: resultNodeIds(row.id, at, 'editable-text', 1)[0]!,
    scenes: resultNodeIds(row.id, at, 'scene', sceneCount),
    imageGenerators: resultNodeIds(row.id, at, 'image-generator', sceneCount),
    images: resultNodeIds(row.id, at, 'image', sceneCount),
    video: resultNodeIds(row.id, at, 'video', 1)[0]!,
  }
}

/** A seed per scene, the same on every attempt: scene i of job `jobId`. */
function sceneSeed(jobId: string, index: number): number {
  const hex = jobId.replace(/[^0-9a-f]/gi, '').slice(0, 8) || '0'
  return (Number.parseInt(hex, 16) + index * 7919) % (IMAGE_SEED_MAX + 1)
}

/** The data of node `id` of `graph` as a `type` node reads it, or null when there is none. */
function dataOf<T extends NodeType>(graph: Graph, id: string, type: T): NodeDataOf<T> | null {
  const node = graph.nodes.find((n) => n.id === id)
  return node?.type === type ? readNodeData(type, node.data) : null
}

/** `addition` with its first node moved to `position` (the plan's, instead of the builder's). */
function at(addition: GraphAddition, position: { x: number; y: number }): GraphAddition {
  const [first, ...rest] = addition.nodes
  return first ? { ...addition, nodes: [{ ...first, position }, ...rest] } : addition
}

/**
 * Runs the chain of `row` (a `make-video` job) and renders its video.
 * @throws ProviderError for a provider's failure (transient ones are retried by the queue);
 *   AppError NOT_FOUND when a node the chain builds on was deleted meanwhile, BAD_REQUEST when
 *   the project has no room for the chain's nodes; the signal's reason when cancelled.
 */
export async function produceMadeVideo(
  deps: Deps,
  row: JobRow,
  signal: AbortSignal,
  hooks: MakeVideoHooks,
): Promise<MakeVideoJobResult> {
  const input = row.input as MakeVideoJobInput
  const { projectId, sceneCount: n, preset } = input
  const costs = deps.env.costs
  const createdAt = row.created_at.getTime()
  const ids = madeVideoIds(row, n)
  const nodeIn = (graph: Graph, id: string) => graph.nodes.find((node) => node.id === id)
  const progress = (stage: string, percent: number) =>
    hooks.onProgress({ stage, percent: Math.round(percent) })

  /**
   * Adds `build`'s nodes beside `sourceId`, unless they are there already.
   * @returns the document's graph after the write (each open of an unloaded document loads
   *   it from the database, so the chain reads the graph from its writes, not again).
   */
  const write = async (
    sourceId: string,
    build: (source: PlacementSource) => GraphAddition,
  ): Promise<Graph> => {
    const { outcome, after } = await deps.documents.transact(projectId, (doc, origin) => ({
      outcome: writeJobResult(doc, sourceId, build, null, origin),
      after: docToGraph(doc),
    }))
    if (outcome === 'source-missing') {
      throw new AppError(
        'NOT_FOUND',
        'A node the video was being made from was deleted, so the video was not made.',
      )
    }
    if (outcome === 'no-room') {
      throw new AppError(
        'BAD_REQUEST',
        `${UPDATE_REFUSAL_MESSAGES['too-many-nodes']} The video was not made.`,
      )
    }
    return after
  }

  let graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
  const generator = nodeIn(graph, input.nodeId)
  if (!generator) {
    throw new AppError('NOT_FOUND', 'The Script Generator was deleted, so the video was not made.')
  }
  const layout: MadeVideoLayout = planMadeVideo(generator, ids, graph.nodes)

  // 1. The script, in a text node beside the generator (taken as it is on a retry).
  let script = dataOf(graph, ids.text, 'editable-text')?.content ?? ''
  if (script.trim() === '') {
    progress('Writing the script', 0)
    script = await deps.ai.text.generateScript(input.script, signal)
    graph = await write(input.nodeId, (source) => {
      const addition = at(scriptResult(source, script, createdAt, [ids.text]), layout.text)
      const text = addition.nodes[0]!
      text.data = { ...text.data, ...storedNodeData('editable-text', { sceneCount: n }) }
      return addition
    })
  }
  await hooks.delivered(costs.script)

  // 2. The scenes, in a row under the text node.
  let scenes: Scene[] = ids.scenes.map((id) => {
    const scene = dataOf(graph, id, 'scene')
    return { narration: scene?.narration ?? '', visuals: scene?.visuals ?? '' }
  })
  if (ids.scenes.some((id) => !nodeIn(graph, id))) {
    progress(
      `Splitting the script into ${n} ${n === 1 ? 'scene' : 'scenes'}`,
      PROGRESS_AFTER.script,
    )
    scenes = await deps.ai.text.generateScenes(
      { script, sceneCount: n, seed: input.script.seed },
      signal,
    )
    if (scenes.length !== n) {
      throw new ProviderError(
        'malformed',
        `The AI provider returned ${scenes.length} scenes instead of ${n}.`,
      )
    }
    graph = await write(ids.text, (source) => {
      const addition = scenesResult(source, scenes, createdAt, ids.scenes)
      return {
        ...addition,
        nodes: addition.nodes.map((node, i) => ({ ...node, position: layout.scenes[i]! })),
      }
    })
  }
  await hooks.delivered(costs.script + costs.scenes)

  // 3. One image per scene: scene -> image generator -> image, stacked in the scene's column.
  const models = await deps.ai.image.listModels(1, signal)
  const modelVersionId = models[0]?.modelVersions[0]?.id
  if (modelVersionId === undefined) {
    throw new ProviderError(
      'malformed',
      'The image service offers no model to draw the scenes with.',
    )
  }
  const size = IMAGE_SIZE[preset]
  const imageShare = (PROGRESS_AFTER.images - PROGRESS_AFTER.scenes) / n
  for (let i = 0; i < n; i++) {
    const sceneId = ids.scenes[i]!
    const generatorId = ids.imageGenerators[i]!
    const imageId = ids.images[i]!
    if (!dataOf(graph, imageId, 'image')?.imageUrl) {
      const start = PROGRESS_AFTER.scenes + i * imageShare
      progress(`Images ${i + 1}/${n}`, start)
      const scene = dataOf(graph, sceneId, 'scene')
      const prompt =
        [scene?.visuals ?? '', scene?.narration ?? '', input.script.topic].find(
          (text) => text.trim() !== '',
        ) ?? input.script.topic
      if (!nodeIn(graph, generatorId)) {
        graph = await write(sceneId, (source) => {
          const addition = imageGeneratorForScene({ ...source, visuals: prompt }, createdAt)
          const node = addition.nodes[0]!
          node.id = generatorId
          node.position = layout.imageGenerators[i]!
          node.data = {
            ...node.data,
            ...storedNodeData('image-generator', {
              ...size,
              modelVersionId: String(modelVersionId),
            }),
          }
          return { nodes: [node], connections: [{ source: sceneId, target: generatorId }] }
        })
      }
      const request: GenerateImageRequest & { seed: number } = {
        projectId,
        nodeId: generatorId,
        modelVersionId: String(modelVersionId),
        prompt: prompt.slice(0, 4000),
        negativePrompt: '',
        width: size.width,
        height: size.height,
        numInferenceSteps: IMAGE_DEFAULT_STEPS,
        guidanceScale: IMAGE_DEFAULT_GUIDANCE,
        seed: sceneSeed(row.id, i),
      }
      const image = await deps.ai.image.generateImage(request, signal, (percent) =>
        progress(`Images ${i + 1}/${n}`, start + (imageShare * percent) / 100),
      )
      const stored = await storeGeneratedImage(deps.db, deps.assets, {
        userId: row.user_id,
        projectId,
        image,
      })
      graph = await write(generatorId, (source) =>
        at(
          imageResult(source, request, { imageUrl: stored.url }, createdAt, [imageId]),
          layout.images[i]!,
        ),
      )
    }
    await hooks.delivered(costs.script + costs.scenes + costs.image * (i + 1))
  }

  // 4. The Video node, fed by the text node (all of its scenes), and the render.
  if (!nodeIn(graph, ids.video)) {
    graph = await write(ids.text, () => {
      const node = createGraphNode('video', layout.video, [], createdAt, ids.video)
      node.data = { ...node.data, ...storedNodeData('video', { preset }) }
      return { nodes: [node], connections: [{ source: ids.text, target: ids.video }] }
    })
  }
  const inputs = collectVideoInputs(graph, ids.video)
  if (!inputs || inputs.scenes.length === 0 || inputs.missing.length > 0) {
    throw new AppError(
      'NOT_FOUND',
      'Scenes or images the video needs were deleted while it was being made, so it was not rendered.',
    )
  }
  const renderShare = PROGRESS_AFTER.render - PROGRESS_AFTER.images
  const rendered = await produceVideo(
    deps,
    row.user_id,
    {
      projectId,
      nodeId: ids.video,
      ...inputs.settings,
      scenes: inputs.scenes,
      inputHash: inputs.hash,
    },
    signal,
    (p) =>
      hooks.onProgress({
        stage: p.stage,
        percent: Math.round(PROGRESS_AFTER.images + (p.percent * renderShare) / 100),
      }),
  )
  return { ...rendered, videoNodeId: ids.video }
}
