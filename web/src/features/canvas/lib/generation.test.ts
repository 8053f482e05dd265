import { IMAGE_SEED_MAX } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { ApiError, NetworkError } from '../../../lib/api-client'
import {
  buildImageRequest,
  buildScenesRequest,
  buildScriptRequest,
  buttonLabelWithCost,
  chooseSeed,
  creditShortfall,
  downloadUrl,
  firstModelSelection,
  firstVersionOf,
  generationFailureMessage,
  sceneCountOf,
  versionOptionsOf,
} from './generation'

const imageData = {
  prompt: '  A bee on a flower  ',
  negativePrompt: 'blurry',
  width: 1280,
  height: 720,
  numInferenceSteps: 25,
  guidanceScale: 7.5,
  seed: '',
  modelVersionId: 'storyboard-v1',
}

describe('generationFailureMessage (spec §8)', () => {
  it('quotes the server message when there was an answer', () => {
    const error = new ApiError(
      402,
      'Payment Required',
      JSON.stringify({
        error: { code: 'INSUFFICIENT_CREDITS', message: 'This needs 2 credits; you have 1.' },
      }),
    )
    expect(generationFailureMessage('image', error)).toBe(
      'Failed to generate image: This needs 2 credits; you have 1.',
    )
  })

  it('says Unknown error when the answer carried no message', () => {
    const error = new ApiError(502, '', '')
    // An empty body and status text leave the generic fallback; it is still a server answer.
    expect(generationFailureMessage('script', error)).toMatch(/^Failed to generate script: /)
    const blank = Object.assign(new ApiError(502, 'Bad Gateway', ''), { serverMessage: ' ' })
    expect(generationFailureMessage('scenes', blank)).toBe(
      'Failed to generate scenes: Unknown error',
    )
  })

  it('asks to try again after a network failure', () => {
    expect(generationFailureMessage('script', new NetworkError(new TypeError('fetch')))).toBe(
      'Error generating script. Please try again.',
    )
    expect(generationFailureMessage('scenes', new Error('boom'))).toBe(
      'Error generating scenes. Please try again.',
    )
    expect(generationFailureMessage('image', undefined)).toBe(
      'Error generating image. Please try again.',
    )
  })
})

describe('buttonLabelWithCost', () => {
  it('shows the cost in credits once known', () => {
    expect(buttonLabelWithCost('Generate Script', 1)).toBe('Generate Script · 1 credit')
    expect(buttonLabelWithCost('Generate Image', 2)).toBe('Generate Image · 2 credits')
    expect(buttonLabelWithCost('Generate Image', undefined)).toBe('Generate Image')
  })
})

describe('requests', () => {
  it('builds the script request with a trimmed topic and the target length (issue 42 item 1)', () => {
    expect(
      buildScriptRequest({
        topic: '  How bees talk ',
        style: 'Casual',
        tone: 'Enthusiastic',
        format: 'Story',
        targetSeconds: 30,
      }),
    ).toEqual({
      topic: 'How bees talk',
      style: 'Casual',
      tone: 'Enthusiastic',
      format: 'Story',
      targetSeconds: 30,
    })
  })

  it('builds the scenes request with the scene count clamped to 1–25', () => {
    expect(buildScenesRequest({ content: 'A script', sceneCount: 3 })).toEqual({
      script: 'A script',
      sceneCount: 3,
    })
    expect(sceneCountOf(0)).toBe(1)
    expect(sceneCountOf(40)).toBe(25)
    expect(sceneCountOf('7')).toBe(7)
    expect(sceneCountOf('x')).toBe(6)
  })

  it('builds the image request with the project, a trimmed prompt and the node seed', () => {
    expect(buildImageRequest(12, { ...imageData, seed: '42' })).toEqual({
      projectId: 12,
      modelVersionId: 'storyboard-v1',
      prompt: 'A bee on a flower',
      negativePrompt: 'blurry',
      width: 1280,
      height: 720,
      numInferenceSteps: 25,
      guidanceScale: 7.5,
      seed: 42,
    })
  })

  it('sends a random seed when the seed is empty', () => {
    expect(buildImageRequest(12, imageData, () => 0.5).seed).toBe(Math.floor(0.5 * 2 ** 31))
  })
})

describe('chooseSeed (spec §5, §9)', () => {
  it('keeps a valid seed', () => {
    expect(chooseSeed('0')).toBe(0)
    expect(chooseSeed(' 2147483647 ')).toBe(IMAGE_SEED_MAX)
  })

  it('draws a random integer from 0 to 2147483647 when empty or invalid', () => {
    expect(chooseSeed('', () => 0)).toBe(0)
    expect(chooseSeed('', () => 0.999_999_999_999)).toBe(IMAGE_SEED_MAX)
    expect(chooseSeed('2147483648', () => 0.25)).toBe(Math.floor(0.25 * 2 ** 31))
    expect(chooseSeed('-3', () => 0.1)).toBe(Math.floor(0.1 * 2 ** 31))
    for (let i = 0; i < 100; i++) {
      const seed = chooseSeed('')
      expect(Number.isInteger(seed)).toBe(true)
      expect(seed).toBeGreaterThanOrEqual(0)
      expect(seed).toBeLessThanOrEqual(IMAGE_SEED_MAX)
    }
  })
})

describe('models (spec §4: the first model and version are auto-selected)', () => {
  const models = [
    { id: 7, name: 'Storyboard', modelVersions: [{ id: 70 }, { id: 71 }] },
    { id: 'b', name: 'Other', modelVersions: [] },
  ]

  it('selects the first model and its first version, as strings', () => {
    expect(firstModelSelection(models)).toEqual({ modelId: '7', modelVersionId: '70' })
    expect(firstModelSelection([])).toBeNull()
    expect(firstModelSelection(undefined)).toBeNull()
    expect(firstModelSelection([models[1]!])).toBeNull()
  })

  it('finds the first version of a chosen model', () => {
    expect(firstVersionOf(models, '7')).toBe('70')
    expect(firstVersionOf(models, 'b')).toBe('')
    expect(firstVersionOf(models, 'missing')).toBe('')
  })

  it("lists a model's versions by name, else by id", () => {
    const named = [{ id: 1, name: 'M', modelVersions: [{ id: 10, name: 'v1.0' }, { id: 11 }] }]
    expect(versionOptionsOf(named, '1')).toEqual([
      { value: '10', label: 'v1.0' },
      { value: '11', label: '11' },
    ])
    expect(versionOptionsOf(named, '2')).toEqual([])
  })
})

describe('downloadUrl', () => {
  it('asks the asset route for the download', () => {
    expect(downloadUrl('/api/assets/abc')).toBe('/api/assets/abc?download=1')
    expect(downloadUrl('/api/assets/abc?v=2')).toBe('/api/assets/abc?v=2&download=1')
  })
})

describe('creditShortfall (issue 14 item 8)', () => {
  it('says why a button cannot be paid for when the balance is below its cost', () => {
    expect(creditShortfall(0, 1)).toBe('Not enough credits: this needs 1 credit; you have 0.')
    expect(creditShortfall(1, 2)).toBe('Not enough credits: this needs 2 credits; you have 1.')
  })
  it('is null when the balance covers the cost, or while either is unknown', () => {
    expect(creditShortfall(2, 2)).toBeNull()
    expect(creditShortfall(null, 2)).toBeNull()
    expect(creditShortfall(0, undefined)).toBeNull()
  })
})
