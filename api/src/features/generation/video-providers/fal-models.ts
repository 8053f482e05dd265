import { imageModel, type ModelDefinition, videoModel } from '../catalog/model-definition.ts'

/**
 * fal.ai's curated models (issue 22 item 1): what the catalog lists with `FAL_KEY` set, each
 * with its mapping from Reelgraph's request to the model's own input fields (from fal's model
 * pages, `https://fal.ai/models/<id>/api`; the ADR says which fields could not be checked) and
 * a default cost in credits (about 1.5 times fal's price at the Basic plan's $0.06 a credit).
 * `MODEL_CATALOG_FILE` adds models and changes costs.
 */

const FAL = { id: 'fal', name: 'fal.ai' }

/** A clip from a start image takes the image's shape: every preset. */
const ALL_PRESETS = ['16:9', '9:16', '1:1'] as const

export const FAL_DEFAULT_MODELS: readonly ModelDefinition[] = [
  videoModel(FAL, {
    model: 'fal-ai/kling-video/v2.5-turbo/standard/image-to-video',
    name: 'Kling 2.5 Turbo Standard',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [5, 10],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['720p'],
    },
    creditsPerSecond: 1,
    input: {
      prompt: 'prompt',
      startImage: 'image_url',
      negativePrompt: 'negative_prompt',
      duration: { field: 'duration', format: 'string' },
    },
  }),
  videoModel(FAL, {
    model: 'fal-ai/wan/v2.2-a14b/image-to-video',
    name: 'Wan 2.2 A14B',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [5, 10],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['720p', '580p', '480p'],
    },
    creditsPerSecond: 2,
    input: {
      prompt: 'prompt',
      startImage: 'image_url',
      negativePrompt: 'negative_prompt',
      seed: 'seed',
      // 81 frames at 16 fps is Wan's 5 s clip; fal prices video seconds at 16 fps.
      duration: { field: 'num_frames', format: 'frames', framesPerSecond: 16, extraFrames: 1 },
      resolution: 'resolution',
      aspectRatio: 'aspect_ratio',
      fixed: { frames_per_second: 16 },
    },
  }),
  videoModel(FAL, {
    model: 'fal-ai/veo3/fast',
    name: 'Veo 3 Fast',
    capabilities: {
      textToVideo: true,
      imageToVideo: false,
      lastFrame: false,
      audio: true,
      durations: [4, 6, 8],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p', '1080p'],
    },
    creditsPerSecond: 3,
    input: {
      prompt: 'prompt',
      negativePrompt: 'negative_prompt',
      seed: 'seed',
      duration: { field: 'duration', format: 'seconds-suffix' },
      aspectRatio: 'aspect_ratio',
      resolution: 'resolution',
      withAudio: 'generate_audio',
    },
  }),
  videoModel(FAL, {
    model: 'fal-ai/bytedance/seedance/v1/pro/image-to-video',
    name: 'Seedance 1.0 Pro',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [5, 10],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['1080p', '720p', '480p'],
    },
    creditsPerSecond: 3,
    input: {
      prompt: 'prompt',
      startImage: 'image_url',
      seed: 'seed',
      duration: { field: 'duration', format: 'string' },
      aspectRatio: 'aspect_ratio',
      resolution: 'resolution',
    },
  }),
  videoModel(FAL, {
    model: 'fal-ai/minimax/hailuo-02/standard/image-to-video',
    name: 'MiniMax Hailuo 02 Standard',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [6, 10],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['768p'],
    },
    creditsPerSecond: 1,
    input: {
      prompt: 'prompt',
      startImage: 'image_url',
      duration: { field: 'duration', format: 'string' },
      fixed: { prompt_optimizer: true },
    },
  }),
  videoModel(FAL, {
    model: 'fal-ai/ltx-2/image-to-video',
    name: 'LTX-2 Pro',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: false,
      audio: true,
      durations: [6, 8, 10],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['1080p', '1440p', '2160p'],
    },
    creditsPerSecond: 2,
    input: {
      prompt: 'prompt',
      startImage: 'image_url',
      duration: { field: 'duration', format: 'number' },
      resolution: 'resolution',
      withAudio: 'generate_audio',
    },
  }),
  imageModel(FAL, {
    model: 'fal-ai/flux/schnell',
    name: 'FLUX.1 [schnell]',
    credits: 1,
    // Steps stay schnell's own (it takes at most 12; the image request's default is 25).
    input: { prompt: 'prompt', seed: 'seed', size: { format: 'object', field: 'image_size' } },
  }),
  imageModel(FAL, {
    model: 'fal-ai/flux/dev',
    name: 'FLUX.1 [dev]',
    credits: 2,
    input: {
      prompt: 'prompt',
      seed: 'seed',
      steps: 'num_inference_steps',
      guidance: 'guidance_scale',
      size: { format: 'object', field: 'image_size' },
      fixed: { enable_safety_checker: true },
    },
  }),
  imageModel(FAL, {
    model: 'fal-ai/flux-pro/v1.1',
    name: 'FLUX 1.1 [pro]',
    credits: 3,
    input: { prompt: 'prompt', seed: 'seed', size: { format: 'object', field: 'image_size' } },
  }),
]
