import { describe, expect, it } from 'vitest'
import { rejection } from '../providers/testing/rejection.ts'
import { clipRequest } from '../video-providers/testing/clip-request.ts'
import {
  clipInput,
  durationValue,
  imageInput,
  inputMappingSchema,
  mapping,
  nearestRatio,
} from './input-mapping.ts'
import { videoModel } from './model-definition.ts'

const I2V = videoModel(
  { id: 'fal', name: 'fal.ai' },
  {
    model: 'some/i2v',
    name: 'Image only',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: true,
      audio: true,
      durations: [5],
      aspectRatios: ['16:9'],
      resolutions: ['720p'],
    },
    creditsPerSecond: 1,
    input: {
      prompt: 'text',
      startImage: 'first',
      lastFrame: 'last',
      negativePrompt: 'neg',
      duration: { field: 'frames', format: 'frames', framesPerSecond: 16, extraFrames: 1 },
      aspectRatio: { field: 'ratio', values: { '16:9': 'landscape' } },
      resolution: 'res',
      withAudio: 'sound',
      seed: 'seed',
      fixed: { steps: 30 },
    },
  },
)

describe('input mapping: Reelgraph’s request in the model’s own fields', () => {
  it('writes a duration as the model wants it', () => {
    const field = 'duration'
    expect(durationValue({ field, format: 'number', extraFrames: 0 }, 5)).toBe(5)
    expect(durationValue({ field, format: 'string', extraFrames: 0 }, 5)).toBe('5')
    expect(durationValue({ field, format: 'seconds-suffix', extraFrames: 0 }, 8)).toBe('8s')
    expect(durationValue({ field, format: 'frames', framesPerSecond: 16, extraFrames: 1 }, 5)).toBe(
      81,
    )
  })

  it('maps every field of a clip request, then the fixed inputs', () => {
    const input = clipInput(
      I2V.input,
      clipRequest(I2V, { negativePrompt: 'blur', withAudio: true }),
      { startImage: 'data:image/png;base64,AAAA', lastFrame: 'data:image/png;base64,BBBB' },
    )
    expect(input).toEqual({
      text: 'A lighthouse at dusk, waves rolling in',
      first: 'data:image/png;base64,AAAA',
      last: 'data:image/png;base64,BBBB',
      neg: 'blur',
      frames: 81,
      ratio: 'landscape',
      res: '720p',
      sound: true,
      seed: 1234,
      steps: 30,
    })
  })

  it('refuses a clip without the start image an image-to-video model needs, in words', async () => {
    const error = await rejection(
      Promise.resolve().then(() => clipInput(I2V.input, clipRequest(I2V), {})),
    )
    expect(error.message).toBe(
      'Image only makes clips from a start image: connect an image to the Video Generator.',
    )
  })

  it('maps an image request’s size three ways', () => {
    const request = {
      prompt: 'fox',
      negativePrompt: '',
      width: 1280,
      height: 720,
      numInferenceSteps: 20,
      guidanceScale: 7,
      seed: 3,
    }
    expect(
      imageInput(mapping({ size: { format: 'object', field: 'image_size' } }), request),
    ).toEqual({
      prompt: 'fox',
      image_size: { width: 1280, height: 720 },
    })
    expect(
      imageInput(
        mapping({ size: { format: 'width-height', width: 'w', height: 'h' }, seed: 's' }),
        request,
      ),
    ).toEqual({ prompt: 'fox', w: 1280, h: 720, s: 3 })
    expect(
      imageInput(
        mapping({ size: { format: 'aspect-ratio', field: 'ar', ratios: ['1:1', '4:3', '16:9'] } }),
        request,
      ),
    ).toEqual({ prompt: 'fox', ar: '16:9' })
    expect(nearestRatio(['1:1', '2:3', '9:16'], 720, 1280)).toBe('9:16')
  })

  it('rejects a mapping with a frames duration but no frame rate, or an unknown key', () => {
    expect(
      inputMappingSchema.safeParse({ duration: { field: 'n', format: 'frames' } }).error?.issues[0]
        ?.message,
    ).toBe('a duration written as frames needs framesPerSecond')
    expect(inputMappingSchema.safeParse({ promt: 'x' }).success).toBe(false)
  })
})
