import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  MODEL_ID_PATTERN,
  MODEL_KINDS,
  modelCostSchema,
  VIDEO_PRESET_NAMES,
  type VideoPresetName,
} from '@reelgraph/shared'
import { z } from 'zod'
import type { ModelDefinition } from '../catalog/model-definition.ts'
import { catalogId } from '../catalog/model-definition.ts'
import { mapping } from '../catalog/input-mapping.ts'

/**
 * The operator's ComfyUI workflows (issue 22 item 2): each `<name>.json` in
 * `COMFYUI_WORKFLOWS_DIR` is a workflow in ComfyUI's API format ("Export (API)"), and its
 * sidecar `<name>.reelgraph.json` says which node inputs take the prompt, the start image, the
 * seed, the size and the length. Each pair becomes the catalog model `comfyui:<name>`. The
 * README documents the sidecar; docs/comfyui/ holds an example.
 */

/** The sidecar's file name ending. */
export const SIDECAR_SUFFIX = '.reelgraph.json'

/** One input of one node of the workflow: `{ "node": "6", "input": "text" }`. */
const nodeInput = z.object({ node: z.string().min(1), input: z.string().min(1) }).strict()
export type NodeInput = z.output<typeof nodeInput>

const frameSize = z.object({ width: z.number().int().min(64), height: z.number().int().min(64) })

/** The sizes a video workflow makes when none are given: Wan's 480p. */
export const DEFAULT_COMFYUI_SIZES: Readonly<
  Record<VideoPresetName, { width: number; height: number }>
> = {
  '16:9': { width: 832, height: 480 },
  '9:16': { width: 480, height: 832 },
  '1:1': { width: 640, height: 640 },
}

/** The sidecar of a workflow. */
export const comfyuiSidecarSchema = z
  .object({
    /** Its name in the model picker. */
    name: z.string().min(1).max(120),
    /** What it makes (default `video`). */
    kind: z.enum(MODEL_KINDS).default('video'),
    inputs: z
      .object({
        prompt: nodeInput,
        negativePrompt: nodeInput.optional(),
        /** A LoadImage node's `image`: the uploaded start image's name goes there. */
        startImage: nodeInput.optional(),
        lastFrame: nodeInput.optional(),
        seed: nodeInput.optional(),
        width: nodeInput.optional(),
        height: nodeInput.optional(),
        /** The number of frames (`length` of WanImageToVideo, `num_frames`...). */
        length: nodeInput.optional(),
        /** Where the frame rate goes (a video combine node's `frame_rate`), if anywhere. */
        frameRate: nodeInput.optional(),
      })
      .strict(),
    /** Frames per second of the workflow's video (Wan 2.x: 16). */
    framesPerSecond: z.number().positive().default(16),
    /** Frames added to seconds × fps (Wan wants 4n + 1 frames: 81 for 5 s). */
    extraFrames: z.number().int().min(0).default(1),
    /** Lengths it makes, in seconds (default [5]). */
    durations: z.array(z.number().positive()).min(1).default([5]),
    /** The frame size per aspect ratio; the keys are the aspect ratios it makes. */
    sizes: z.partialRecord(z.enum(VIDEO_PRESET_NAMES), frameSize).optional(),
    /** True when the workflow's video has its own sound. */
    audio: z.boolean().default(false),
    /** The node whose output is the result (default: the first video or image of any). */
    output: z
      .object({ node: z.string().min(1) })
      .strict()
      .optional(),
    /** Its price (default 1 credit per second of video, or per image). */
    cost: modelCostSchema.optional(),
  })
  .strict()
export type ComfyuiSidecar = z.output<typeof comfyuiSidecarSchema>

/** A workflow in ComfyUI's API format: node id -> `{ class_type, inputs }`. */
const apiWorkflowSchema = z.record(
  z.string(),
  z.object({ class_type: z.string(), inputs: z.record(z.string(), z.unknown()) }).loose(),
)
export type ComfyuiWorkflow = z.output<typeof apiWorkflowSchema>

/** A workflow with its sidecar, as the catalog lists it. */
export interface ComfyuiModel {
  definition: ModelDefinition
  workflow: ComfyuiWorkflow
  sidecar: ComfyuiSidecar
}

