import {
  captionSettings,
  collectVideoInputs,
  editTimelineSettings,
  filmHash,
  getTimelinesMap,
  storedTimelineOf,
  docToGraph,
  type GenerateImageRequest,
  type Graph,
  type GraphAddition,
  IMAGE_DEFAULT_GUIDANCE,
  IMAGE_DEFAULT_STEPS,
  IMAGE_SEED_MAX,
  imageGeneratorForScene,
  imageResult,
  type JobProgress,
  type JobStageWeight,
  makeVideoClipSeconds,
  modelCredits,
  type MadeVideoIds,
  type MadeVideoLayout,
  makeVideoCost,
  makeVideoInput,
  createGraphNode,
  type NodeDataOf,
  type NodeType,
  planMadeVideo,
  type PlacementSource,
  readNodeData,
  resultNodeIds,
  type Scene,
  scenesResult,
  SCENE_COUNT_MAX,
  scriptResult,
  stampResultHash,
  storedNodeData,
  UPDATE_REFUSAL_MESSAGES,
  videoRenderResult,
  withCharacter,
  writeJobResult,
} from '@reelgraph/shared'
import type { DB } from '@reelgraph/db'
import { VIDEO_PRESETS } from '@reelgraph/media'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { Env } from '../../env.ts'
import { AppError } from '../../lib/app-error.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import type { AiProviders } from '../generation/providers/types.ts'
import {
  type ClipJobDeps,
  clipTakeOf,
  makeClip,
  requireVideoModel,
  writeClip,
} from '../generation/clip-job.ts'
import { firstImageModelSelection } from '../generation/image-models.ts'
import { scriptJobInput } from '../generation/script-job.ts'
import type { JobInfo, JobKind } from '../jobs/job-kind.ts'
import { RENDER_STAGES, type RenderDeps, renderScenes } from './render-scenes.ts'
import { discardVideoFiles, type VideoResultDeps, writeVideoResult } from './video-result.ts'
import { musicChosen } from './film-music.ts'

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
 *
 * From a template (issue 42 item 2): `sceneImageUrl` puts that picture in every scene's image
 * node instead of generating one (nothing drawn, nothing charged for images), `character` is
 * added to each scene's visuals (so to its image and clip prompts), and `voice` is the made
 * Video node's.
 */

/** A `make-video` job's input: the call, and the Script Generator's fields when it was made. */
export const makeVideoJobInput = makeVideoInput.extend({ script: scriptJobInput })
export type MakeVideoJobInput = z.infer<typeof makeVideoJobInput>

/** A `make-video` job's result: the render's, and the Video node it was written onto. */
export const makeVideoJobResult = videoRenderResult.extend({ videoNodeId: z.string() })
export type MakeVideoJobResult = z.infer<typeof makeVideoJobResult>

/** What the chain uses. */
export type MakeVideoDeps = RenderDeps &
  VideoResultDeps &
  ClipJobDeps & {
    db: Kysely<DB>
    assets: AssetStorage
    ai: AiProviders
    env: RenderDeps['env'] &
      ClipJobDeps['env'] &
      Pick<Env, 'costs' | 'AI_TEXT_TIMEOUT_MS' | 'AI_IMAGE_TIMEOUT_MS'>
  }

/**
 * The chain's stages, with their shares of its progress bar: the render's after the images,
 * and, animating each scene (issue 22 item 4), the clips between them.
 */
export function makeVideoStages(animate: boolean): readonly JobStageWeight[] {
  return [
    { stage: 'script', weight: 5 },
    { stage: 'scenes', weight: 5 },
    { stage: 'images', weight: animate ? 15 : 30 },
    ...(animate ? [{ stage: 'clips' as const, weight: 35 }] : []),
    ...RENDER_STAGES.map((s) => ({
      stage: s.stage,
      weight: (s.weight * (animate ? 40 : 60)) / 100,
    })),
  ]
}

/**
 * The ids of every node the chain of job `row` adds (the same on every attempt); animating,
 * a Video Generator and a Clip per scene too.
 */
