import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { DB } from '@reelgraph/db'
import {
  extractPosterFrame,
  type MediaProbe,
  probeMedia,
  RenderError,
  transcodeToMp4,
} from '@reelgraph/media'
import {
  addClipTake,
  type ClipTake,
  clipResultData,
  createGraphNode,
  type DocumentGateway,
  type GenerateVideoOutput,
  type JobNodeState,
  type JobProgress,
  generateVideoInput,
  generateVideoOutput,
  getConnectionsMap,
  getNodesMap,
  modelCredits,
  type NodeData,
  readNode,
  readNodeData,
  RESULT_OFFSET_X,
  resultNodeIds,
  stampResultHash,
  updateNodeData,
  writeJobResult,
  writeJobState,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type * as Y from 'yjs'
import { z } from 'zod'
import type { Env } from '../../env.ts'
import { AppError } from '../../lib/app-error.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { readProjectImage, storeMediaAssets } from '../assets/asset-service.ts'
import { type JobInfo, type JobKind, placed, type WriteOutcome } from '../jobs/job-kind.ts'
import type { CatalogVideoModel, ModelCatalog } from './catalog/types.ts'
import { acquireProviderSlot, releaseProviderSlot } from './provider-slots.ts'

/**
 * A generated clip as a job kind (issue 22 items 2 and 3): the catalog's provider makes it
 * from the prompt and, where the model takes them, a start image and a last frame (sent as
 * bytes, never as a link into Reelgraph); the result is copied into the project's assets at
 * once (providers' URLs expire), streamed to disk, checked with ffmpeg (a video stream, the
 * asked length within a second, a size limit), given a poster frame, and placed as a Clip
 * node beside its Video Generator (a later clip of the same generator becomes that node's
 * newest take). Charged the model's price for the clip's length; refunded when the provider
 * fails or answers something that is not the clip asked for.
 */

/** A clip job's input: the call's body, its seed chosen and its length one the model makes. */
export const clipJobInput = generateVideoInput.extend({ seed: z.number().int() })
export type ClipJobInput = z.output<typeof clipJobInput>

/** What a clip job uses. */
export interface ClipJobDeps {
  db: Kysely<DB>
  env: Pick<Env, 'DATA_DIR' | 'FFMPEG_PATH' | 'AI_VIDEO_TIMEOUT_MS' | 'CLIP_MAX_BYTES'>
  assets: AssetStorage
  documents: DocumentGateway
  catalog: ModelCatalog
  logger: { warn(object: object, message: string): void }
}

/** How far off the asked length a clip may be, in ms (issue 22 item 2: within a second). */
export const CLIP_DURATION_TOLERANCE_MS = 1_000

/** The catalog's video model `modelId`. @throws AppError 400 when it is not listed. */
export function requireVideoModel(catalog: ModelCatalog, modelId: string): CatalogVideoModel {
  const found = catalog.video(modelId)
  if (!found) {
    throw new AppError(
      'BAD_REQUEST',
      'This video model is not available. Pick one from the list (GET /api/ai/models?kind=video).',
    )
  }
  return found
}

/**
 * Codecs ffmpeg reads as a "video" stream that are no clip: pictures (one frame) and text
 * (its `tty` demuxer draws any text file, an HTML error page included).
 */
const NOT_CLIP_CODECS = new Set(['ansi', 'png', 'mjpeg', 'webp', 'gif', 'bmp', 'tiff', 'jpegls'])
/** A clip shorter than this decodes to a picture or nothing, in ms. */
const MIN_CLIP_MS = 100

/** Why `probe` is not the clip asked for, in words a person can act on; null when it is. */
export function clipProblem(probe: MediaProbe, askedMs: number): string | null {
  if (!probe.video || NOT_CLIP_CODECS.has(probe.video.codec) || probe.decodedMs < MIN_CLIP_MS) {
    return 'The video service answered with something that is not a video.'
  }
  const length = Math.max(probe.durationMs, 0)
  if (probe.decodedMs < length - CLIP_DURATION_TOLERANCE_MS) {
    return 'The video service sent a clip that is cut off (it does not play to its end).'
  }
  if (Math.abs(probe.decodedMs - askedMs) > CLIP_DURATION_TOLERANCE_MS) {
    return `The video service sent a clip of ${(probe.decodedMs / 1000).toFixed(1)} s instead of ${askedMs / 1000} s.`
  }
  return null
}

/** The asset id of an `/api/assets/:id` URL. */
const assetIdOf = (url: string) => url.split('/').pop()!

/** Removes assets (rows, then bytes). Never throws. */
async function removeAssets(deps: Pick<ClipJobDeps, 'db' | 'assets' | 'logger'>, ids: string[]) {
  if (ids.length === 0) return
  try {
    const rows = await deps.db
      .deleteFrom('assets')
      .where('id', 'in', ids)
      .returning('storage_key')
      .execute()
    for (const row of rows) await deps.assets.delete(row.storage_key)
  } catch (err) {
    deps.logger.warn({ err }, 'the files of a discarded clip were not removed')
  }
}

/** What {@link makeClip} makes, and for whom. */
export interface MakeClipRequest {
  job: Pick<JobInfo, 'id' | 'userId'>
  input: Omit<ClipJobInput, 'nodeId'>
  signal: AbortSignal
  progress(progress: JobProgress): void
  /** Called once the provider delivered what was asked (a cancel then refunds nothing). */
  delivered(): Promise<void>
}

/**
 * Makes one clip with the catalog's provider and stores it as the project's assets: the
 * start image and last frame read from the project and sent as bytes, a slot of the provider
 * held (across processes) while it works, the result streamed to disk, read by ffmpeg (a
 * video of the asked length within a second, at most CLIP_MAX_BYTES), a poster frame.
 * @throws AppError 400 for a model that is not listed, 404 for an image gone from the
 *   project; ProviderError for the provider's failure or an answer that is not the clip
 *   asked for; the signal's reason when cancelled.
 * @see issue 22 item 2
 */
export async function makeClip(
  deps: ClipJobDeps,
  { job, input, signal, progress, delivered }: MakeClipRequest,
): Promise<GenerateVideoOutput> {
  const { model, provider, concurrency } = requireVideoModel(deps.catalog, input.modelId)
  const image = async (url: string | undefined, what: string) => {
    if (!url) return undefined
    const found = await readProjectImage(deps.db, deps.assets, input.projectId, url)
    if (!found) throw new AppError('NOT_FOUND', `${what} is gone from the project.`)
    return found
  }
  const startImage = await image(input.imageUrl, 'The start image')
  const lastFrame = await image(input.lastFrameUrl, 'The last frame')
  const workRoot = join(deps.env.DATA_DIR, 'clip-work')
  await mkdir(workRoot, { recursive: true })
  const work = await mkdtemp(join(workRoot, 'job-'))
  await acquireProviderSlot(deps.db, {
    jobId: job.id,
    provider: provider.id,
    limit: concurrency,
    signal,
  })
  try {
    const made = await provider.generateClip(
      {
        model,
        prompt: input.prompt,
        negativePrompt: input.negativePrompt,
        startImage,
        lastFrame,
        durationSeconds: input.durationSeconds,
        aspectRatio: input.aspectRatio,
        resolution: model.capabilities?.resolutions[0] ?? '720p',
        seed: input.seed,
        withAudio: input.withAudio,
      },
      {
        signal,
        onProgress: (report) =>
          progress({
            stage: 'clip',
            done: report.percent ?? 0,
            total: 100,
            queuePosition: report.state === 'queued' ? report.queuePosition : undefined,
          }),
      },
    )
    const clipPath = join(work, 'clip.mp4')
    // Stopped at CLIP_MAX_BYTES as the bytes arrive, the partial file deleted (issue 40 item 3).
    await made.saveTo(clipPath, signal, deps.env.CLIP_MAX_BYTES)
    const probe = await probeMedia(clipPath, {
      ffmpegPath: deps.env.FFMPEG_PATH,
      signal,
    }).catch((err: unknown) => {
      if (err instanceof RenderError && err.code === 'invalid-input') {
        throw new ProviderError(
          'malformed',
          'The video service answered with something that is not a video.',
          { cause: err },
        )
      }
      throw err
    })
    const problem = clipProblem(probe, input.durationSeconds * 1000)
    if (problem) throw new ProviderError('malformed', problem)
    // Stored as MP4 (H.264 or HEVC): what browsers play and the renderer reads. Anything
    // else (a ComfyUI workflow's WebM) is re-encoded by our own ffmpeg first.
    let stored = clipPath
    if (!/\bmp4\b/.test(probe.format) || !['h264', 'hevc'].includes(probe.video!.codec)) {
      stored = join(work, 'clip-h264.mp4')
      await transcodeToMp4(clipPath, stored, {
        ffmpegPath: deps.env.FFMPEG_PATH,
        signal,
        durationMs: probe.durationMs,
      })
    }
    const posterPath = join(work, 'poster.jpg')
    // Its first frame: decoded alone (a later one costs a decode of every frame before it).
    await extractPosterFrame(stored, posterPath, 0, {
      ffmpegPath: deps.env.FFMPEG_PATH,
      signal,
    })
    await delivered()
    // Both or neither, judged together against the owner's storage quota (issue 40 item 5).
    const [video, poster] = await storeMediaAssets(deps.db, deps.assets, {
      userId: job.userId,
      projectId: input.projectId,
      files: [
        { content: { path: stored }, mimeType: 'video/mp4' },
        { content: { path: posterPath }, mimeType: 'image/jpeg' },
      ],
    })
    return {
      videoUrl: video!.url,
      posterUrl: poster!.url,
      durationMs: probe.durationMs || probe.decodedMs,
      hasAudio: probe.audio !== null,
      modelId: model.id,
      seed: input.seed,
    }
  } finally {
    await releaseProviderSlot(deps.db, job.id)
    await rm(work, { recursive: true, force: true })
  }
}

/** Where {@link writeClip} writes a clip. */
export interface ClipPlacement {
  projectId: number
  /** The Video Generator that made it. */
  generatorId: string
  /** The id a new Clip node gets (from the job, so writing twice adds nothing). */
  clipId: string
  /** Where a new Clip node goes; default 350 to the right of the generator (spec §4). */
  position?: { x: number; y: number } | undefined
  /** The job's final state on the generator, in the same change; null for a chain's step. */
  state: JobNodeState | null
  /**
   * The hash of the generator's inputs the clip was made from (issue 42 item 4), stored on it;
   * null or absent: its inputs as the document has them when the clip is written (a chain's).
   */
  inputHash?: string | null | undefined
}

/**
 * Writes `take` as the generator's clip: the newest take of the Clip node it already feeds,
 * else a new Clip node beside it, connected; then removes the files of takes that fell off.
 * @returns how it was written (`source-missing` when the generator is gone).
 * @see issue 22 item 3
 */
export async function writeClip(
  deps: ClipJobDeps,
  where: ClipPlacement,
  take: ClipTake,
): Promise<WriteOutcome> {
  let dropped: ClipTake[] = []
  const outcome = await deps.documents.transact(where.projectId, (doc, origin) => {
    const existing = clipNodeOf(doc, where.generatorId)
    if (existing) {
      const { clipTakes } = readNodeData('clip', existing.data)
      const added = addClipTake(clipTakes, take)
      dropped = added.dropped
      doc.transact(() => {
        if (where.state) writeJobState(doc, where.generatorId, where.state, origin)
        updateNodeData(doc, existing.id, clipResultData(added.kept, take), origin)
        stampResultHash(doc, where.generatorId, where.inputHash ?? null, origin)
      }, origin)
      return 'written' as const
    }
    const at = Date.parse(take.createdAt)
    const outcome = writeJobResult(
      doc,
      where.generatorId,
      (source) => {
        const node = createGraphNode(
          'clip',
          where.position ?? { x: source.position.x + RESULT_OFFSET_X, y: source.position.y },
          [],
          Number.isFinite(at) ? at : Date.now(),
          where.clipId,
        )
        node.data = { ...node.data, ...clipResultData([take], take) }
        return { nodes: [node], connections: [{ source: source.id, target: node.id }] }
      },
      where.state,
      origin,
    )
    // Issue 42 item 4: what the clip was made from, so the generator knows when it is stale.
    if (placed(outcome)) stampResultHash(doc, where.generatorId, where.inputHash ?? null, origin)
    return outcome
  })
  await removeAssets(
    deps,
    dropped.flatMap((t) => [
      assetIdOf(t.videoUrl),
      ...(t.posterUrl ? [assetIdOf(t.posterUrl)] : []),
    ]),
  )
  return outcome
}

/** The take a clip `result` makes, asked with `prompt`, at `createdAt`. */
export function clipTakeOf(result: GenerateVideoOutput, prompt: string, createdAt: Date): ClipTake {
  return {
    videoUrl: result.videoUrl,
    posterUrl: result.posterUrl,
    durationMs: result.durationMs,
    hasAudio: result.hasAudio,
    modelId: result.modelId,
    prompt,
    seed: result.seed,
    createdAt: createdAt.toISOString(),
  }
}

/** Removes a clip's video and poster assets. Never throws. */
export function discardClip(deps: ClipJobDeps, result: GenerateVideoOutput): Promise<void> {
  return removeAssets(deps, [assetIdOf(result.videoUrl), assetIdOf(result.posterUrl)])
}

/** The clip kind. */
export function clipJob(deps: ClipJobDeps): JobKind<ClipJobInput, GenerateVideoOutput> {
  return {
    name: 'clip',
    input: clipJobInput,
    result: generateVideoOutput,
    ledger: { type: 'video_generation', action: 'Clip generation' },
    cost: (input) =>
      modelCredits(requireVideoModel(deps.catalog, input.modelId).model, input.durationSeconds),
    timeoutMs: () => deps.env.AI_VIDEO_TIMEOUT_MS,
    stages: () => [{ stage: 'clip', weight: 1 }],
    firstProgress: () => ({ stage: 'clip', done: 0, total: 100 }),
    // The provider delivered what was asked: from then a cancel refunds nothing.
    produce: (input, { job, signal, progress, paid }) =>
      makeClip(deps, { job, input, signal, progress, delivered: paid }),
    write: (result, { job, input, state }) =>
      writeClip(
        deps,
        {
          projectId: job.projectId,
          generatorId: job.nodeId,
          clipId: resultNodeIds(job.id, job.createdAt.getTime(), 'clip', 1)[0]!,
          state,
          inputHash: job.inputHash ?? null,
        },
        clipTakeOf(result, input.prompt, state.updatedAt),
      ),
    discard: (result) => discardClip(deps, result),
  }
}

/** The Clip node a Video Generator feeds (the newest when several), or undefined. */
function clipNodeOf(doc: Y.Doc, generatorId: string): { id: string; data: NodeData } | undefined {
  const nodes = getNodesMap(doc)
  const clips: { id: string; data: NodeData }[] = []
  for (const c of getConnectionsMap(doc).values()) {
    if (c.source !== generatorId) continue
    const node = readNode(c.target, nodes.get(c.target))
    if (node?.type === 'clip') clips.push({ id: node.id, data: node.data })
  }
  const stamp = (id: string) => Number(id.split('-')[1] ?? 0)
  clips.sort((a, b) => stamp(b.id) - stamp(a.id) || (a.id < b.id ? -1 : 1))
  return clips[0]
}
