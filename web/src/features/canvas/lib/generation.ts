import {
  type Connection,
  type GenerateImageInput,
  type GenerateImageOutput,
  type GenerateScenesInput,
  type GenerateScriptInput,
  type GraphNode,
  type GenerationAction,
  IMAGE_SEED_MAX,
  type ImageModel,
  type Scene,
  SCENE_COUNT_DEFAULT,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
} from '@reelgraph/shared'
import { ApiError } from '../../../lib/api-client'
import { createGraphNode } from './node-defaults'
import type { EditableTextData, ImageGeneratorData, ScriptGeneratorData } from './node-types'

/**
 * What a generation does on the canvas, as pure functions: the requests built from a
 * node's data, where the result nodes go (spec §4 Canvas behaviour, §9 Canvas), the seed,
 * the first model, and the spec §8 alert for a failure.
 */

/** New result nodes go +350 on x (spec §9). */
export const RESULT_OFFSET_X = 350
/** The scene row sits 550 below the text node (spec §9). */
export const SCENE_ROW_OFFSET_Y = 550
/** Scene nodes are 320 apart (spec §9). */
export const SCENE_SPACING_X = 320

/** The label of the text node a script lands in (spec §4). */
export const GENERATED_SCRIPT_LABEL = 'Generated Script'

/** Nodes and connections to add in one transaction. */
export interface GraphAddition {
  nodes: GraphNode[]
  connections: Connection[]
}

type Position = { x: number; y: number }
type Source = { id: string; position: Position }

/** The words of the spec §8 alerts for each action. */
const ACTION_WORD: Record<GenerationAction, string> = {
  script: 'script',
  scenes: 'scenes',
  image: 'image',
}

/**
 * The spec §8 alert for a failed generation: with a server response "Failed to generate
 * script: <server message or Unknown error>"; without one (network failure, or anything
 * that is not a server answer) "Error generating script. Please try again.".
 */
export function generationFailureMessage(action: GenerationAction, error: unknown): string {
  const word = ACTION_WORD[action]
  if (error instanceof ApiError) {
    const message = error.serverMessage.trim() || 'Unknown error'
    return `Failed to generate ${word}: ${message}`
  }
  return `Error generating ${word}. Please try again.`
}

/** "Generate Script · 1 credit" (the cost is left out while unknown). */
export function buttonLabelWithCost(label: string, cost: number | undefined): string {
  if (cost === undefined) return label
  return `${label} · ${cost} ${cost === 1 ? 'credit' : 'credits'}`
}

/** The body of `POST /api/ai/generate-script` from a script generator's data. */
export function buildScriptRequest(
  data: Pick<ScriptGeneratorData, 'topic' | 'style' | 'tone' | 'format'>,
): GenerateScriptInput {
  return {
    style: data.style as GenerateScriptInput['style'],
    tone: data.tone as GenerateScriptInput['tone'],
    format: data.format as GenerateScriptInput['format'],
    topic: data.topic.trim(),
  }
}

/** The scene count a text node asks for, clamped to 1–25 (default 6 when not a number). */
export function sceneCountOf(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(n)) return SCENE_COUNT_DEFAULT
  return Math.min(SCENE_COUNT_MAX, Math.max(SCENE_COUNT_MIN, Math.round(n)))
}

/** The body of `POST /api/ai/generate-scenes` from a text node's data. */
export function buildScenesRequest(
  data: Pick<EditableTextData, 'content' | 'sceneCount'>,
): GenerateScenesInput {
  return { script: data.content, sceneCount: sceneCountOf(data.sceneCount) }
}

/**
 * The seed to send: the node's seed when it is a whole number in range, else a random
 * integer from 0 to 2147483647 (spec §5: a random integer when empty; §9).
 */
export function chooseSeed(seed: string, random: () => number = Math.random): number {
  const text = seed.trim()
  if (/^\d+$/.test(text)) {
    const n = Number(text)
    if (n <= IMAGE_SEED_MAX) return n
  }
  return Math.min(IMAGE_SEED_MAX, Math.floor(random() * (IMAGE_SEED_MAX + 1)))
}

/** The body of `POST /api/csas/generate-image` from an image generator's data. */
export function buildImageRequest(
  projectId: number,
  data: Pick<
    ImageGeneratorData,
    | 'prompt'
    | 'negativePrompt'
    | 'width'
    | 'height'
    | 'numInferenceSteps'
    | 'guidanceScale'
    | 'seed'
    | 'modelVersionId'
  >,
  random: () => number = Math.random,
): GenerateImageInput {
  return {
    projectId,
    modelVersionId: data.modelVersionId,
    prompt: data.prompt.trim(),
    negativePrompt: data.negativePrompt,
    width: data.width,
    height: data.height,
    numInferenceSteps: data.numInferenceSteps,
    guidanceScale: data.guidanceScale,
    seed: chooseSeed(data.seed, random),
  }
}

