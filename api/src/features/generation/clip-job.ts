import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { DB } from '@reelgraph/db'
import { extractPosterFrame, type MediaProbe, probeMedia, RenderError } from '@reelgraph/media'
import {
  addClipTake,
  type ClipTake,
  clipResultData,
  createGraphNode,
  type DocumentGateway,
  type GenerateVideoOutput,
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
import { readProjectImage, storeMediaAsset } from '../assets/asset-service.ts'
import type { JobKind } from '../jobs/job-kind.ts'
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
    stages: [{ stage: 'clip', weight: 1 }],
    firstProgress: () => ({ stage: 'clip', done: 0, total: 100 }),

    async produce(input, { job, signal, progress, paid }) {
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
        await made.saveTo(clipPath, signal)
        const { size } = await stat(clipPath)
        if (size > deps.env.CLIP_MAX_BYTES) {
          throw new ProviderError(
            'malformed',
            `The video service sent a clip of ${Math.ceil(size / 1024 ** 2)} MB, more than the ${Math.floor(deps.env.CLIP_MAX_BYTES / 1024 ** 2)} MB allowed.`,
          )
        }
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
        const posterPath = join(work, 'poster.jpg')
        await extractPosterFrame(clipPath, posterPath, Math.min(500, probe.decodedMs / 2), {
          ffmpegPath: deps.env.FFMPEG_PATH,
          signal,
        })
        // The provider delivered what was asked: from here a cancel refunds nothing.
        await paid()
        const store = (path: string, mimeType: 'video/mp4' | 'image/jpeg') =>
          storeMediaAsset(deps.db, deps.assets, {
            userId: job.userId,
            projectId: input.projectId,
            content: { path },
            mimeType,
          })
        const video = await store(clipPath, 'video/mp4')
        const poster = await store(posterPath, 'image/jpeg')
        return {
          videoUrl: video.url,
          posterUrl: poster.url,
          durationMs: probe.decodedMs,
          hasAudio: probe.audio !== null,
          modelId: model.id,
          seed: input.seed,
        }
      } finally {
        await releaseProviderSlot(deps.db, job.id)
        await rm(work, { recursive: true, force: true })
      }
    },

    async write(result, { job, input, state }) {
      const take: ClipTake = {
        videoUrl: result.videoUrl,
        posterUrl: result.posterUrl,
        durationMs: result.durationMs,
        hasAudio: result.hasAudio,
        modelId: result.modelId,
        prompt: input.prompt,
        seed: result.seed,
        createdAt: state.updatedAt.toISOString(),
      }
      const at = job.createdAt.getTime()
      let dropped: ClipTake[] = []
      const outcome = await deps.documents.transact(job.projectId, (doc, origin) => {
        const existing = clipNodeOf(doc, job.nodeId)
        if (existing) {
          // The generator's clip: this one becomes its newest take, for everyone.
          const { clipTakes } = readNodeData('clip', existing.data)
          const added = addClipTake(clipTakes, take)
          dropped = added.dropped
          doc.transact(() => {
            writeJobState(doc, job.nodeId, state, origin)
            updateNodeData(doc, existing.id, clipResultData(added.kept, take), origin)
          }, origin)
          return 'written' as const
        }
        const ids = resultNodeIds(job.id, at, 'clip', 1)
        return writeJobResult(
          doc,
          job.nodeId,
          (source) => {
            const node = createGraphNode(
              'clip',
              { x: source.position.x + RESULT_OFFSET_X, y: source.position.y },
              [],
              at,
              ids[0],
            )
            node.data = { ...node.data, ...clipResultData([take], take) }
            return { nodes: [node], connections: [{ source: source.id, target: node.id }] }
          },
          state,
          origin,
        )
      })
      await removeAssets(
        deps,
        dropped.flatMap((t) => [
          assetIdOf(t.videoUrl),
          ...(t.posterUrl ? [assetIdOf(t.posterUrl)] : []),
        ]),
      )
      return outcome
    },

    discard: (result) =>
      removeAssets(deps, [assetIdOf(result.videoUrl), assetIdOf(result.posterUrl)]),
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