function problem(file: string, what: string): Error {
  return new Error(`COMFYUI_WORKFLOWS_DIR: ${file} ${what}`)
}

function readJson(dir: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown
  } catch (error) {
    throw new Error(
      `COMFYUI_WORKFLOWS_DIR: ${file} is not readable JSON (${(error as Error).message}).`,
      {
        cause: error,
      },
    )
  }
}

/**
 * Reads every workflow of `dir` with its sidecar and checks that each node input the sidecar
 * names is in the workflow.
 * @throws Error naming the file and what is wrong: a workflow without a sidecar or in the UI
 *   format, a sidecar that does not parse, a node input the workflow lacks.
 */
export function loadComfyuiWorkflows(dir: string): ComfyuiModel[] {
  let files: string[]
  try {
    files = readdirSync(dir).sort()
  } catch (error) {
    throw new Error(`COMFYUI_WORKFLOWS_DIR: ${dir} cannot be read (${(error as Error).message}).`, {
      cause: error,
    })
  }
  const models: ComfyuiModel[] = []
  for (const file of files) {
    if (!file.endsWith('.json') || file.endsWith(SIDECAR_SUFFIX)) continue
    const name = file.slice(0, -'.json'.length)
    const id = catalogId('comfyui', name)
    if (!MODEL_ID_PATTERN.test(id)) {
      throw problem(
        file,
        'has a name with spaces or is too long: rename it (letters, digits, - and _).',
      )
    }
    const sidecarFile = `${name}${SIDECAR_SUFFIX}`
    if (!files.includes(sidecarFile)) {
      throw problem(
        file,
        `has no sidecar ${sidecarFile} saying which inputs take the prompt and the image.`,
      )
    }
    const workflowJson = readJson(dir, file)
    const workflow = apiWorkflowSchema.safeParse(workflowJson)
    if (!workflow.success) {
      throw problem(
        file,
        'is not a workflow in the API format: in ComfyUI use Workflow → Export (API).',
      )
    }
    const parsed = comfyuiSidecarSchema.safeParse(readJson(dir, sidecarFile))
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
      throw problem(sidecarFile, `is not a valid sidecar: ${issues.join('; ')}`)
    }
    const sidecar = parsed.data
    for (const [what, ref] of Object.entries(sidecar.inputs)) {
      const node = workflow.data[ref.node]
      if (!node)
        throw problem(
          sidecarFile,
          `names node ${ref.node} for ${what}, which ${file} does not have.`,
        )
      if (!(ref.input in node.inputs)) {
        throw problem(
          sidecarFile,
          `names input "${ref.input}" of node ${ref.node} (${node.class_type}) for ${what}, which it does not have.`,
        )
      }
    }
    if (sidecar.output && !workflow.data[sidecar.output.node]) {
      throw problem(
        sidecarFile,
        `names output node ${sidecar.output.node}, which ${file} does not have.`,
      )
    }
    models.push({ definition: definitionOf(id, sidecar), workflow: workflow.data, sidecar })
  }
  return models
}

function definitionOf(id: string, sidecar: ComfyuiSidecar): ModelDefinition {
  const base = {
    id,
    provider: 'comfyui',
    providerName: 'ComfyUI',
    name: sidecar.name,
    offline: false,
  }
  if (sidecar.kind === 'image') {
    return {
      model: { ...base, kind: 'image', cost: sidecar.cost ?? { credits: 1, per: 'image' } },
      input: mapping({}),
    }
  }
  const sizes = sidecar.sizes ?? DEFAULT_COMFYUI_SIZES
  const aspectRatios = VIDEO_PRESET_NAMES.filter((p) => sizes[p] !== undefined)
  const first = sizes[aspectRatios[0]!]!
  return {
    model: {
      ...base,
      kind: 'video',
      capabilities: {
        textToVideo: sidecar.inputs.startImage === undefined,
        imageToVideo: sidecar.inputs.startImage !== undefined,
        lastFrame: sidecar.inputs.lastFrame !== undefined,
        audio: sidecar.audio,
        durations: [...sidecar.durations].sort((a, b) => a - b),
        aspectRatios,
        resolutions: [`${Math.min(first.width, first.height)}p`],
      },
      cost: sidecar.cost ?? { credits: 1, per: 'second' },
    },
    input: mapping({}),
  }
}