/**
 * The first model in the list and its first version (spec §4: auto-selected for the image
 * generator), as the node stores them (strings); null when there is none.
 */
export function firstModelSelection(
  models: readonly ImageModel[] | undefined,
): { modelId: string; modelVersionId: string } | null {
  const model = models?.[0]
  const version = model?.modelVersions[0]
  if (!model || !version) return null
  return { modelId: String(model.id), modelVersionId: String(version.id) }
}

/** The version to use when the model changes: its first version ('' when it has none). */
export function firstVersionOf(models: readonly ImageModel[] | undefined, modelId: string): string {
  const model = models?.find((m) => String(m.id) === modelId)
  const version = model?.modelVersions[0]
  return version ? String(version.id) : ''
}

/** The versions of a model as select options (label: the version's name, else its id). */
export function versionOptionsOf(
  models: readonly ImageModel[] | undefined,
  modelId: string,
): { value: string; label: string }[] {
  const model = models?.find((m) => String(m.id) === modelId)
  return (model?.modelVersions ?? []).map((v) => ({
    value: String(v.id),
    label: v.name?.trim() || String(v.id),
  }))
}

/**
 * Generate Script's result: a text node labelled "Generated Script", 350 to the right of
 * the generator, holding the script, connected generator -> text (spec §4).
 */
export function scriptResult(generator: Source, script: string, now = Date.now()): GraphAddition {
  const node = createGraphNode(
    'editable-text',
    { x: generator.position.x + RESULT_OFFSET_X, y: generator.position.y },
    [],
    now,
  )
  node.label = GENERATED_SCRIPT_LABEL
  node.data.content = script
  return { nodes: [node], connections: [{ source: generator.id, target: node.id }] }
}

/**
 * Generate Scenes' result: "Scene N" nodes (sceneNumber N, narration, visuals) in one row
 * 550 below the text node, 320 apart, starting at the text node's x (scene 1 right under
 * it), each connected text -> scene (spec §4, §9).
 */
export function scenesResult(
  textNode: Source,
  scenes: readonly Scene[],
  now = Date.now(),
): GraphAddition {
  const nodes = scenes.map((scene, i) => {
    const n = i + 1
    const node = createGraphNode(
      'scene',
      {
        x: textNode.position.x + i * SCENE_SPACING_X,
        y: textNode.position.y + SCENE_ROW_OFFSET_Y,
      },
      [],
      now,
    )
    node.label = `Scene ${n}`
    node.data.sceneNumber = String(n)
    node.data.narration = scene.narration
    node.data.visuals = scene.visuals
    return node
  })
  return {
    nodes,
    connections: nodes.map((node) => ({ source: textNode.id, target: node.id })),
  }
}

/**
 * Generate Image's result: an image node 350 to the right of the generator with the image's
 * URL, prompt and size, connected generator -> image (spec §4).
 */
export function imageResult(
  generator: Source,
  request: Pick<GenerateImageInput, 'prompt' | 'width' | 'height'>,
  answer: Pick<GenerateImageOutput, 'imageUrl'>,
  now = Date.now(),
): GraphAddition {
  const node = createGraphNode(
    'image',
    { x: generator.position.x + RESULT_OFFSET_X, y: generator.position.y },
    [],
    now,
  )
  node.data.imageUrl = answer.imageUrl
  node.data.prompt = request.prompt
  node.data.width = request.width
  node.data.height = request.height
  return { nodes: [node], connections: [{ source: generator.id, target: node.id }] }
}

/**
 * Where "Create image generator" puts the generator: below its scene, not 350 to the right,
 * since scenes are only 320 apart and it would cover the next one.
 */
export const IMAGE_GENERATOR_OFFSET_Y = 450

/**
 * "Create image generator" on a scene: an image generator 450 below the scene,
 * its prompt copied from the scene's visuals (promptFromScene "true" when there were any),
 * connected scene -> generator. The Nodes Library offers no image generator (spec §2:
 * "created by the product itself"); this is how the product creates one.
 */
export function imageGeneratorForScene(
  scene: Source & { visuals: string },
  now = Date.now(),
): GraphAddition {
  const node = createGraphNode(
    'image-generator',
    { x: scene.position.x, y: scene.position.y + IMAGE_GENERATOR_OFFSET_Y },
    [],
    now,
  )
  if (scene.visuals.trim() !== '') {
    node.data.prompt = scene.visuals
    node.data.promptFromScene = 'true'
  }
  return { nodes: [node], connections: [{ source: scene.id, target: node.id }] }
}

/** The URL that downloads an image as generated-image.jpg (spec §9). */
export function downloadUrl(imageUrl: string): string {
  return `${imageUrl}${imageUrl.includes('?') ? '&' : '?'}download=1`
}
