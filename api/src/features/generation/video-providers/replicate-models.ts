import { imageModel, type ModelDefinition, videoModel } from '../catalog/model-definition.ts'

/**
 * Replicate's curated models (issue 22 item 1): listed with `REPLICATE_API_TOKEN` set, each
 * with its mapping to the model's input fields (from the model's API page,
 * `https://replicate.com/<owner>/<name>/api`) and a default cost in credits (about 1.5 times
 * Replicate's price at $0.06 a credit). `MODEL_CATALOG_FILE` adds models (also
 * `owner/name:version` ids) and changes costs.
 */

const REPLICATE = { id: 'replicate', name: 'Replicate' }
const ALL_PRESETS = ['16:9', '9:16', '1:1'] as const
/** Every duration from 2 to 12 s (Seedance takes any whole second in between). */
const TWO_TO_TWELVE = Array.from({ length: 11 }, (_, i) => i + 2)
/** FLUX's aspect ratios on Replicate. */
const FLUX_RATIOS = [
  '1:1',
  '16:9',
  '21:9',
  '3:2',
  '2:3',
  '4:5',
  '5:4',
  '3:4',
  '4:3',
  '9:16',
  '9:21',
]

export const REPLICATE_DEFAULT_MODELS: readonly ModelDefinition[] = [
  videoModel(REPLICATE, {
    model: 'kwaivgi/kling-v2.1-master',
    name: 'Kling 2.1 Master',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: false,
      audio: false,
      durations: [5, 10],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['1080p'],
    },
    creditsPerSecond: 6,
    input: {
      prompt: 'prompt',
      negativePrompt: 'negative_prompt',
      startImage: 'start_image',
      duration: { field: 'duration', format: 'number' },
      aspectRatio: 'aspect_ratio',
    },
  }),
  videoModel(REPLICATE, {
    model: 'wan-video/wan-2.2-i2v-fast',
    name: 'Wan 2.2 image to video (fast)',
    capabilities: {
      textToVideo: false,
      imageToVideo: true,
      lastFrame: true,
      audio: false,
      durations: [5],
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['720p', '480p'],
    },
    creditsPerSecond: 1,
    input: {
      prompt: 'prompt',
      startImage: 'image',
      lastFrame: 'last_image',
      seed: 'seed',
      // 81 frames at 16 fps: Wan's 5 s clip.
      duration: { field: 'num_frames', format: 'frames', framesPerSecond: 16, extraFrames: 1 },
      resolution: 'resolution',
      fixed: { frames_per_second: 16 },
    },
  }),
  videoModel(REPLICATE, {
    model: 'google/veo-3-fast',
    name: 'Veo 3 Fast',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
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
      startImage: 'image',
      seed: 'seed',
      duration: { field: 'duration', format: 'number' },
      aspectRatio: 'aspect_ratio',
      resolution: 'resolution',
      withAudio: 'generate_audio',
    },
  }),
  videoModel(REPLICATE, {
    model: 'bytedance/seedance-1-pro',
    name: 'Seedance 1 Pro',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: true,
      audio: false,
      durations: TWO_TO_TWELVE,
      aspectRatios: [...ALL_PRESETS],
      resolutions: ['1080p', '720p', '480p'],
    },
    creditsPerSecond: 3,
    input: {
      prompt: 'prompt',
      startImage: 'image',
      lastFrame: 'last_frame_image',
      seed: 'seed',
      duration: { field: 'duration', format: 'number' },
      aspectRatio: 'aspect_ratio',
      resolution: 'resolution',
    },
  }),
  videoModel(REPLICATE, {
    model: 'minimax/hailuo-02',
    name: 'MiniMax Hailuo 02',
    capabilities: {
      textToVideo: true,
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
      startImage: 'first_frame_image',
      duration: { field: 'duration', format: 'number' },
      fixed: { prompt_optimizer: true },
    },
  }),
  videoModel(REPLICATE, {
    model: 'lightricks/ltx-2-fast',
    name: 'LTX-2 Fast',
    capabilities: {
      textToVideo: true,
      imageToVideo: true,
      lastFrame: false,
      audio: true,
      durations: [6, 8, 10],
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['1080p'],
    },
    creditsPerSecond: 2,
    input: {
      prompt: 'prompt',
      startImage: 'image',
      duration: { field: 'duration', format: 'number' },
      resolution: 'resolution',
      withAudio: 'generate_audio',
    },
  }),
  imageModel(REPLICATE, {
    model: 'black-forest-labs/flux-schnell',
    name: 'FLUX.1 [schnell]',
    credits: 1,
    input: {
      prompt: 'prompt',
      seed: 'seed',
      size: { format: 'aspect-ratio', field: 'aspect_ratio', ratios: FLUX_RATIOS },
      fixed: { output_format: 'png', num_outputs: 1 },
    },
  }),
  imageModel(REPLICATE, {
    model: 'black-forest-labs/flux-dev',
    name: 'FLUX.1 [dev]',
    credits: 2,
    input: {
      prompt: 'prompt',
      seed: 'seed',
      steps: 'num_inference_steps',
      guidance: 'guidance',
      size: { format: 'aspect-ratio', field: 'aspect_ratio', ratios: FLUX_RATIOS },
      fixed: { output_format: 'png', num_outputs: 1 },
    },
  }),
  imageModel(REPLICATE, {
    model: 'black-forest-labs/flux-1.1-pro',
    name: 'FLUX 1.1 [pro]',
    credits: 3,
    input: {
      prompt: 'prompt',
      seed: 'seed',
      size: { format: 'aspect-ratio', field: 'aspect_ratio', ratios: FLUX_RATIOS },
      fixed: { output_format: 'png' },
    },
  }),
]
