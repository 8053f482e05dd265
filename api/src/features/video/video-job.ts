import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  createSpeechProvider,
  type Cue,
  cuesFromWords,
  MUSIC_TRACKS,
  pruneRenderCache,
  RenderError,
  type RenderProgress,
  renderVideo,
  type RenderScene,
  shiftCues,
  SpeechError,
  type SpeechSettings,
  toSrt,
  toVtt,
} from '@reelgraph/media'
import type { VideoPresetName, VideoScene } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { readProjectAssetByUrl, storeMediaAsset } from '../assets/asset-service.ts'
import { ProviderError } from '../generation/providers/types.ts'

/**
 * The render job's work (issue 13 item 4): narrate every scene ("voices k/N"), render the
 * video with media's renderer ("scenes k/N", "joining"), store the MP4, SRT and VTT as
 * assets of the project. Runs inside the job runner, which owns the row, cancel and refunds.
 */

/** A render job's input: what `POST /api/video/render` collected from the document. */
export interface VideoJobInput {
  projectId: number
  nodeId: string
  preset: VideoPresetName
  voice: string
  subtitles: boolean
  music: boolean
  scenes: VideoScene[]
  inputHash: string
}

/** A render job's result, written onto its Video node (shared's `VIDEO_DATA_KEYS`). */
export interface VideoJobResult {
  mp4Url: string
  srtUrl: string
  vttUrl: string
  durationMs: number
  inputHash: string
  /** The preset it was rendered in (kept with the take). */
  preset: VideoPresetName
}

/** Where a render stands: a stage for people and 0-100 over the whole job. */
export interface VideoJobProgress {
  stage: string
  percent: number
}

/** Share of the progress bar the narration takes; the render the rest. */
const VOICES_SHARE_PERCENT = 20

/** The folders of a render worker under `DATA_DIR`: temporary work and the segment cache. */
export function renderDirs(env: Pick<AppDeps['env'], 'DATA_DIR'>): { work: string; cache: string } {
  return { work: join(env.DATA_DIR, 'render-work'), cache: join(env.DATA_DIR, 'render-cache') }
}

/**
 * Removes the work folders of renders whose process died (killed mid-render, the machine
 * restarted): any `job-*` folder older than the longest render (`timeoutMs`) can belong to
 * no live render, in this process or another sharing DATA_DIR. Never throws.
 */
export async function removeAbandonedWork(workDir: string, timeoutMs: number): Promise<void> {
  const names = await readdir(workDir).catch(() => [] as string[])
  for (const name of names) {
    if (!name.startsWith('job-')) continue
    const path = join(workDir, name)
    const info = await stat(path).catch(() => null)
    if (info && Date.now() - info.mtimeMs > timeoutMs) {
      await rm(path, { recursive: true, force: true }).catch(() => {})
    }
  }
}

/** "scenes k/N" from the renderer's "segments k/M" (crossfades are segments of their own). */
function stageOf(progress: RenderProgress, sceneCount: number): string {
  if (progress.stage === 'segments') {
    const match = /(\d+)\/(\d+)/.exec(progress.label)
    if (match) {
      const done = Number(match[1])
      const total = Math.max(1, Number(match[2]))
      const scene = Math.min(sceneCount, Math.max(1, Math.ceil((done / total) * sceneCount)))
      return `Rendering scenes ${scene}/${sceneCount}`
    }
    return 'Rendering scenes'
  }
  if (progress.stage === 'audio') return 'Mixing the audio'
  if (progress.stage === 'joining' || progress.stage === 'done') return 'Joining'
  return 'Preparing'
}

/** The speech provider `env` chooses (SPEECH_PROVIDER and its keys). */
export function speechSettingsOf(env: AppDeps['env']): SpeechSettings {
  return {
    provider: env.SPEECH_PROVIDER,
    openaiApiKey: env.OPENAI_API_KEY,
    openaiBaseUrl: env.OPENAI_BASE_URL,
    elevenLabsApiKey: env.ELEVENLABS_API_KEY,
  }
}

/** A speech or render failure as the runner's ProviderError (final unless retryable). */
function asProviderError(err: unknown, voice: string): unknown {
  if (err instanceof RangeError) {
    // The text was checked at submit: an unknown voice is what is left.
    return new ProviderError('malformed', `The narration voice "${voice}" does not exist.`, {
      cause: err,
    })
  }
  if (err instanceof SpeechError) {
    return new ProviderError(err.retryable ? 'upstream' : 'malformed', err.message, {
      cause: err,
      status: err.retryable ? err.status : undefined,
    })
  }
  if (err instanceof RenderError) {
    return new ProviderError('malformed', 'The video could not be rendered.', { cause: err })
  }
  return err
}

/**
 * Renders the video of `input` for `userId`, reporting progress; the work folder is removed
 * whatever happens (success, failure, cancel through `signal`), and the render cache is
 * pruned to `RENDER_CACHE_MAX_BYTES`.
 * @throws ProviderError for a narration or render failure; AppError NOT_FOUND when a scene's
 *   image is gone; the signal's reason when cancelled.
 */
