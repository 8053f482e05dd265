import { describe, expect, it } from 'vitest'
import { scenePromptUpdate, startImageUpdate } from './scene-prompt'

const scene = (visuals: string) => ({ id: 's', type: 'scene' as const, data: { visuals } })
const generator = { id: 'g', type: 'image-generator' as const, data: { prompt: 'old' } }
const videoGenerator = { id: 'v', type: 'video-generator' as const, data: { prompt: '' } }
const ASSET = '/api/assets/abcdefghijklmnopqrstuvwxyz234567'
const image = (imageUrl: string) => ({ id: 'i', type: 'image' as const, data: { imageUrl } })

describe('scenePromptUpdate (spec §4)', () => {
  it('copies non-empty visuals into the generator, in either direction', () => {
    const expected = {
      generatorId: 'g',
      generatorType: 'image-generator',
      patch: { prompt: 'A red door', promptFromScene: 'true' },
    }
    expect(scenePromptUpdate(scene('A red door'), generator)).toEqual(expected)
    expect(scenePromptUpdate(generator, scene('A red door'))).toEqual(expected)
  })

  it('fills a Video Generator’s prompt the same way (issue 22 item 3)', () => {
    expect(scenePromptUpdate(videoGenerator, scene('Waves at dusk'))).toEqual({
      generatorId: 'v',
      generatorType: 'video-generator',
      patch: { prompt: 'Waves at dusk', promptFromScene: 'true' },
    })
  })

  it('does nothing for blank visuals or other pairs', () => {
    expect(scenePromptUpdate(scene('  '), generator)).toBeNull()
    expect(scenePromptUpdate(scene('x'), scene('y'))).toBeNull()
    expect(scenePromptUpdate(scene('x'), { id: 't', type: 'editable-text', data: {} })).toBeNull()
    expect(scenePromptUpdate(null, generator)).toBeNull()
    expect(scenePromptUpdate(generator, videoGenerator)).toBeNull()
  })
})

describe('startImageUpdate (issue 22 item 3)', () => {
  it('makes a connected image the Video Generator’s start image, in either direction', () => {
    const expected = { generatorId: 'v', imageId: 'i', patch: { imageUrl: ASSET } }
    expect(startImageUpdate(videoGenerator, image(ASSET))).toEqual(expected)
    expect(startImageUpdate(image(ASSET), videoGenerator)).toEqual(expected)
  })

  it('does nothing for an image without a picture or other pairs', () => {
    expect(startImageUpdate(videoGenerator, image(''))).toBeNull()
    expect(startImageUpdate(generator, image(ASSET))).toBeNull()
    expect(startImageUpdate(scene('x'), videoGenerator)).toBeNull()
    expect(startImageUpdate(undefined, image(ASSET))).toBeNull()
  })
})
