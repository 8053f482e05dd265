import { z } from 'zod'
import { projectIdSchema } from './ids.ts'
import { type GenerationCosts, sceneCountSchema } from './ai.ts'
import { type CatalogModel, MODEL_ID_PATTERN, modelCredits, nearestDuration } from './catalog.ts'
import { CLIP_DEFAULT_SECONDS } from './clips.ts'
import { SCENE_COUNT_MAX, SCENE_COUNT_MIN } from './constants.ts'
import type { GraphNode } from './graph.ts'
import { NODE_FOOTPRINTS, PLACEMENT_GAP, placeInFreeSpace, RESULT_OFFSET_X } from './placement.ts'
import { createGraphNode } from './node-defaults.ts'
import { captionsInput } from './caption-style.ts'
import { VIDEO_PRESET_NAMES } from './video.ts'

/**
 * "Make video" on the Script Generator (issue 13 item 6): one job runs script -> scenes ->
 * one image per scene -> the render, charged once for the whole chain (its total shown
 * before the click), with one progress on the generator node. What the api, the worker and
 * the canvas agree on: the call, the cost, and where the chain's nodes go.
 */

/** `POST /api/video/make`: make a video from Script Generator `nodeId` of project `projectId`. */
export const makeVideoInput = z
  .object({
    projectId: projectIdSchema,
    nodeId: z.string().min(1).max(64),
    sceneCount: sceneCountSchema,
    preset: z.enum(VIDEO_PRESET_NAMES, {
      error: `The format must be one of ${VIDEO_PRESET_NAMES.join(', ')}.`,
    }),
    /**
     * "Animate each scene with [model]" (issue 22 item 4): one clip per scene with this
     * catalog video model, {@link MAKE_VIDEO_CLIP_SECONDS} long as near as the model makes;
     * absent, the scenes stay stills.
     */
    animate: z
      .object({
        modelId: z
          .string({ error: 'Pick a video model to animate the scenes with.' })
          .regex(MODEL_ID_PATTERN, 'Pick a video model from the list.'),
      })
      .optional(),
    /** The caption look of the video's render (issue 24 item 4); absent: classic. */
    captions: captionsInput.optional(),
  })
  .meta({ id: 'MakeVideoInput' })
export type MakeVideoInput = z.infer<typeof makeVideoInput>

/**
 * How long each scene's clip is asked to be when "Make video" animates the scenes, in seconds
 * (the model's nearest duration is used): the Video Generator's default length, about one
 * narrated sentence.
 */
export const MAKE_VIDEO_CLIP_SECONDS = CLIP_DEFAULT_SECONDS

/** The video model "Make video" animates the scenes with, as its cost needs it. */
export type AnimateModel = Pick<CatalogModel, 'name' | 'cost' | 'capabilities'>

/**
 * The length of each scene's clip with `model`, in seconds: its duration nearest
 * {@link MAKE_VIDEO_CLIP_SECONDS} (that length when the model lists none).
 */
export function makeVideoClipSeconds(model: Pick<CatalogModel, 'capabilities'>): number {
  return model.capabilities
    ? nearestDuration(model.capabilities, MAKE_VIDEO_CLIP_SECONDS)
    : MAKE_VIDEO_CLIP_SECONDS
}

/** One line of the chain's cost, for the "Make video" dialog. */
export interface MakeVideoCostPart {
  /** What it pays for, e.g. "6 images". */
  label: string
  /** Credits. */
  credits: number
}

/**
 * What "Make video" costs for `sceneCount` scenes, part by part (issue 13 item 6): the script,
 * the scene split, one image per scene, with `animate` one clip per scene of
 * {@link makeVideoClipSeconds} (issue 22 item 4: "6 clips · Kling 2.1, 5 s"), one narrated
 * scene each, and the render. The same costs as the single steps, so the chain is never dearer
 * or cheaper than clicking through.
 */
export function makeVideoCostParts(
  costs: GenerationCosts,
  sceneCount: number,
  animate?: AnimateModel | null,
): MakeVideoCostPart[] {
  const n = sceneCount
  const plural = (word: string) => (n === 1 ? `1 ${word}` : `${n} ${word}s`)
  const clips: MakeVideoCostPart[] = animate
    ? [
        {
          label: `${plural('clip')} · ${animate.name}, ${makeVideoClipSeconds(animate)} s`,
          credits: modelCredits(animate, makeVideoClipSeconds(animate)) * n,
        },
      ]
    : []
  return [
    { label: 'Script', credits: costs.script },
    { label: 'Scenes', credits: costs.scenes },
    { label: plural('image'), credits: costs.image * n },
    ...clips,
    { label: plural('narrated scene'), credits: costs.voice * n },
    { label: 'Video render', credits: costs.video },
  ]
}

/** The total of {@link makeVideoCostParts}, in credits. */
export function makeVideoCost(
  costs: GenerationCosts,
  sceneCount: number,
  animate?: AnimateModel | null,
): number {
  return makeVideoCostParts(costs, sceneCount, animate).reduce((sum, part) => sum + part.credits, 0)
}

/**
 * The most scenes (from the default down to 1) whose chain `balance` credits pay for, or 0
 * when not even one scene is affordable: the dialog's starting scene count (with `animate`,
 * the chain that animates each scene).
 */