export function madeVideoIds(
  job: Pick<JobInfo, 'id' | 'createdAt'>,
  sceneCount: number,
  animate = false,
): MadeVideoIds {
  const at = job.createdAt.getTime()
  return {
    text: resultNodeIds(job.id, at, 'editable-text', 1)[0]!,
    scenes: resultNodeIds(job.id, at, 'scene', sceneCount),
    imageGenerators: resultNodeIds(job.id, at, 'image-generator', sceneCount),
    images: resultNodeIds(job.id, at, 'image', sceneCount),
    videoGenerators: animate ? resultNodeIds(job.id, at, 'video-generator', sceneCount) : [],
    clips: animate ? resultNodeIds(job.id, at, 'clip', sceneCount) : [],
    video: resultNodeIds(job.id, at, 'video', 1)[0]!,
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

/** What the chain gets from the job runner. */
interface ChainContext {
  job: JobInfo
  signal: AbortSignal
  progress(progress: JobProgress): void
  delivered(credits: number): Promise<void>
}

/**
 * Runs the chain of a `make-video` job and renders its video.
 * @throws ProviderError for a provider's failure (transient ones are retried by the queue);
 *   AppError NOT_FOUND when a node the chain builds on was deleted meanwhile, BAD_REQUEST when
 *   the project has no room for the chain's nodes; the signal's reason when cancelled.
 */
async function produceMadeVideo(
  deps: MakeVideoDeps,
  input: MakeVideoJobInput,
  { job, signal, progress, delivered }: ChainContext,
): Promise<MakeVideoJobResult> {
  const { projectId, sceneCount: n, preset } = input
  // A given picture for every scene (issue 42 item 2): no image is generated or charged.
  const sceneImageUrl = input.sceneImageUrl
  const costs = { ...deps.env.costs, image: sceneImageUrl ? 0 : deps.env.costs.image }
  const createdAt = job.createdAt.getTime()
  const animate = input.animate ? requireVideoModel(deps.catalog, input.animate.modelId) : null
  const ids = madeVideoIds(job, n, animate !== null)
  const nodeIn = (graph: Graph, id: string) => graph.nodes.find((node) => node.id === id)

  /**
   * Adds `build`'s nodes beside `sourceId`, unless they are there already.
   * @returns the document's graph after the write (each open of an unloaded document loads
   *   it from the database, so the chain reads the graph from its writes, not again).
   */
  const write = async (
    sourceId: string,
    build: (source: PlacementSource) => GraphAddition,
  ): Promise<Graph> => {
    const { outcome, after } = await deps.documents.transact(projectId, (doc, origin) => {
      const written = writeJobResult(doc, sourceId, build, null, origin)
      // Issue 42 item 4: the source's result hash, so a made video has nothing stale.
      if (written === 'written' || written === 'already-written') {
        stampResultHash(doc, sourceId, null, origin)
      }
      return { outcome: written, after: docToGraph(doc) }
    })
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
  const layout: MadeVideoLayout = planMadeVideo(generator, ids, graph.nodes, preset)

  // 1. The script, in a text node beside the generator (taken as it is on a retry).
  let script = dataOf(graph, ids.text, 'editable-text')?.content ?? ''
  if (script.trim() === '') {
    progress({ stage: 'script', done: 0, total: 1 })
    script = await deps.ai.text.generateScript(input.script, signal)
    graph = await write(input.nodeId, (source) => {
      const addition = at(scriptResult(source, script, createdAt, [ids.text]), layout.text)
      const text = addition.nodes[0]!
      text.data = { ...text.data, ...storedNodeData('editable-text', { sceneCount: n }) }
      return addition
    })
  }
  await delivered(costs.script)

  // 2. The scenes, stacked in the column after the text node.
  let scenes: Scene[] = ids.scenes.map((id) => {
    const scene = dataOf(graph, id, 'scene')
    return { narration: scene?.narration ?? '', visuals: scene?.visuals ?? '' }
  })
  if (ids.scenes.some((id) => !nodeIn(graph, id))) {
    progress({ stage: 'scenes', done: 0, total: n })
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
    // One recurring character in every scene (issue 42 item 2): in each scene's visuals, so
    // its picture's prompt (and a person reading the scene) has it.
    scenes = scenes.map((scene) => ({
      ...scene,
      visuals: withCharacter(scene.visuals, input.character),
    }))
    graph = await write(ids.text, (source) => {
      const addition = scenesResult(source, scenes, createdAt, ids.scenes)
      return {
        ...addition,
        nodes: addition.nodes.map((node, i) => ({ ...node, position: layout.scenes[i]! })),
      }
    })
  }
  await delivered(costs.script + costs.scenes)

  // 3. One image per scene: scene -> image generator -> image, on the scene's row; with a
  // given picture, that picture in every scene's image node, nothing generated.
  const models = sceneImageUrl ? null : await deps.ai.image.listModels(1, signal)
  const modelVersionId = models ? models[0]?.modelVersions[0]?.id : 'given-picture'
  if (modelVersionId === undefined) {
    throw new ProviderError(
      'malformed',
      'The image service offers no model to draw the scenes with.',
    )
  }
  // The model the canvas shows first, stored on each generator: else the canvas fills it in
  // when the generator shows, which changes its inputs and makes it Stale (issue 42 item 4).
  const shownModel = models ? firstImageModelSelection(deps, models) : null
  // Drawn at the render's own frame size (1920×1080, 1080×1920, 1080×1080: within the spec's
  // 64..2048 in steps of 8), so the video never scales a scene's image up (issue 20 item 4).
  const size = VIDEO_PRESETS[preset]
  for (let i = 0; i < n; i++) {
    const sceneId = ids.scenes[i]!
    const generatorId = ids.imageGenerators[i]!
    const imageId = ids.images[i]!
    if (!dataOf(graph, imageId, 'image')?.imageUrl) {
      progress({ stage: 'images', done: i, total: n })
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
              ...(shownModel ?? { modelVersionId: String(modelVersionId) }),
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
        seed: sceneSeed(job.id, i),
      }
      const stored = sceneImageUrl
        ? { url: sceneImageUrl }
        : await storeGeneratedImage(deps.db, deps.assets, {
            userId: job.userId,
            projectId,
            image: await deps.ai.image.generateImage(request, signal, (percent) =>
              progress({ stage: 'images', done: i + percent / 100, total: n }),
            ),
          })
      graph = await write(generatorId, (source) =>
        at(
          imageResult(source, request, { imageUrl: stored.url }, createdAt, [imageId]),
          layout.images[i]!,
        ),
      )
    }
    await delivered(costs.script + costs.scenes + costs.image * (i + 1))
  }
  let deliveredSoFar = costs.script + costs.scenes + costs.image * n

  // 3b. Animating (issue 22 item 4): scene -> Video Generator (from the scene's image) -> Clip.
  if (animate) {
    const seconds = makeVideoClipSeconds(animate.model)
    const clipCredits = modelCredits(animate.model, seconds)
    for (let i = 0; i < n; i++) {
      const sceneId = ids.scenes[i]!
      const generatorId = ids.videoGenerators[i]!
      const imageUrl = dataOf(graph, ids.images[i]!, 'image')?.imageUrl ?? ''
      if (!dataOf(graph, ids.clips[i]!, 'clip')?.videoUrl) {
        progress({ stage: 'clips', done: i, total: n })
        const scene = dataOf(graph, sceneId, 'scene')
        const prompt = (
          [scene?.visuals ?? '', scene?.narration ?? '', input.script.topic].find(
            (text) => text.trim() !== '',
          ) ?? input.script.topic
        ).slice(0, 4000)
        if (!nodeIn(graph, generatorId)) {
          graph = await write(sceneId, () => {
            const node = createGraphNode(
              'video-generator',
              layout.videoGenerators[i]!,
              [],
              createdAt,
              generatorId,
            )
            node.data = {
              ...node.data,
              ...storedNodeData('video-generator', {
                prompt,
                modelId: animate.model.id,
                durationSeconds: seconds,
                aspectRatio: preset,
                imageUrl,
                promptFromScene: 'true',
              }),
            }
            return {
              nodes: [node],
              connections: [
                { source: sceneId, target: generatorId },
                { source: generatorId, target: ids.images[i]! },
              ],
            }
          })
        }
        const clip = await makeClip(deps, {
          job,
          input: {
            projectId,
            modelId: animate.model.id,
            prompt,
            negativePrompt: '',
            imageUrl: imageUrl || undefined,
            durationSeconds: seconds,
            aspectRatio: preset,
            seed: sceneSeed(job.id, i),
            withAudio: false,
          },
          signal,
          progress: (p) => progress({ ...p, stage: 'clips', done: i + p.done / p.total, total: n }),
          delivered: async () => {},
        })
        await writeClip(
          deps,
          {
            projectId,
            generatorId,
            clipId: ids.clips[i]!,
            position: layout.clips[i]!,
            state: null,
          },
          clipTakeOf(clip, prompt, new Date()),
        )
        graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
      }
      deliveredSoFar += clipCredits
      await delivered(deliveredSoFar)
    }
  }

  // 4. The Video node, fed by the text node (all of its scenes), and the render.
  if (!nodeIn(graph, ids.video)) {
    graph = await write(ids.text, () => {
      const node = createGraphNode('video', layout.video, [], createdAt, ids.video)
      node.data = {
        ...node.data,
        ...storedNodeData('video', { preset, ...(input.voice ? { voice: input.voice } : {}) }),
      }
      return { nodes: [node], connections: [{ source: ids.text, target: ids.video }] }
    })
  }
  // The caption look is the Video node's own (its timeline's settings), so a later render
  // from the node, a run of what is stale say, keeps it (issue 42 item 2).
  const timeline = input.captions
    ? await deps.documents.transact(projectId, (doc, origin) => {
        editTimelineSettings(doc, ids.video, captionSettings(input.captions!), origin)
        const stored = storedTimelineOf(getTimelinesMap(doc).entries(), ids.video)
        return stored ? { ...stored, musicChosen: musicChosen(doc, ids.video) } : null
      })
    : null
  const inputs = collectVideoInputs(graph, ids.video)
  if (!inputs || inputs.scenes.length === 0 || inputs.missing.length > 0) {
    throw new AppError(
      'NOT_FOUND',
      'Scenes or images the video needs were deleted while it was being made, so it was not rendered.',
    )
  }
  const rendered = await renderScenes(deps, {
    userId: job.userId,
    input: {
      projectId,
      nodeId: ids.video,
      ...inputs.settings,
      scenes: inputs.scenes,
      inputHash: filmHash(inputs.hash, timeline),
      // Charged with the chain, one voice per scene.
      voicesCharged: inputs.scenes.length,
      // A new Video node's timeline: none, or the caption look it was just given.
      timeline,
    },
    signal,
    progress,
  })
  return { ...rendered, videoNodeId: ids.video }
}

/**
 * "Make video" as a job kind (issue 13 item 6; issue 21): charged the whole chain once
 * (`makeVideoCost`, passed by the submit service), paid step by step (a failure or cancel
 * refunds what was not delivered), its result written onto the Video node it made with the
 * final state on the Script Generator.
 */
export function makeVideoJob(deps: MakeVideoDeps): JobKind<MakeVideoJobInput, MakeVideoJobResult> {
  return {
    name: 'make-video',
    input: makeVideoJobInput,
    result: makeVideoJobResult,
    // The whole chain, charged once; it ends in a video.
    ledger: { type: 'video_generation', action: 'Make video' },
    cost: (input) =>
      makeVideoCost(
        deps.env.costs,
        input.sceneCount,
        input.animate ? requireVideoModel(deps.catalog, input.animate.modelId).model : null,
        { sceneImage: input.sceneImageUrl !== undefined },
      ),
    // Two text calls, an image (and animating a clip) per scene, a render.
    timeoutMs: (input) =>
      2 * deps.env.AI_TEXT_TIMEOUT_MS +
      SCENE_COUNT_MAX * deps.env.AI_IMAGE_TIMEOUT_MS +
      (input.animate ? input.sceneCount * deps.env.AI_VIDEO_TIMEOUT_MS : 0) +
      deps.env.VIDEO_RENDER_TIMEOUT_MS,
    stages: (input) => makeVideoStages(input.animate !== undefined),
    firstProgress: () => ({ stage: 'script', done: 0, total: 1 }),
    produce: (input, context) => produceMadeVideo(deps, input, context),
    write: (result, { job, state }) =>
      writeVideoResult(
        deps,
        { projectId: job.projectId, videoId: result.videoNodeId, stateNodeId: job.nodeId },
        result,
        state,
      ),
    discard: (result) => discardVideoFiles(deps, [result]),
  }
}
