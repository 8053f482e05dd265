import type {
  GenerateImageRequest,
  GenerateScriptInput,
  ImageModel,
  Scene,
} from '@reelgraph/shared'

/**
 * The AI providers behind generation (ARCHITECTURE "AI providers"; issue 4 item 2).
 * Implementations: builtin (offline), openai, civitai, automatic1111.
 */

/** Who answers: shown to the user by `GET /api/ai/providers`. */
export interface ProviderInfo {
  /** `builtin` | `openai` | `civitai` | `automatic1111`. */
  id: string
  /** A human name, e.g. "OpenAI gpt-4o-mini" or "Offline drafts (built in)". */
  name: string
  /** True for the builtin provider: the UI says plainly these are offline drafts. */
  offline: boolean
}

/** Writes scripts and splits them into scenes. */
export interface TextProvider {
  readonly info: ProviderInfo
  /**
   * A video script for the topic in the given style, tone and format.
   * @throws ProviderError on timeout, an upstream error or a malformed answer.
   */
  generateScript(input: GenerateScriptInput, signal: AbortSignal): Promise<string>
  /**
   * Exactly `sceneCount` scenes covering the script, each with narration and visuals
   * (`seed`, when given, picks the builtin draft; issue 14 item 10).
   * @throws ProviderError on timeout, an upstream error or a malformed answer.
   */
  generateScenes(
    input: { script: string; sceneCount: number; seed?: number | undefined },
    signal: AbortSignal,
  ): Promise<Scene[]>
}

/** A generated image's bytes. */
export interface GeneratedImage {
  bytes: Uint8Array
  /** e.g. `image/png`, `image/jpeg`. */
  mimeType: string
}

/**
 * Told how far a generation is, 0-100, by providers that report it (AUTOMATIC1111's
 * `/sdapi/v1/progress`); the job shows it on its node (issue 12 item 3).
 */
export type ProgressListener = (percent: number) => void

/** Lists models and makes images. */
export interface ImageProvider {
  readonly info: ProviderInfo
  /**
   * Up to `limit` models, each with at least one version (spec §3 Model).
   * @throws ProviderError on timeout, an upstream error or a malformed answer.
   */
  listModels(limit: number, signal: AbortSignal): Promise<ImageModel[]>
  /**
   * One image of exactly the asked size. `seed` is always set (the caller picks a random
   * one when the user left it empty). Providers that know how far they are call
   * `onProgress`; the others never do.
   * @throws ProviderError on timeout, an upstream error or a malformed answer.
   */
  generateImage(
    request: GenerateImageRequest & { seed: number },
    signal: AbortSignal,
    onProgress?: ProgressListener,
  ): Promise<GeneratedImage>
}

/** The active providers. */
export interface AiProviders {
  text: TextProvider
  image: ImageProvider
}

export { ProviderError, type ProviderErrorKind } from '../../../lib/provider-error.ts'