export function affordableSceneCount(
  costs: GenerationCosts,
  balance: number,
  preferred: number,
  animate?: AnimateModel | null,
): number {
  for (let n = Math.min(preferred, SCENE_COUNT_MAX); n >= SCENE_COUNT_MIN; n--) {
    if (makeVideoCost(costs, n, animate) <= balance) return n
  }
  return 0
}

/**
 * Columns of a made video are this far apart: an image node (the widest, 400) and the
 * placement gap, so scene, image generator and image stack in one column without touching
 * the next. (Generate Scenes keeps the spec's 320: its images go to the right instead.)
 */
export const MADE_VIDEO_COLUMN_X = NODE_FOOTPRINTS.image.width + PLACEMENT_GAP
/** The scene row sits this far below the script's text node (spec §9's scene row offset). */
export const MADE_VIDEO_SCENE_ROW_Y = 550

/** The ids of every node a chain adds, derived from its job so a retried chain reuses them. */
export interface MadeVideoIds {
  text: string
  scenes: string[]
  imageGenerators: string[]
  images: string[]
  /** With "Animate each scene" (issue 22 item 4), a Video Generator and a Clip per scene. */
  videoGenerators: string[]
  clips: string[]
  video: string
}

/** Where each node of a chain goes, in canvas units. */
export interface MadeVideoLayout {
  text: { x: number; y: number }
  scenes: { x: number; y: number }[]
  imageGenerators: { x: number; y: number }[]
  images: { x: number; y: number }[]
  videoGenerators: { x: number; y: number }[]
  clips: { x: number; y: number }[]
  video: { x: number; y: number }
}

/**
 * Lays a chain out neatly beside its Script Generator (issue 13 item 6): the script's text
 * node 350 to the right (spec §4), the scenes in a row under it, each scene's image generator
 * and image (and, animating, its Video Generator and Clip) stacked below it in its column,
 * and the Video node at the end of the image row.
 * The whole plan is moved down as a block, as little as needed, so that none of its nodes
 * covers a node of `existing` (nodes with one of the plan's ids are its own, from an earlier
 * attempt, and do not count).
 */
export function planMadeVideo(
  generator: { position: { x: number; y: number } },
  ids: MadeVideoIds,
  existing: readonly Pick<GraphNode, 'id' | 'type' | 'position'>[],
): MadeVideoLayout {
  const text = { x: generator.position.x + RESULT_OFFSET_X, y: generator.position.y }
  const sceneY = text.y + MADE_VIDEO_SCENE_ROW_Y
  const generatorY = sceneY + NODE_FOOTPRINTS.scene.height + PLACEMENT_GAP
  const imageY = generatorY + NODE_FOOTPRINTS['image-generator'].height + PLACEMENT_GAP
  const videoGeneratorY = imageY + NODE_FOOTPRINTS.image.height + PLACEMENT_GAP
  const clipY = videoGeneratorY + NODE_FOOTPRINTS['video-generator'].height + PLACEMENT_GAP
  const column = (i: number) => text.x + i * MADE_VIDEO_COLUMN_X
  const n = ids.scenes.length
  const layout: MadeVideoLayout = {
    text,
    scenes: ids.scenes.map((_, i) => ({ x: column(i), y: sceneY })),
    imageGenerators: ids.scenes.map((_, i) => ({ x: column(i), y: generatorY })),
    images: ids.scenes.map((_, i) => ({ x: column(i), y: imageY })),
    videoGenerators: ids.videoGenerators.map((_, i) => ({ x: column(i), y: videoGeneratorY })),
    clips: ids.clips.map((_, i) => ({ x: column(i), y: clipY })),
    video: { x: column(n), y: imageY },
  }
  const planned = [
    { id: ids.text, type: 'editable-text' as const, position: layout.text },
    ...ids.scenes.map((id, i) => ({ id, type: 'scene' as const, position: layout.scenes[i]! })),
    ...ids.imageGenerators.map((id, i) => ({
      id,
      type: 'image-generator' as const,
      position: layout.imageGenerators[i]!,
    })),
    ...ids.images.map((id, i) => ({ id, type: 'image' as const, position: layout.images[i]! })),
    ...ids.videoGenerators.map((id, i) => ({
      id,
      type: 'video-generator' as const,
      position: layout.videoGenerators[i]!,
    })),
    ...ids.clips.map((id, i) => ({ id, type: 'clip' as const, position: layout.clips[i]! })),
    { id: ids.video, type: 'video' as const, position: layout.video },
  ]
  const nodes = planned.map((p) => createGraphNode(p.type, p.position, [], 0, p.id))
  const placed = placeInFreeSpace({ nodes, connections: [] }, existing)
  const dy = (placed.nodes[0]?.position.y ?? text.y) - text.y
  const down = (p: { x: number; y: number }) => ({ x: p.x, y: p.y + dy })
  return {
    text: down(layout.text),
    scenes: layout.scenes.map(down),
    imageGenerators: layout.imageGenerators.map(down),
    images: layout.images.map(down),
    videoGenerators: layout.videoGenerators.map(down),
    clips: layout.clips.map(down),
    video: down(layout.video),
  }
}
