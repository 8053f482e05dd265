import { z } from 'zod'
import { projectIdSchema } from './ids.ts'
import { type GenerationCosts, sceneCountSchema } from './ai.ts'
import { type CatalogModel, MODEL_ID_PATTERN, modelCredits, nearestDuration } from './catalog.ts'
import { CLIP_DEFAULT_SECONDS } from './clips.ts'
import { SCENE_COUNT_MAX, SCENE_COUNT_MIN } from './constants.ts'
import type { GraphNode } from './graph.ts'
import { layoutColumns } from './column-layout.ts'
import { NODE_FOOTPRINTS, type NodeSizes, placeInFreeSpace } from './placement.ts'
import { createGraphNode } from './node-defaults.ts'
import { captionsInput } from './caption-style.ts'
import { VIDEO_PRESET_NAMES, type VideoPresetName } from './video.ts'
import { targetSecondsSchema } from './target-length.ts'

/**
 * "Make video" on the Script Generator (issue 13 item 6): one job runs script -> scenes ->
 * one image per scene -> the render, charged once for the whole chain (its total shown
 * before the click), with one progress on the generator node. What the api, the worker and
 * the canvas agree on: the call, the cost, and where the chain's nodes go.
 */

/** The most characters a recurring character's description may have (issue 42 item 2). */
export const MAKE_VIDEO_CHARACTER_MAX_LENGTH = 600
/** An asset's URL, as the document holds it: `/api/assets/<id>`. */
const ASSET_URL_PATTERN = /^\/api\/assets\/[a-z2-7]{32}$/

/**
 * A scene's visual instructions with the recurring `character` (issue 42 item 2): the
 * description first, so a prompt cut to length keeps it; unchanged without one.
 */
export function withCharacter(visuals: string, character: string | undefined): string {
  const who = character?.trim()
  if (!who) return visuals
  if (visuals.includes(who)) return visuals
  return visuals.trim() === '' ? `Featuring ${who}.` : `Featuring ${who}. ${visuals}`
}

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
    /**
     * How long the video should last, in seconds (issue 42 item 1): the script is written for
     * it and the scenes divide it. Absent: the Script Generator's own length. The server
     * refuses a count of scenes the length has no room for (`targetLengthProblem`).
     */
    targetSeconds: targetSecondsSchema.optional(),
    /**
     * A picture every scene shows instead of a generated one (issue 42 item 2, the product
     * clip): an image asset of the same project (`/api/assets/<id>`). The images step is
     * skipped and not charged; with `animate`, each scene's clip starts from it.
     */
    sceneImageUrl: z
      .string()
      .regex(ASSET_URL_PATTERN, 'sceneImageUrl must be an image of this project: /api/assets/….')
      .optional(),
    /**
     * A recurring character (issue 42 item 2, the story): its description, added to each
     * scene's visual instructions and image prompt, so every scene shows the same character.
     */
    character: z
      .string()
      .trim()
      .min(1, 'Describe the character, or leave it out.')
      .max(MAKE_VIDEO_CHARACTER_MAX_LENGTH, {
        error: `The character's description is longer than ${MAKE_VIDEO_CHARACTER_MAX_LENGTH} characters.`,
      })
      .optional(),
    /** The narration voice of the Video node the chain makes (a template's); absent: the default. */
    voice: z.string().max(100).optional(),
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

/** What changes a chain's cost besides its scenes and model. */
export interface MakeVideoCostOptions {
  /**
   * Every scene shows one given picture (`sceneImageUrl`, issue 42 item 2): no image is
   * generated, so none is charged.
   */
  sceneImage?: boolean | undefined
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
 * the scene split, one image per scene (none with `options.sceneImage`, issue 42 item 2), with `animate` one clip per scene of
 * {@link makeVideoClipSeconds} (issue 22 item 4: "6 clips · Kling 2.1, 5 s"), one narrated
 * scene each, and the render. The same costs as the single steps, so the chain is never dearer
 * or cheaper than clicking through.
 */
export function makeVideoCostParts(
  costs: GenerationCosts,
  sceneCount: number,
  animate?: AnimateModel | null,
  options: MakeVideoCostOptions = {},
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
    ...(options.sceneImage ? [] : [{ label: plural('image'), credits: costs.image * n }]),
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
  options: MakeVideoCostOptions = {},
): number {
  return makeVideoCostParts(costs, sceneCount, animate, options).reduce(
    (sum, part) => sum + part.credits,
    0,
  )
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
 * The horizontal padding of a node's body (Tailwind `p-3` on each side), in canvas units: an
 * image node's picture and the Video node's player are the node's width less this.
 */
const NODE_BODY_PADDING_X = 24

/**
 * The sizes a made video's nodes are laid out with for `preset` (issue 42 item 5): the
 * footprints, except that an image node shows its picture, drawn at the preset's frame size,
 * at the node's width, and the Video node its player in the preset's shape, both measured
 * with a 16:9 one: a 9:16 picture makes them taller by their inner width × (16/9 − 9/16).
 * Canvas units, rounded up.
 */
export function madeVideoSizes(preset: VideoPresetName): NodeSizes {
  const [w, h] = preset.split(':').map(Number) as [number, number]
  const taller = (type: 'image' | 'video') => {
    const { width, height } = NODE_FOOTPRINTS[type]
    const extra = (width - NODE_BODY_PADDING_X) * (h / w - 9 / 16)
    return { width, height: Math.ceil(height + Math.max(0, extra)) }
  }
  return { image: taller('image'), video: taller('video') }
}

/** The key the Script Generator is laid out under (it has no id in {@link MadeVideoIds}). */
const GENERATOR_KEY = '\u0000script-generator'

/**
 * Lays a chain out beside its Script Generator in columns, left to right (issue 42 item 5,
 * shared's {@link layoutColumns}): the script's text node 350 to the right (spec §4), the
 * scenes stacked in the next column, each scene's image generator and image (and, animating,
 * its Video Generator and Clip) on the scene's row, the Video node last, centred on the rows;
 * the first row on the generator's middle line. Sized for `preset` ({@link madeVideoSizes}).
 * The whole plan is moved down as a block, as little as needed, so that none of its nodes
 * covers a node of `existing` (nodes with one of the plan's ids are its own, from an earlier
 * attempt, and do not count).
 */
export function planMadeVideo(
  generator: { position: { x: number; y: number } },
  ids: MadeVideoIds,
  existing: readonly Pick<GraphNode, 'id' | 'type' | 'position'>[],
  preset: VideoPresetName = '16:9',
): MadeVideoLayout {
  const sizes = madeVideoSizes(preset)
  const at = layoutColumns(
    {
      scriptGenerator: GENERATOR_KEY,
      script: ids.text,
      rows: ids.scenes.map((scene, i) => ({
        scene,
        imageGenerator: ids.imageGenerators[i],
        image: ids.images[i],
        videoGenerator: ids.videoGenerators[i],
        clip: ids.clips[i],
      })),
      video: ids.video,
    },
    { origin: generator.position, sizes },
  )
  const where = (id: string) => at.get(id)!
  const layout: MadeVideoLayout = {
    text: where(ids.text),
    scenes: ids.scenes.map(where),
    imageGenerators: ids.imageGenerators.map(where),
    images: ids.images.map(where),
    videoGenerators: ids.videoGenerators.map(where),
    clips: ids.clips.map(where),
    video: where(ids.video),
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
  // Free space is searched with the preset's sizes too: a portrait image is taller.
  const placed = placeInFreeSpace({ nodes, connections: [] }, existing, sizes)
  const dy = (placed.nodes[0]?.position.y ?? layout.text.y) - layout.text.y
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
