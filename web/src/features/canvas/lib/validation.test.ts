import { describe, expect, it } from 'vitest'
import {
  guidanceIssue,
  imageGenerationIssue,
  imageSizeIssue,
  sceneGenerationIssue,
  scriptGenerationIssue,
  seedIssue,
  stepsIssue,
} from './validation'

describe('generation rules (spec §5)', () => {
  it('uses the spec alerts for missing inputs', () => {
    expect(scriptGenerationIssue({ topic: '  ' })).toBe('Please enter a topic for your video')
    expect(scriptGenerationIssue({ topic: 'Bees' })).toBeNull()
    expect(sceneGenerationIssue({ content: '\n' })).toBe(
      'Please enter content before generating scenes',
    )
    expect(imageGenerationIssue({ prompt: '', modelId: 'm' })).toBe(
      'Please enter a prompt for image generation',
    )
    expect(imageGenerationIssue({ prompt: 'a cat', modelId: '' })).toBe(
      'Please select a model for image generation',
    )
    expect(imageGenerationIssue({ prompt: 'a cat', modelId: 'm' })).toBeNull()
    expect(imageGenerationIssue({ prompt: 'a cat', modelId: 'm', modelVersionId: '' })).toBe(
      'Please select a model for image generation',
    )
    expect(imageGenerationIssue({ prompt: 'a cat', modelId: 'm', modelVersionId: 'v' })).toBeNull()
  })

  it('checks sizes, steps, guidance and seed ranges', () => {
    expect(imageSizeIssue(1280, 'Width')).toBeNull()
    expect(imageSizeIssue(64, 'Width')).toBeNull()
    expect(imageSizeIssue(2048, 'Height')).toBeNull()
    expect(imageSizeIssue(100, 'Width')).toMatch(/steps of 8/)
    expect(imageSizeIssue(56, 'Height')).toMatch(/^Height/)
    expect(imageSizeIssue(2056, 'Width')).not.toBeNull()
    expect(stepsIssue(1)).toBeNull()
    expect(stepsIssue(100)).toBeNull()
    expect(stepsIssue(0)).not.toBeNull()
    expect(stepsIssue(2.5)).not.toBeNull()
    expect(guidanceIssue(7.5)).toBeNull()
    expect(guidanceIssue(1)).toBeNull()
    expect(guidanceIssue(20)).toBeNull()
    expect(guidanceIssue(7.55)).not.toBeNull()
    expect(guidanceIssue(0.9)).not.toBeNull()
    expect(seedIssue('')).toBeNull()
    expect(seedIssue('42')).toBeNull()
    expect(seedIssue('2147483647')).toBeNull()
    expect(seedIssue('2147483648')).not.toBeNull()
    expect(seedIssue('-1')).not.toBeNull()
  })
})
