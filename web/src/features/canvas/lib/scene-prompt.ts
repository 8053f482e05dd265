import { type GraphNode, readNodeData } from '@reelgraph/shared'

/** The generators whose prompt a connected scene fills (spec §4; issue 22 item 3). */
export const PROMPT_GENERATOR_TYPES = ['image-generator', 'video-generator'] as const
export type PromptGeneratorType = (typeof PROMPT_GENERATOR_TYPES)[number]

/** True for an image or video generator: a node whose prompt a scene's visuals fill. */
export function isPromptGenerator(type: string): type is PromptGeneratorType {
  return (PROMPT_GENERATOR_TYPES as readonly string[]).includes(type)
}

/** What connecting a scene and a generator writes into the generator. */
export interface ScenePromptUpdate {
  /** The generator's id. */
  generatorId: string
  generatorType: PromptGeneratorType
  patch: { prompt: string; promptFromScene: 'true' }
}

type Endpoint = Pick<GraphNode, 'id' | 'type' | 'data'> | null | undefined

/**
 * Connecting a scene and an image generator (or a Video Generator, issue 22 item 3), in either
 * direction, copies the scene's visuals into the generator's prompt and sets promptFromScene
 * to "true" — when the visuals are not empty (blank counts as empty). Null for any other pair.
 * @see spec §4 Canvas behaviour
 */
export function scenePromptUpdate(a: Endpoint, b: Endpoint): ScenePromptUpdate | null {
  if (!a || !b) return null
  const scene = a.type === 'scene' ? a : b.type === 'scene' ? b : null
  const generator = isPromptGenerator(a.type) ? a : isPromptGenerator(b.type) ? b : null
  if (!scene || !generator || scene === generator || !isPromptGenerator(generator.type)) {
    return null
  }
  const { visuals } = readNodeData('scene', scene.data)
  if (visuals.trim() === '') return null
  return {
    generatorId: generator.id,
    generatorType: generator.type,
    patch: { prompt: visuals, promptFromScene: 'true' },
  }
}

/** What connecting an image node and a Video Generator writes into the generator. */
export interface StartImageUpdate {
  /** The Video Generator's id. */
  generatorId: string
  /** The image node's id. */
  imageId: string
  patch: { imageUrl: string }
}

/**
 * Connecting an image node and a Video Generator, in either direction, makes the image the
 * clip's start image (issue 22 item 3: the generator's `imageUrl`), when the image has one.
 * Null for any other pair. (An image node is only fed, so the connection usually runs from
 * the generator's output to the image's input.)
 */
export function startImageUpdate(a: Endpoint, b: Endpoint): StartImageUpdate | null {
  if (!a || !b) return null
  const image = a.type === 'image' ? a : b.type === 'image' ? b : null
  const generator = a.type === 'video-generator' ? a : b.type === 'video-generator' ? b : null
  if (!image || !generator) return null
  const { imageUrl } = readNodeData('image', image.data)
  if (imageUrl.trim() === '') return null
  return { generatorId: generator.id, imageId: image.id, patch: { imageUrl } }
}
