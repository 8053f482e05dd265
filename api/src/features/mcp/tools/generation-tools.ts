import { addGraphNodes, deleteGraphNodes } from '../../projects/graph-edit-service.ts'
import { submitMakeVideo } from '../../video/video-service.ts'
import { jobAnswer } from '../job-answer.ts'
import { defineTool } from '../mcp-tool.ts'
import { RUNNABLE_NODE_TYPES, runNode } from '../../runs/run-node.ts'

/** The generation tools (issue 41 item 2): jobs charged and run as the canvas's buttons run them. */

export const runNodeTool = defineTool({
  name: 'run_node',
  title: 'Run a generator node',
  description: `Runs one node as its Generate button does, charging its credits: ${RUNNABLE_NODE_TYPES.join(', ')} (a script generator writes a script into a new text node, a text node splits it into scenes, an image generator draws an image, a video generator makes a clip, a Video node renders its scenes into an MP4). The results appear on the canvas, connected to the node. Answers the job; follow it with get_job.`,
  readOnly: false,
  async run({ projectId, nodeId }, { deps, actor, origin }) {
    const job = await runNode(deps, { userId: actor.user.id, projectId, nodeId })
    return jobAnswer(job, origin)
  },
})

export const makeVideoTool = defineTool({
  name: 'make_video',
  title: 'Make a video from a topic',
  description:
    'The canvas’s Make video: adds a Script Generator with your topic, then one job writes the script, splits it into scenes, draws a picture per scene (animating each with `animate`’s video model if given), narrates, subtitles and renders the MP4, every step appearing on the canvas. Charged once up front for the whole chain; a failure refunds what was not delivered. Answers the job and the Script Generator’s id; follow the job with get_job (about a minute for 3 scenes offline), then export_video.',
  readOnly: false,
  async run(input, { deps, actor, origin, logger }) {
    const { projectId, topic, style, tone, format } = input
    const userId = actor.user.id
    const [generator] = await addGraphNodes(deps, {
      userId,
      projectId,
      nodes: [
        {
          type: 'script-generator',
          data: {
            topic,
            ...(style ? { style } : {}),
            ...(tone ? { tone } : {}),
            ...(format ? { format } : {}),
            ...(input.targetSeconds ? { targetSeconds: input.targetSeconds } : {}),
          },
        },
      ],
    })
    const nodeId = generator!.id
    try {
      const job = await submitMakeVideo(deps, {
        userId,
        projectId,
        nodeId,
        sceneCount: input.sceneCount,
        ...(input.targetSeconds ? { targetSeconds: input.targetSeconds } : {}),
        preset: input.preset,
        ...(input.animate ? { animate: input.animate } : {}),
        ...(input.captions ? { captions: input.captions } : {}),
      })
      return { ...jobAnswer(job, origin), scriptGeneratorNodeId: nodeId }
    } catch (err) {
      // Refused (credits, a model that cannot animate): the generator it added goes again.
      await deleteGraphNodes(deps, { userId, projectId, nodeIds: [nodeId] }).catch(
        (cleanup: unknown) =>
          logger.warn({ err: cleanup }, 'make_video: removing its generator failed'),
      )
      throw err
    }
  },
})

export const listModelsTool = defineTool({
  name: 'list_models',
  title: 'List the models',
  description:
    'The model catalog: every configured provider’s image and video models and the offline ones, each with its id (for an image generator’s `modelVersionId`, a video generator’s `modelId`, make_video’s `animate.modelId`), what it can do (durations, aspect ratios, start image, last frame, sound) and its price in credits.',
  readOnly: true,
  async run({ kind }, { deps }) {
    return { models: deps.catalog.list(kind) }
  },
})
