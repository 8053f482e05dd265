import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { DB } from '@reelgraph/db'
import {
  createSpeechProvider,
  type Cue,
  cuesFromWords,
  estimateWordTimings,
  pruneRenderCache,
  RenderError,
  renderVideo,
  type RenderProgress,
  type RenderScene,
  shiftCues,
  SpeechError,
  type SpeechSettings,
  toSrt,
  toVtt,
} from '@reelgraph/media'
import {
  type JobProgress,
  providerOfModelId,
  type VideoRenderResult,
  MUSIC_TRACKS,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { Env } from '../../env.ts'
import { AppError } from '../../lib/app-error.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import {
  copyProjectAssetToFile,
  readProjectAssetByUrl,
  storeMediaAssets,
} from '../assets/asset-service.ts'
import { isSpoken, narrate, pruneNarrationCache } from './narration-cache.ts'
import { timelineRender } from './render-timeline.ts'
import type { VideoJobInput } from './video-job-input.ts'

/**
 * A render's work (issue 13 item 4), shared by the render job and Make video: narrate every
 * scene ("Voices k/N"), render the video with media's renderer ("Rendering scenes k/N",
 * "Mixing the audio", "Joining"), store the MP4, SRT and VTT as assets of the project. A
 * scene with a clip (issue 22 item 4) renders from the clip, with the Video node's clip
 * settings, and needs no image.
 */

/** What a render uses. */
export interface RenderDeps {
  db: Kysely<DB>
  env: Pick<
    Env,
    | 'DATA_DIR'
    | 'FFMPEG_PATH'
    | 'VIDEO_RENDER_TIMEOUT_MS'
    | 'RENDER_CACHE_MAX_BYTES'
    | 'NARRATION_CACHE_MAX_BYTES'
    | 'SPEECH_PROVIDER'
    | 'OPENAI_API_KEY'
    | 'OPENAI_BASE_URL'
    | 'ELEVENLABS_API_KEY'
  >
  assets: AssetStorage
  logger: { warn(object: object, message: string): void }
}

/** The stages of a render, with their shares of its progress bar. */
export const RENDER_STAGES = [
  { stage: 'voices', weight: 20 },
  { stage: 'rendering', weight: 70 },
  { stage: 'audio', weight: 5 },
  { stage: 'joining', weight: 5 },
] as const

