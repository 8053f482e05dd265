import { type GraphNode, readNodeData } from '@reelgraph/shared'

/** What connecting a scene and an image generator writes into the generator. */
export interface ScenePromptUpdate {
  /** The image generator's id. */
  generatorId: string
  patch: { prompt: string; promptFromScene: 'true' }
}

/**
 * Connecting a scene and an image generator, in either direction, copies the scene's
 * visuals into the generator's prompt and sets promptFromScene to "true" — when the
 * visuals are not empty (blank counts as empty). Null for any other pair.
 * @see spec §4 Canvas behaviour
 */
export function scenePromptUpdate(
  a: Pick<GraphNode, 'id' | 'type' | 'data'> | null | undefined,
  b: Pick<GraphNode, 'id' | 'type' | 'data'> | null | undefined,
): ScenePromptUpdate | null {
  if (!a || !b) return null
  const scene = a.type === 'scene' ? a : b.type === 'scene' ? b : null
  const generator = a.type === 'image-generator' ? a : b.type === 'image-generator' ? b : null
  if (!scene || !generator || scene === generator) return null
  const { visuals } = readNodeData('scene', scene.data)
  if (visuals.trim() === '') return null
  return { generatorId: generator.id, patch: { prompt: visuals, promptFromScene: 'true' } }
}