export async function produceVideo(
  deps: Pick<AppDeps, 'db' | 'env' | 'assets' | 'logger'>,
  userId: number,
  input: VideoJobInput,
  signal: AbortSignal,
  onProgress: (progress: VideoJobProgress) => void,
): Promise<VideoJobResult> {
  const { db, assets } = deps
  const dirs = renderDirs(deps.env)
  await mkdir(dirs.work, { recursive: true })
  await mkdir(dirs.cache, { recursive: true })
  await removeAbandonedWork(dirs.work, deps.env.VIDEO_RENDER_TIMEOUT_MS)
  const work = await mkdtemp(join(dirs.work, 'job-'))
  try {
    const count = input.scenes.length
    const speech = createSpeechProvider(speechSettingsOf(deps.env))
    const scenes: RenderScene[] = []
    const sceneCues: Cue[][] = []
    for (const [i, scene] of input.scenes.entries()) {
      onProgress({
        stage: `Voices ${i + 1}/${count}`,
        percent: Math.round((i / count) * VOICES_SHARE_PERCENT),
      })
      const image = scene.imageUrl
        ? await readProjectAssetByUrl(db, assets, input.projectId, scene.imageUrl)
        : null
      if (!image) {
        throw new AppError('NOT_FOUND', `The image of scene ${scene.sceneNumber} is gone.`)
      }
      const narration = await speech
        .synthesize({ text: scene.narration, voice: input.voice || undefined }, signal)
        .catch((err: unknown) => {
          throw asProviderError(err, input.voice)
        })
      const cues = narration.words.length
        ? cuesFromWords(narration.words, { endLimitMs: narration.durationMs })
        : []
      sceneCues.push(cues)
      // On disk, not in memory: the render reads them one scene at a time.
      const imagePath = join(work, `scene-${i}.img`)
      await writeFile(imagePath, image)
      let narrationWav: string | undefined
      if (narration.durationMs > 0) {
        narrationWav = join(work, `scene-${i}.wav`)
        await writeFile(narrationWav, narration.wav)
      }
      scenes.push({ imagePath, ...(narrationWav ? { narrationWav } : {}), cues })
    }
    onProgress({ stage: 'Rendering scenes 1/' + count, percent: VOICES_SHARE_PERCENT })
    const rendered = await renderVideo({
      scenes,
      preset: input.preset,
      subtitles: input.subtitles,
      music: input.music ? MUSIC_TRACKS[0] : null,
      cacheDir: dirs.cache,
      workDir: work,
      ffmpegPath: deps.env.FFMPEG_PATH,
      outputPath: join(work, 'video.mp4'),
      signal,
      onProgress: (p) =>
        onProgress({
          stage: stageOf(p, count),
          percent: Math.round(
            VOICES_SHARE_PERCENT + (p.percent * (100 - VOICES_SHARE_PERCENT)) / 100,
          ),
        }),
    }).catch((err: unknown) => {
      throw signal.aborted || err instanceof RangeError ? err : asProviderError(err, input.voice)
    })
    signal.throwIfAborted()

    const cues = rendered.timeline.flatMap((t) =>
      t.narrationStartMs === null ? [] : shiftCues(sceneCues[t.index] ?? [], t.narrationStartMs),
    )
    const store = (
      content: Uint8Array | { path: string },
      mimeType: 'video/mp4' | 'application/x-subrip' | 'text/vtt',
    ) => storeMediaAsset(db, assets, { userId, projectId: input.projectId, content, mimeType })
    const text = (s: string) => new TextEncoder().encode(s)
    const video = await store({ path: rendered.mp4Path }, 'video/mp4')
    const srt = await store(text(toSrt(cues)), 'application/x-subrip')
    const vtt = await store(text(toVtt(cues)), 'text/vtt')
    return {
      mp4Url: video.url,
      srtUrl: srt.url,
      vttUrl: vtt.url,
      durationMs: rendered.durationMs,
      inputHash: input.inputHash,
      preset: input.preset,
    }
  } finally {
    await rm(work, { recursive: true, force: true })
    await pruneRenderCache(dirs.cache, deps.env.RENDER_CACHE_MAX_BYTES).catch((err: unknown) =>
      deps.logger.warn({ err }, 'the render cache could not be pruned'),
    )
  }
}

/**
 * Removes the stored files of renders nothing points at any more: a render whose job was
 * cancelled while they were being stored (the cancel won), or takes that fell off a Video
 * node's takes (shared's `MAX_VIDEO_TAKES`). Never throws: a file left behind is logged.
 */
export async function discardVideoFiles(
  deps: Pick<AppDeps, 'db' | 'assets' | 'logger'>,
  renders: readonly Pick<VideoJobResult, 'mp4Url' | 'srtUrl' | 'vttUrl'>[],
): Promise<void> {
  const ids = renders.flatMap((r) =>
    [r.mp4Url, r.srtUrl, r.vttUrl].map((url) => url.split('/').pop()!),
  )
  if (ids.length === 0) return
  try {
    const rows = await deps.db
      .deleteFrom('assets')
      .where('id', 'in', ids)
      .returning('storage_key')
      .execute()
    for (const row of rows) await deps.assets.delete(row.storage_key)
  } catch (err) {
    deps.logger.warn({ err }, 'the files of a discarded render were not removed')
  }
}