/** The folders of a render worker under `DATA_DIR`: temporary work and the segment cache. */
export function renderDirs(env: Pick<Env, 'DATA_DIR'>): { work: string; cache: string } {
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

/**
 * The renderer's progress as the job's (issue 21 item 5): its segments become scenes (a
 * transition's share counted with its scenes), audio and joining stay as they are.
 */
export function renderProgressOf(progress: RenderProgress, sceneCount: number): JobProgress {
  if (progress.stage === 'segments') {
    return {
      stage: 'rendering',
      done: (progress.done / progress.total) * sceneCount,
      total: sceneCount,
    }
  }
  return { stage: progress.stage, done: progress.done, total: progress.total }
}

/** The speech provider `env` chooses (SPEECH_PROVIDER and its keys). */
export function speechSettingsOf(env: RenderDeps['env']): SpeechSettings {
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
 * A scene's picture as a file in the work folder (on disk, not in memory: the render reads
 * them one scene at a time): its clip when it has one (issue 22 item 4), streamed from
 * storage, else its image.
 * @throws AppError NOT_FOUND when the clip or image is gone (not an asset of the project);
 *   ProviderError `malformed` when the clip's asset is no MP4.
 */
async function scenePicture(
  { db, assets }: Pick<RenderDeps, 'db' | 'assets'>,
  {
    projectId,
    scene,
    work,
    i,
  }: { projectId: number; scene: VideoJobInput['scenes'][number]; work: string; i: number },
): Promise<Pick<RenderScene, 'imagePath' | 'clip'>> {
  if (scene.clip) {
    const path = join(work, `scene-${i}.mp4`)
    const copied = await copyProjectAssetToFile(db, assets, {
      projectId,
      url: scene.clip.url,
      path,
    })
    if (!copied) {
      throw new AppError('NOT_FOUND', `The clip of scene ${scene.sceneNumber} is gone.`)
    }
    if (copied.mimeType !== 'video/mp4') {
      throw new ProviderError(
        'malformed',
        `The clip of scene ${scene.sceneNumber} is not an MP4 video.`,
      )
    }
    // The offline motion draft is our own code's file; the bundled ffmpeg may read it.
    const ownMade = providerOfModelId(scene.clip.modelId) === 'builtin'
    return { clip: { path, hasAudio: scene.clip.hasAudio, ownMade } }
  }
  const image = scene.imageUrl
    ? await readProjectAssetByUrl(db, assets, projectId, scene.imageUrl)
    : null
  if (!image) {
    throw new AppError('NOT_FOUND', `The image of scene ${scene.sceneNumber} is gone.`)
  }
  const imagePath = join(work, `scene-${i}.img`)
  await writeFile(imagePath, image)
  return { imagePath }
}

/** Options of {@link renderScenes}. */
export interface RenderScenesRequest {
  /** Whose render it is: its assets are stored as theirs. */
  userId: number
  input: VideoJobInput
  signal: AbortSignal
  progress(progress: JobProgress): void
}

/**
 * Renders the video of `input`, reporting typed progress: each scene's narration from the
 * narration cache or spoken and cached (issue 21 item 4), then the segments, the audio and
 * the join. The work folder is removed whatever happens (success, failure, cancel through
 * `signal`), and the render and narration caches are pruned to their budgets.
 * @throws ProviderError for a narration or render failure (or a clip that is no MP4);
 *   AppError NOT_FOUND when a scene's clip or image is gone; the signal's reason when cancelled.
 */
export async function renderScenes(
  deps: RenderDeps,
  { userId, input, signal, progress }: RenderScenesRequest,
): Promise<VideoRenderResult> {
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
    const narrationMs: number[] = []
    let voicesReused = 0
    let voicesTotal = 0
    for (const [i, scene] of input.scenes.entries()) {
      progress({ stage: 'voices', done: i, total: count })
      const picture = await scenePicture(deps, { projectId: input.projectId, scene, work, i })
      const narration = await narrate(deps, {
        projectId: input.projectId,
        userId,
        speech,
        request: { text: scene.narration, voice: input.voice || undefined },
        signal,
      }).catch((err: unknown) => {
        throw asProviderError(err, input.voice)
      })
      if (isSpoken(scene.narration)) {
        voicesTotal += 1
        if (narration.reused) voicesReused += 1
      }
      const cues = narration.words.length
        ? cuesFromWords(narration.words, { endLimitMs: narration.durationMs })
        : []
      sceneCues.push(cues)
      narrationMs.push(narration.durationMs)
      // Caption styles light words up: the provider's word times, else the documented estimate.
      const words =
        narration.words.length > 0 || narration.durationMs <= 0
          ? narration.words
          : estimateWordTimings(scene.narration, { startMs: 0, endMs: narration.durationMs })
      let narrationWav: string | undefined
      if (narration.durationMs > 0) {
        narrationWav = join(work, `scene-${i}.wav`)
        await writeFile(narrationWav, narration.wav)
      }
      scenes.push({ ...picture, ...(narrationWav ? { narrationWav } : {}), cues, words })
    }
    // Issue 24: what the Video node's timeline says (null: no timeline, today's film).
    const timeline = await timelineRender(deps, { input, narrationMs, work })
    progress({ stage: 'rendering', done: 0, total: count })
    const rendered = await renderVideo({
      scenes,
      preset: input.preset,
      subtitles: input.subtitles,
      music: timeline ? timeline.music : input.music ? MUSIC_TRACKS[0] : null,
      ...(timeline ? { film: timeline.film, captions: timeline.captions } : {}),
      clipFit: input.clipFit,
      clipShorter: input.clipShorter,
      clipSound: input.clipSound,
      cacheDir: dirs.cache,
      workDir: work,
      ffmpegPath: deps.env.FFMPEG_PATH,
      outputPath: join(work, 'video.mp4'),
      signal,
      onProgress: (p) => progress(renderProgressOf(p, count)),
    }).catch((err: unknown) => {
      throw signal.aborted || err instanceof RangeError ? err : asProviderError(err, input.voice)
    })
    signal.throwIfAborted()

    // The SRT and VTT stay plain: each narrated piece's cues where its narration plays.
    const cues = rendered.timeline.flatMap((t) =>
      t.narrationStartMs === null || t.scene === null
        ? []
        : shiftCues(sceneCues[t.scene] ?? [], t.narrationStartMs),
    )
    const text = (s: string) => new TextEncoder().encode(s)
    // All three or none, judged together against the owner's storage quota (issue 40 item 5).
    const [video, srt, vtt] = await storeMediaAssets(db, assets, {
      userId,
      projectId: input.projectId,
      files: [
        { content: { path: rendered.mp4Path }, mimeType: 'video/mp4' },
        { content: text(toSrt(cues)), mimeType: 'application/x-subrip' },
        { content: text(toVtt(cues)), mimeType: 'text/vtt' },
      ],
    })
    return {
      mp4Url: video!.url,
      srtUrl: srt!.url,
      vttUrl: vtt!.url,
      durationMs: rendered.durationMs,
      inputHash: input.inputHash,
      preset: input.preset,
      voicesReused,
      voicesTotal,
    }
  } finally {
    await rm(work, { recursive: true, force: true })
    await pruneRenderCache(dirs.cache, deps.env.RENDER_CACHE_MAX_BYTES).catch((err: unknown) =>
      deps.logger.warn({ err }, 'the render cache could not be pruned'),
    )
    await pruneNarrationCache(deps, { maxBytes: deps.env.NARRATION_CACHE_MAX_BYTES }).catch(
      (err: unknown) => deps.logger.warn({ err }, 'the narration cache could not be pruned'),
    )
  }
}
