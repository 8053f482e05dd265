import type { CatalogModel, ModelKind, VideoPresetName } from '@reelgraph/shared'
import type { ImageProvider } from '../providers/types.ts'

/**
 * The model catalog and the video providers behind it (issue 22 items 1 and 2; the catalog's
 * ADR): what the clip job kind, the image job kind and the routes use. Every configured
 * provider contributes its models at once; each entry knows which provider makes it and how a
 * Reelgraph request becomes that model's own input (the mapping stays on the server).
 */

/** An image's bytes, as a provider receives a start image or a last frame (never a link). */
export interface ImageBytes {
  bytes: Uint8Array
  /** `image/png`, `image/jpeg`, `image/webp`. */
  mimeType: string
}

/** One clip to make, in Reelgraph's words; the provider maps it to its model's input. */
export interface ClipRequest {
  /** The catalog entry (its `id` is `<provider>:<the provider's model id>`). */
  model: CatalogModel
  prompt: string
  negativePrompt: string
  /** The first frame, for an image-to-video model. */
  startImage?: ImageBytes | undefined
  /** The last frame, where the model takes one. */
  lastFrame?: ImageBytes | undefined
  /** A duration the model makes (the catalog's `nearestDuration`), in seconds. */
  durationSeconds: number
  aspectRatio: VideoPresetName
  /** One of the model's resolutions (its first unless asked otherwise). */
  resolution: string
  seed: number
  /** Ask for the model's own sound, where it makes one. */
  withAudio: boolean
}

/** How a clip is coming along at the provider. */
export interface ClipProgressReport {
  state: 'queued' | 'running'
  /** Where it waits (1 = next), when the provider says (fal's `queue_position`). */
  queuePosition?: number | undefined
  /** 0-100, when the provider says. */
  percent?: number | undefined
}

/** A finished clip at the provider, not yet fetched. */
export interface GeneratedClip {
  /**
   * Streams the clip into a new file at `path` (absolute), never whole in memory, stopping at
   * `maxBytes` (default DEFAULT_CLIP_MAX_BYTES; the job passes `CLIP_MAX_BYTES`) as the bytes
   * arrive, the partial file deleted. Called once: a provider's result URL may answer only
   * once, or expire (Replicate's after an hour).
   * @throws ProviderError when the download fails (`transient` for 429, 5xx, network;
   *   `refused` past `maxBytes` or at an address the outbound guard refuses; issue 40).
   */
  saveTo(path: string, signal: AbortSignal, maxBytes?: number): Promise<void>
}

/** A provider that makes clips. */
export interface VideoProvider {
  /** `fal`, `replicate`, `gemini`, `comfyui`, `builtin`. */
  readonly id: string
  /** Its name for people ("fal.ai"). */
  readonly name: string
  /**
   * Makes one clip: submits it, follows it (reporting to `onProgress`), and answers where to
   * fetch it. When `signal` aborts (a cancel, a timeout) the provider is told to cancel
   * (fal's `PUT cancel_url`, Replicate's `urls.cancel`, ComfyUI's `/interrupt`...).
   * @throws ProviderError in words a person can act on ("The model refused this prompt for
   *   safety reasons", "The fal key was refused"); `transient` for 429 and 5xx that outlast
   *   the provider's own retries (which honour `Retry-After`).
   */
  generateClip(
    request: ClipRequest,
    options: { signal: AbortSignal; onProgress(report: ClipProgressReport): void },
  ): Promise<GeneratedClip>
}

/** A model of the catalog with the provider that makes it. */
export interface CatalogVideoModel {
  model: CatalogModel
  provider: VideoProvider
  /** Clips of this provider made at once, over every worker process. */
  concurrency: number
}
export interface CatalogImageModel {
  model: CatalogModel
  provider: ImageProvider
}

/** Every configured provider's models, image and video, with operator overrides applied. */
export interface ModelCatalog {
  /** The models, of one kind or all, grouped by provider in a stable order. */
  list(kind?: ModelKind): CatalogModel[]
  /** The video model `modelId` and its provider; undefined when it is not listed. */
  video(modelId: string): CatalogVideoModel | undefined
  /** The image model `modelId` and its provider; undefined when it is not listed. */
  image(modelId: string): CatalogImageModel | undefined
}
