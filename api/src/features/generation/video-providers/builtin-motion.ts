import { randomUUID } from 'node:crypto'
import { copyFile, mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Env } from '../../../env.ts'
import { findFfmpeg, RenderError, renderMotionDraft } from '@reelgraph/media'
import type { VideoPresetName } from '@reelgraph/shared'
import { ProviderError } from '../../../lib/provider-error.ts'
import {
  type CatalogProvider,
  imageModel,
  type ModelDefinition,
  videoModel,
} from '../catalog/model-definition.ts'
import type { GeneratedClip, VideoProvider } from '../catalog/types.ts'
import { createBuiltinImageProvider, renderStoryboardFrame } from '../providers/builtin-image.ts'
import { abortError, type ProviderWords } from './provider-http.ts'

/**
 * The builtin offline provider's models (issue 22 items 1 and 2): the storyboard frames
 * (ADR 016) and the offline motion draft, a clip made by ffmpeg from the start image, or from
 * a storyboard frame drawn from the prompt, with a camera move and parallax (media's
 * `renderMotionDraft`). No key, no network: the whole graph runs offline. Honestly named.
 */

export const BUILTIN_WORDS: ProviderWords = {
  label: 'The offline motion draft',
  keyRefused: 'The offline motion draft needs no key.',
}

const BUILTIN = { id: 'builtin', name: 'Built in (offline)' }

/** Every whole second a clip may last (shared's CLIP_DURATION_MIN/MAX_SECONDS: 1 to 20). */
const ANY_LENGTH = Array.from({ length: 20 }, (_, i) => i + 1)

/** Frame sizes by resolution and aspect ratio: the short side is the resolution's lines. */
export function motionDraftSize(
  resolution: string,
  aspectRatio: VideoPresetName,
): { width: number; height: number } {
  const short = resolution === '1080p' ? 1080 : 720
  const long = Math.round((short * 16) / 9 / 2) * 2
  if (aspectRatio === '16:9') return { width: long, height: short }
  if (aspectRatio === '9:16') return { width: short, height: long }
  return { width: short, height: short }
}

/** The builtin models; the storyboard frame costs `COST_IMAGE`, as it always has. */
export function builtinModels(imageCredits: number): ModelDefinition[] {
  return [
    imageModel(BUILTIN, {
      model: 'storyboard',
      name: 'Storyboard frames (offline)',
      credits: imageCredits,
      offline: true,
    }),
    videoModel(BUILTIN, {
      model: 'motion-draft',
      name: 'Offline motion draft (camera move over the picture)',
      capabilities: {
        textToVideo: true,
        imageToVideo: true,
        lastFrame: false,
        audio: false,
        durations: ANY_LENGTH,
        aspectRatios: ['16:9', '9:16', '1:1'],
        resolutions: ['720p', '1080p'],
      },
      // A 5 s draft costs 1 credit: ffmpeg's time on the server, no provider bill.
      creditsPerSecond: 0.2,
      offline: true,
      input: {},
    }),
  ]
}

/** What the motion draft needs. */
export interface BuiltinMotionSettings {
  /** `FFMPEG_PATH`; unset: ffmpeg on PATH, else the optional static build. */
  ffmpegPath?: string | undefined
  /** A folder (absolute) for drafts between rendering and `saveTo`: `DATA_DIR/render-work`. */
  workDir: string
}

/**
 * The offline motion draft as a video provider. `generateClip` renders the MP4 into
 * `workDir` (reporting ffmpeg's progress) and `saveTo` moves it where it is asked.
 */
export function createBuiltinMotionProvider(settings: BuiltinMotionSettings): VideoProvider {
  return {
    id: 'builtin',
    name: 'Built in (offline)',
    async generateClip(request, { signal, onProgress }): Promise<GeneratedClip> {
      const { width, height } = motionDraftSize(request.resolution, request.aspectRatio)
      onProgress({ state: 'running', percent: 0 })
      let ffmpegPath: string
      try {
        ffmpegPath = findFfmpeg(settings.ffmpegPath ? { ffmpegPath: settings.ffmpegPath } : {}).path
      } catch (error) {
        throw new ProviderError(
          'unavailable',
          'The offline motion draft needs ffmpeg on the server (apt-get install ffmpeg, or set FFMPEG_PATH).',
          { cause: error },
        )
      }
      await mkdir(settings.workDir, { recursive: true })
      const draft = join(settings.workDir, `motion-draft-${randomUUID()}.mp4`)
      try {
        const image =
          request.startImage?.bytes ??
          (await renderStoryboardFrame(request.prompt, width, height, request.seed))
        await renderMotionDraft({
          ffmpegPath,
          image,
          width,
          height,
          durationSeconds: request.durationSeconds,
          seed: request.seed,
          workDir: settings.workDir,
          outputPath: draft,
          signal,
          onProgress: (fraction) => onProgress({ state: 'running', percent: fraction * 100 }),
        })
      } catch (error) {
        await rm(draft, { force: true })
        if (signal.aborted) throw abortError(BUILTIN_WORDS, signal)
        if (error instanceof RenderError && error.code === 'invalid-input') {
          throw new ProviderError(
            'refused',
            'The start image could not be read: pick another image.',
            {
              cause: error,
            },
          )
        }
        throw new ProviderError('malformed', 'The offline motion draft could not be made.', {
          cause: error,
        })
      }
      return {
        async saveTo(path) {
          try {
            await rename(draft, path)
          } catch {
            // Another file system (DATA_DIR on one disk, the asset folder on another).
            await copyFile(draft, path)
            await rm(draft, { force: true })
          }
        },
      }
    },
  }
}

/** The builtin offline models in the catalog: always on. */
export function builtinCatalog(
  env: Pick<Env, 'FFMPEG_PATH' | 'DATA_DIR' | 'BUILTIN_VIDEO_CONCURRENCY' | 'costs'>,
): CatalogProvider {
  return {
    ...BUILTIN,
    enabled: true,
    defaults: builtinModels(env.costs.image),
    acceptsFileModels: false,
    concurrency: env.BUILTIN_VIDEO_CONCURRENCY,
    video: () =>
      createBuiltinMotionProvider({
        ffmpegPath: env.FFMPEG_PATH,
        workDir: join(env.DATA_DIR, 'render-work'),
      }),
    image: () => createBuiltinImageProvider(),
  }
}
