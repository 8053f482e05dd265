import { describe, expect, it } from 'vitest'
import { scenePromptUpdate } from './scene-prompt'

const scene = (visuals: string) => ({ id: 's', type: 'scene' as const, data: { visuals } })
const generator = { id: 'g', type: 'image-generator' as const, data: { prompt: 'old' } }

describe('scenePromptUpdate (spec §4)', () => {
  it('copies non-empty visuals into the generator, in either direction', () => {
    const expected = { generatorId: 'g', patch: { prompt: 'A red door', promptFromScene: 'true' } }
    expect(scenePromptUpdate(scene('A red door'), generator)).toEqual(expected)
    expect(scenePromptUpdate(generator, scene('A red door'))).toEqual(expected)
  })

  it('does nothing for blank visuals or other pairs', () => {
    expect(scenePromptUpdate(scene('  '), generator)).toBeNull()
    expect(scenePromptUpdate(scene('x'), scene('y'))).toBeNull()
    expect(scenePromptUpdate(scene('x'), { id: 't', type: 'editable-text', data: {} })).toBeNull()
    expect(scenePromptUpdate(null, generator)).toBeNull()
  })
})
