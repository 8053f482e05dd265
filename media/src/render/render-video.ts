import { createHash, randomUUID } from 'node:crypto'
import {
  captionEvents,
  type ClipFit,
  type ClipShorter,
  type ClipSound,
  type TransitionType,
  type MusicTrack,
  type WordTiming,
} from '@reelgraph/shared'
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  NARRATION_LEAD_IN_MS,
  LOUDNESS_TARGET_LUFS,
  LOUDNESS_TOLERANCE_LU,
  RENDER_CONCURRENCY,
  SILENCE_LUFS,
  VIDEO_PRESETS,
  type PresetName,
  type VideoPreset,
} from './config.ts'
import {
  buildAudioEncodeArgs,
  buildConcatList,
  buildJoinArgs,
  buildLevelPassArgs,
  buildMixPassArgs,
  type ClipSoundTrack,
  type MusicMix,
  parseLoudnessMeasurement,
  timelineSamples,
} from './audio-graph.ts'
import { absolutePath } from './absolute-path.ts'
import { touchCacheEntry } from './cache-prune.ts'
import {
  captionFrames,
  captionsAss,
  cardAss,
  type AssCaption,
  type CaptionLook,
  type CardLook,
} from './ass.ts'
import { captionFontsDir, fontsVersion } from './fonts.ts'
import {
  segmentCacheKey,
  type SegmentKeyCue,
  type SegmentKeyInput,
  type SegmentKeyPart,
} from './cache-key.ts'
import { RenderError } from './errors.ts'
import {
  detectCapabilities,
  findFfmpeg,
  runFfmpeg,
  staticFfmpegPath,
  type RunFfmpegOptions,
} from './ffmpeg.ts'
import {
  buildSegmentFilterGraph,
  type FfmpegCapabilities,
  type SegmentRenderSpec,
  type SegmentPart,
} from './filter-graph.ts'
import { refuseReferenceFile } from '../input/external-input.ts'
import { clipTiming, probeClip, sha256File, type ClipProbe, type ClipTiming } from './clips.ts'
import { kenBurnsMotion, type KenBurnsMotion } from './motion.ts'
import { builtinMusicPath } from './music.ts'
import { runImageJobs, type ImageJob } from './image-jobs.ts'
import { stillCacheKey, type StillFit } from './stills.ts'
import { DEFAULT_SUBTITLE_STYLE, subtitleBand, type SubtitleStyle } from './subtitle-images.ts'
import {
  type FilmPieceTiming,
  planTimeline,
  timelineFromFilm,
  type PlannedSegment,
  type Timeline,
} from './timeline.ts'
import { encodePcmWav, parsePcmWav, type PcmWav } from './wav.ts'
import { exists } from './file-exists.ts'

/**
 * A subtitle cue, as `shared/src/subtitles` makes them: times in ms from the start of the
 * scene's narration (for a scene without narration: from where it would start), and the
 * lines to show.
 */
export interface RenderCue {
  startMs: number
  endMs: number
  lines: readonly string[]
}

/**
 * A scene's generated clip (issue 22 item 4): the scene's picture instead of its image.
 */
export interface RenderClip {
  /** The clip file, absolute: an MP4 or MOV (read by the ISO/QuickTime demuxer only). */
  path: string
  /**
   * Whether it has a sound of its own to mix (`clipSound: 'mix'`), as its Clip node says;
   * absent: as ffmpeg finds the file. A clip without an audio stream is silent either way.
   */
  hasAudio?: boolean
  /**
   * Made by Reelgraph's own code (the builtin offline motion draft), not downloaded from a
   * provider: the bundled static ffmpeg may read it (ADR 005), so the offline graph renders on
   * a machine without a system ffmpeg.
   */
  ownMade?: boolean
}

/** One scene of the video. */
export interface RenderScene {
  /** The image, as bytes of any format sharp reads; or `imagePath`. Unused with a clip. */
  imageBytes?: Uint8Array
  /** A file holding the image; used when `imageBytes` is absent. */
  imagePath?: string
  /**
   * The scene's clip: when given, the scene shows it instead of a still with Ken Burns motion,
   * fitted to the frame (`clipFit`) and to the scene's length (`clipShorter`), and needs no
   * image (issue 22 item 4).
   */
  clip?: RenderClip
  /** The narration as a PCM WAV (bytes, or a path to one); absent for a silent scene. */
  narrationWav?: Uint8Array | string
  /** Subtitle cues, relative to the narration's start. */
  cues?: readonly RenderCue[]
  /**
   * The narration's word timings (ms from its start): what `captions` styles lay out
   * (issue 24 item 2); absent: none.
   */
  words?: readonly WordTiming[]
  /** How the image fills the frame; defaults to the video's `fit`. */
  fit?: StillFit
  /** Seed of this scene's Ken Burns move; defaults to `${seed}:${scene index}`. */
  motionSeed?: string
}

/** What a piece of a film shows: a scene (whole, or a clip's in to out point), or a card. */
export type RenderPieceShow =
  | {
      kind: 'scene'
      /** Index in `scenes`. */
      scene: number
      /** A clip's in and out points in ms (null out: the clip's end); null: the whole clip. */
      span: { inMs: number; outMs: number | null } | null
    }
  | { kind: 'card'; card: CardLook }

/** One piece of a film: where it plays (shared's `planFilm`) and what it shows. */
export interface RenderPiece extends FilmPieceTiming {
  show: RenderPieceShow
}

/**
 * The film a timeline makes (issue 24 item 1): its pieces in order, laid out by shared's
 * `planFilm` at the preset's frame rate.
 */
export interface RenderFilm {
  pieces: readonly RenderPiece[]
}

/** Background music with the timeline's level, fades and ducking (issue 24 item 1). */
export interface RenderMusic {
  /** A builtin track, or `path`: a PCM WAV (an uploaded track), absolute. */
  track?: MusicTrack
  path?: string
  mix: MusicMix
}

/**
 * Where a render stands (issue 21 item 5: typed, scaled by whoever shows it): `done` of
 * `total` units of the current stage. `segments`: segments rendered (a running one counts by
 * how far its ffmpeg is), of those not in the cache; `audio` and `joining`: the share done,
 * of 1. Stages come in this order; audio runs beside the segments and is reported after them.
 */
export interface RenderProgress {
  stage: 'segments' | 'audio' | 'joining'
  done: number
  total: number
}

/** Options of {@link renderVideo}. */
export interface RenderVideoOptions {
  scenes: readonly RenderScene[]
  /** Output format; defaults to `16:9`. */
  preset?: PresetName | VideoPreset
  /** Burn the cues in (default `true`). */
  subtitles?: boolean
  subtitleStyle?: SubtitleStyle
  /**
   * Background music, ducked under the voice: a builtin track at today's level, or one with
   * the timeline's level, fades and ducking (issue 24 item 1); none by default.
   */
  music?: MusicTrack | RenderMusic | null
  /**
   * The film a timeline makes (issue 24 item 1): pieces in order with their transitions,
   * trims and cards; absent: each scene once, in order, with 0.5 s crossfades (today's).
   */
  film?: RenderFilm
  /**
   * Captions in a style drawn by libass from the scenes' `words` (issue 24 item 2) instead
   * of the subtitle images of their `cues`; ignored when `subtitles` is false.
   */
  captions?: CaptionLook
  /** Seed of the Ken Burns moves (default `reelgraph`). */
  seed?: string
  /** Default fit of the scene images (default `cover`). */
  fit?: StillFit
  /** How clips fill the frame: `cover` (default) crops, `contain` shows them whole over a blur. */
  clipFit?: ClipFit
  /** A clip shorter than its scene: `hold` its last frame (default) or `slow` it to fit. */
  clipShorter?: ClipShorter
  /** The clips' own sound: `off` (default), or `mix`ed under the narration, ducked. */
  clipSound?: ClipSound
  /** Where segments (and the music loops) are kept between renders; absolute. */
  cacheDir: string
  /** Where the render's temporary directory is made (and the MP4 goes, by default); absolute. */
  workDir: string
  /** Where to write the MP4 (absolute); defaults to `workDir/video-<random>.mp4`. */
  outputPath?: string
  /** Cancels the render: ffmpeg is killed, temporary files removed, the promise rejects. */
  signal?: AbortSignal
  onProgress?: (progress: RenderProgress) => void
  /** The ffmpeg binary; see `findFfmpeg` for the default. */
  ffmpegPath?: string
  /** How many segments render at once (default `RENDER_CONCURRENCY`). */
  concurrency?: number
}

/** What a render produced. */
export interface RenderVideoResult {
  mp4Path: string
  /** Length of the video, in ms. */
  durationMs: number
  /**
   * Per piece of the film (per scene without `film`), where it is visible (transitions
   * included: neighbours overlap), in ms, and the scene it shows (null: a card).
   */
  timeline: {
    index: number
    scene: number | null
    startMs: number
    endMs: number
    narrationStartMs: number | null
  }[]
  /** Cache keys of the segments rendered this time and of those taken from the cache. */
  segments: { rendered: string[]; cached: string[] }
  /** The ffmpeg binary used and the highest peak RSS of its runs, in bytes. */
  ffmpeg: { path: string; version: string; xfade: boolean; clips: boolean; peakRssBytes: number }
  /** Each ffmpeg run in the order they ended: CPU and wall time in ms, peak RSS in bytes. */
  runs: { step: string; cpuMs: number; wallMs: number; peakRssBytes: number }[]
}

/** A scene's clip, probed and hashed. */
interface SceneClip {
  path: string
  probe: ClipProbe
  sha256: string
  /** Whether its sound may be mixed: it has an audio stream, and the caller did not say none. */
  sound: boolean
}

/** A segment with everything needed to key and render it. */
interface SegmentJob {
  plan: PlannedSegment
  key: string
  path: string
  keyInput: SegmentKeyInput
  scenes: number[]
  cues: SegmentKeyCue[]
  /** The segment's captions as an ASS document (issue 24 item 2), or null. */
  ass: string | null
  cached: boolean
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** True when `path` is in the cache, marking it used now (pruning removes it last). */
async function usedFromCache(path: string): Promise<boolean> {
  if (!(await exists(path))) return false
  await touchCacheEntry(path)
  return true
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    await copyFile(from, to)
    await rm(from, { force: true })
  }
}

function resolvePreset(preset: RenderVideoOptions['preset']): VideoPreset {
  if (preset === undefined) return VIDEO_PRESETS['16:9']
  if (typeof preset === 'string') {
    const found = VIDEO_PRESETS[preset]
    if (!found) throw new RenderError('invalid-input', `No preset named ${preset}`)
    return found
  }
  if (preset.width % 2 || preset.height % 2 || preset.width < 16 || preset.height < 16) {
    throw new RenderError('invalid-input', 'Preset sizes must be even and at least 16 px')
  }
  return preset
}

/** Runs `work` over `items` with at most `limit` running at once; stops at the first error. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!
      try {
        await work(item)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  // Settle every worker before returning, so no ffmpeg still writes when temp files go.
  const results = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker),
  )
  const failure = results.find((r) => r.status === 'rejected')
  if (failure) throw failure.reason
}

/**
 * The name of a segment's ffmpeg run: `scene N` for a scene's body (N counts from 1), `title
 * card` / `end card`, `crossfade N-M` (or the transition's name) between two pieces.
 */
function segmentStep(plan: PlannedSegment, shows: readonly RenderPieceShow[]): string {
  const name = (piece: number) => {
    const show = shows[piece]!
    return show.kind === 'scene' ? String(show.scene + 1) : `card ${piece + 1}`
  }
  if (plan.kind === 'scene') {
    const show = shows[plan.scene]!
    return show.kind === 'scene' ? `scene ${show.scene + 1}` : `card ${plan.scene + 1}`
  }
  return `${plan.transition} ${name(plan.from)}-${name(plan.to)}`
}

/**
 * The cues of a scene in video frames (absolute), clipped to where the scene is visible.
 */
function sceneCueFrames(
  timeline: Timeline,
  sceneIndex: number,
  cues: readonly RenderCue[],
): SegmentKeyCue[] {
  const scene = timeline.scenes[sceneIndex]!
  // Where the plan put the narration (today's: the lead-in after the scene's start).
  const baseMs = scene.narrationStartMs ?? scene.startMs + NARRATION_LEAD_IN_MS
  const toFrame = (ms: number) => Math.round(((baseMs + ms) * timeline.fps) / 1000)
  const out: SegmentKeyCue[] = []
  for (const cue of cues) {
    if (!(Number.isFinite(cue.startMs) && Number.isFinite(cue.endMs))) {
      throw new RenderError('invalid-input', `Scene ${sceneIndex}: a cue time is not a number`)
    }
    const startFrame = Math.max(scene.startFrame, toFrame(cue.startMs))
    const endFrame = Math.min(scene.startFrame + scene.frames, toFrame(cue.endMs))
    const lines = cue.lines.map(String)
    if (endFrame > startFrame && lines.some((line) => line.trim() !== '')) {
      out.push({ startFrame, endFrame, lines })
    }
  }
  return out
}

/**
 * Renders scenes to an MP4 (H.264 yuv420p + AAC 48 kHz, `+faststart`): each scene lasts its
 * narration plus padding, its image fitted to the frame and moving slowly (Ken Burns), or its
 * clip fitted to the frame and to the scene's length (issue 22 item 4: played and trimmed,
 * held or slowed, its own sound left out or mixed under the voice), with 0.5 s crossfades,
 * burned-in subtitles, optional builtin music ducked under the voice, and the loudness
 * normalized to -14 LUFS. Each scene body and each crossfade is a segment
 * cached in `cacheDir/segments/` under `segmentCacheKey`; only missing segments are
 * rendered (one ffmpeg at a time by default), then they are joined by stream copy and the
 * audio is mixed in. Temporary files (in a directory made inside `workDir`, and partial
 * segments) are removed on success, failure and cancel.
 *
 * With `film` (issue 24 item 1, ADR 017) it renders a timeline's film instead: `planFilm`'s
 * pieces in order (cuts of scenes, a clip from its in to its out point, title and end
 * cards), each transition by `xfade` at its length, each narration at the plan's frame, a
 * body segment per piece and one per transition, keyed by that piece's own inputs. With
 * `captions` (issue 24 item 2) the captions are ASS drawn by libass in that look.
 *
 * @throws RenderError `invalid-input` for an unreadable image, clip or WAV, a bad option or a
 *   relative folder or clip path (issue 20 item 1: ffmpeg reads paths against its own
 *   folders), `ffmpeg-not-found` / `ffmpeg-unsupported` (also: clips with the bundled static
 *   build or an ffmpeg older than 4.2; caption styles or card text without libass) /
 *   `ffmpeg-failed` from ffmpeg; `invalid-input` also for a film whose pieces do not follow
 *   each other or show a scene not given, and for a music file that is a playlist, a list or
 *   text (checked with the other inputs, before any segment is made; issue 40 item 4);
 *   rejects with `signal.reason` (an `AbortError` by default) when cancelled.
 * @see issue 13 item 3, issue 22 item 4, issue 24 items 1 and 2, issue 40 item 4
 */
export async function renderVideo(options: RenderVideoOptions): Promise<RenderVideoResult> {
  const { signal, onProgress } = options
  signal?.throwIfAborted()
  absolutePath(options.cacheDir, 'The render cache folder')
  absolutePath(options.workDir, 'The render work folder')
  if (options.outputPath !== undefined) absolutePath(options.outputPath, 'The output video')
  const preset = resolvePreset(options.preset)
  const seed = options.seed ?? 'reelgraph'
  const burnSubtitles = options.subtitles ?? true
  const style = options.subtitleStyle ?? DEFAULT_SUBTITLE_STYLE
  if (options.scenes.length === 0) throw new RenderError('invalid-input', 'No scene to render')
  const report = (progress: RenderProgress) => onProgress?.(progress)

  const binary = findFfmpeg({ ffmpegPath: options.ffmpegPath })
  const capabilities: FfmpegCapabilities = await detectCapabilities(binary.path)
  signal?.throwIfAborted()

  const clipFit = options.clipFit ?? 'cover'
  const clipShorter = options.clipShorter ?? 'hold'
  const clipSound = options.clipSound ?? 'off'
  if (options.scenes.some((scene) => scene.clip)) {
    // ADR 005: the bundled 2018 build's decoders only ever read what our own code wrote; a
    // downloaded clip comes from a video model's provider, a motion draft from our own code.
    const downloaded = options.scenes.some((scene) => scene.clip && !scene.clip.ownMade)
    if (downloaded && (binary.source === 'static' || binary.path === staticFfmpegPath())) {
      throw new RenderError(
        'ffmpeg-unsupported',
        'Scenes with clips need the system ffmpeg (apt-get install ffmpeg, or set FFMPEG_PATH): the bundled ffmpeg 4.1 from 2018 is not trusted with downloaded videos.',
      )
    }
    if (!capabilities.clips) {
      throw new RenderError(
        'ffmpeg-unsupported',
        `Scenes with clips need ffmpeg 4.2 or newer (tpad): ${capabilities.version} cannot render them. Install ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH.`,
      )
    }
  }

  // Inputs: image bytes and hashes, clips probed and hashed (read as streams, never held),
  // narrations parsed (their lengths shape the timeline).
  const images: (Uint8Array | null)[] = []
  const clips: (SceneClip | null)[] = []
  const clipsByPath = new Map<string, Promise<{ probe: ClipProbe; sha256: string }>>()
  const narrations: (PcmWav | null)[] = []
  for (const [index, scene] of options.scenes.entries()) {
    if (scene.clip) {
      const what = `Scene ${index + 1}'s clip`
      const path = absolutePath(scene.clip.path, what)
      let known = clipsByPath.get(path)
      if (!known) {
        known = (async () => ({
          probe: await probeClip(binary.path, path, what, signal),
          sha256: await sha256File(path),
        }))()
        clipsByPath.set(path, known)
      }
      const { probe, sha256 } = await known
      clips.push({ path, probe, sha256, sound: probe.hasAudio && scene.clip.hasAudio !== false })
      images.push(null)
    } else {
      clips.push(null)
      if (scene.imageBytes) images.push(scene.imageBytes)
      else if (scene.imagePath) images.push(await readFile(scene.imagePath))
      else throw new RenderError('invalid-input', `Scene ${index} has no image`)
    }
    const wav = scene.narrationWav
    narrations.push(
      wav === undefined ? null : parsePcmWav(typeof wav === 'string' ? await readFile(wav) : wav),
    )
  }
  // A music file is an asset made from an upload: refused by its bytes if a list (issue 40
  // item 4) here, with the other inputs, so a refused one fails the render before any still,
  // segment or mix is made.
  const music = options.music
  const musicFile =
    music && typeof music !== 'string' && music.path ? absolutePath(music.path, 'The music') : null
  if (musicFile !== null) await refuseReferenceFile(musicFile, 'stored-music', 'The music')
  signal?.throwIfAborted()
  const imageHashes = images.map((image) => (image ? sha256(image) : null))
  // The pieces of the film: a timeline's (issue 24 item 1), else each scene once, in order.
  const film = options.film?.pieces ?? null
  const shows: RenderPieceShow[] = film
    ? film.map((piece, i) => {
        const { show } = piece
        if (show.kind === 'scene' && !options.scenes[show.scene]) {
          throw new RenderError('invalid-input', `Piece ${i + 1} shows a scene that is not given`)
        }
        return show
      })
    : options.scenes.map((_, scene) => ({ kind: 'scene', scene, span: null }))
  let timeline: Timeline
  try {
    timeline = film
      ? timelineFromFilm(film, preset.fps)
      : planTimeline(
          narrations.map((n) => ({ narrationMs: n?.durationMs ?? 0 })),
          { fps: preset.fps },
        )
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new RenderError('invalid-input', error.message, { cause: error })
  }
  const sceneOf = (piece: number) => {
    const show = shows[piece]!
    return show.kind === 'scene' ? show.scene : null
  }
  const clipOf = (piece: number) => {
    const scene = sceneOf(piece)
    return scene === null ? null : clips[scene]
  }
  // Each piece's narration: the narrated cut of its scene carries it (the default: all).
  const pieceNarrations: (PcmWav | null)[] = shows.map((show, i) =>
    show.kind !== 'scene'
      ? null
      : !film || timeline.scenes[i]!.narrationStartMs !== null
        ? narrations[show.scene]!
        : null,
  )
  const cards = shows.map((show) =>
    show.kind === 'card' && show.card.text.trim() !== '' ? cardAss(show.card, preset) : null,
  )
  const needsLibass =
    cards.some((card) => card !== null) || (burnSubtitles && options.captions !== undefined)
  if (needsLibass && !capabilities.subtitles) {
    throw new RenderError(
      'ffmpeg-unsupported',
      `Caption styles and card text need ffmpeg with libass (the subtitles filter): ${capabilities.version} has none. Install ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH.`,
    )
  }
  const fonts = needsLibass ? fontsVersion() : ''
  const fits = options.scenes.map((scene) => scene.fit ?? options.fit ?? 'cover')
  const motions: KenBurnsMotion[] = options.scenes.map((scene, i) =>
    kenBurnsMotion(scene.motionSeed ?? `${seed}:${i}`),
  )
  // A clip's in and out points (issue 24 item 1); none when it shows the whole clip.
  const spans = shows.map((show, i) => {
    const clip = clipOf(i)
    if (show.kind !== 'scene' || !clip || !show.span) return null
    const length = clip.probe.durationMs
    const inMs = Math.max(0, Math.min(show.span.inMs, length - 1))
    const outMs = Math.max(inMs + 1, Math.min(length, show.span.outMs ?? length))
    return inMs === 0 && outMs >= length ? null : { inMs, outMs }
  })
  const timings: (ClipTiming | null)[] = shows.map((_, i) => {
    const clip = clipOf(i)
    if (!clip) return null
    const span = spans[i]
    const length = span ? span.outMs - span.inMs : clip.probe.durationMs
    return clipTiming(length, timeline.scenes[i]!.frames, preset.fps, clipShorter)
  })
  // A piece's part of a segment, by content (the key) and by file (the spec).
  const keyPart = (piece: number, firstSceneFrame: number): SegmentKeyPart => {
    const show = shows[piece]!
    const sceneFrames = timeline.scenes[piece]!.frames
    if (show.kind === 'card') {
      return {
        cardAss: cards[piece]!,
        background: show.card.background,
        fonts,
        sceneFrames,
        firstSceneFrame,
      }
    }
    const clip = clips[show.scene]
    const span = spans[piece]
    return clip
      ? {
          clipSha256: clip.sha256,
          fit: clipFit,
          timing: timings[piece]!,
          sceneFrames,
          firstSceneFrame,
          ...(span ? { span } : {}),
        }
      : {
          imageSha256: imageHashes[show.scene]!,
          fit: fits[show.scene]!,
          motion: motions[show.scene]!,
          sceneFrames,
          firstSceneFrame,
        }
  }
  const captionLook = burnSubtitles ? options.captions : undefined
  const cuesByPiece = shows.map((show, i) =>
    burnSubtitles && !captionLook && show.kind === 'scene' && pieceNarrations[i] !== null
      ? sceneCueFrames(timeline, i, options.scenes[show.scene]!.cues ?? [])
      : [],
  )
  // Captions in a style (issue 24 item 2): each narrated piece's caption events, in video
  // frames, clipped to where the piece shows.
  const captionsByPiece: AssCaption[][] = shows.map((show, i) => {
    const planned = timeline.scenes[i]!
    const narration = pieceNarrations[i]
    if (!captionLook || show.kind !== 'scene' || !narration) return []
    const words = options.scenes[show.scene]!.words ?? []
    const baseMs = planned.narrationStartMs ?? planned.startMs + NARRATION_LEAD_IN_MS
    const toFrame = (ms: number) => Math.round(((baseMs + ms) * timeline.fps) / 1000)
    const end = planned.startFrame + planned.frames
    return captionEvents(words, {
      style: captionLook.captionStyle,
      maxWords: captionLook.captionMaxWords,
      endLimitMs: narration.durationMs,
    })
      .map((event) => captionFrames(event, toFrame))
      .map((c) => ({
        ...c,
        startFrame: Math.max(planned.startFrame, c.startFrame),
        endFrame: Math.min(end, c.endFrame),
      }))
      .filter((c) => c.endFrame > c.startFrame)
  })

  const segmentDir = join(options.cacheDir, 'segments')
  await mkdir(segmentDir, { recursive: true })
  const jobs: SegmentJob[] = []
  for (const plan of timeline.segments) {
    const parts =
      plan.kind === 'scene'
        ? [{ scene: plan.scene, firstSceneFrame: plan.firstSceneFrame }]
        : [
            { scene: plan.from, firstSceneFrame: plan.fromSceneFrame },
            { scene: plan.to, firstSceneFrame: 0 },
          ]
    const end = plan.startFrame + plan.frames
    const local = (frame: number) => frame - plan.startFrame
    const cues = parts.flatMap(({ scene }) =>
      cuesByPiece[scene]!.filter((c) => c.startFrame < end && c.endFrame > plan.startFrame).map(
        (c) => ({
          startFrame: Math.max(0, c.startFrame - plan.startFrame),
          endFrame: Math.min(plan.frames, c.endFrame - plan.startFrame),
          lines: c.lines,
        }),
      ),
    )
    const captions = parts.flatMap(({ scene }) =>
      captionsByPiece[scene]!.filter((c) => c.startFrame < end && c.endFrame > plan.startFrame).map(
        (c): AssCaption => ({
          startFrame: Math.max(0, local(c.startFrame)),
          endFrame: Math.min(plan.frames, local(c.endFrame)),
          lines: c.lines.map((line) => line.map((w) => ({ text: w.text, frame: local(w.frame) }))),
        }),
      ),
    )
    const ass =
      captionLook && captions.length > 0 ? captionsAss(captions, captionLook, preset) : null
    const transition: TransitionType | undefined =
      plan.kind === 'transition' ? plan.transition : undefined
    const keyInput: SegmentKeyInput = {
      preset,
      frames: plan.frames,
      parts: parts.map(({ scene, firstSceneFrame }) => keyPart(scene, firstSceneFrame)),
      subtitles: cues.length > 0 ? { style, cues } : null,
      ...(transition ? { transition } : {}),
      captions: ass ? { ass, fonts } : null,
      ffmpeg: capabilities,
    }
    const key = segmentCacheKey(keyInput)
    const path = join(segmentDir, `${key}.mp4`)
    jobs.push({
      plan,
      key,
      path,
      keyInput,
      scenes: parts.map((p) => p.scene),
      cues,
      ass,
      cached: await usedFromCache(path),
    })
  }

  const todo = jobs.filter((job) => !job.cached)
  // Progress: segments by count (a running one by its ffmpeg's fraction), then the audio's
  // share, then the join; it only goes up.
  const running = new Map<string, number>()
  let segmentsFinished = 0
  const segmentsProgress = () => {
    let inFlight = 0
    for (const fraction of running.values()) inFlight += fraction
    report({
      stage: 'segments',
      done: segmentsFinished + inFlight,
      total: Math.max(1, todo.length),
    })
  }

  const tempDir = await mkdtemp(join(options.workDir, '.render-'))
  const partialSegments = new Set<string>()
  // Stops the other branch (segments or audio) when one fails, and follows the caller's signal.
  const inner = new AbortController()
  const abortInner = () => inner.abort(signal?.reason)
  signal?.addEventListener('abort', abortInner, { once: true })
  let peakRssBytes = 0
  const runs: RenderVideoResult['runs'] = []
  const ffmpeg = async (step: string, args: string[], run: Omit<RunFfmpegOptions, 'signal'>) => {
    const result = await runFfmpeg(binary.path, args, { ...run, signal: inner.signal })
    peakRssBytes = Math.max(peakRssBytes, result.peakRssBytes)
    const { cpuMs, wallMs } = result
    runs.push({ step, cpuMs, wallMs, peakRssBytes: result.peakRssBytes })
    return result
  }
  try {
    // The images the segments to render need, made by sharp in the image worker before
    // any segment's ffmpeg runs: fitted stills go to the cache (a re-render needs its
    // neighbours' for the crossfades), subtitle images to the temporary directory.
    const stillDir = join(options.cacheDir, 'stills')
    await mkdir(stillDir, { recursive: true })
    const stillPaths = new Map<number, string>()
    const cuePaths = new Map<string, string>()
    const imageJobs: ImageJob[] = []
    for (const job of todo) {
      for (const piece of job.scenes) {
        const scene = sceneOf(piece)
        if (scene === null || stillPaths.has(scene) || clips[scene]) continue
        const key = stillCacheKey(imageHashes[scene]!, preset, fits[scene]!)
        const path = join(stillDir, `${key}.jpg`)
        stillPaths.set(scene, path)
        if (await usedFromCache(path)) continue
        // The bytes that were hashed, so the still matches its key.
        const imagePath = join(tempDir, `image-${scene}`)
        await writeFile(imagePath, images[scene]!)
        const tempPath = `${path}.${randomUUID()}.tmp`
        imageJobs.push({
          kind: 'still',
          imagePath,
          preset,
          fit: fits[scene]!,
          outputPath: path,
          tempPath,
        })
      }
      for (const cue of job.cues) {
        const id = JSON.stringify(cue.lines)
        if (cuePaths.has(id)) continue
        const outputPath = join(tempDir, `cue-${cuePaths.size}.png`)
        cuePaths.set(id, outputPath)
        imageJobs.push({ kind: 'cue', lines: cue.lines, preset, style, outputPath })
      }
    }
    const band = subtitleBand(preset)
    // Libass's files: the caption fonts, each card's text, each segment's captions.
    const fontsDir = needsLibass ? await captionFontsDir(options.cacheDir) : ''
    const cardPaths = new Map<number, string>()
    for (const [piece, ass] of cards.entries()) {
      if (ass === null) continue
      const path = join(tempDir, `card-${piece}.ass`)
      await writeFile(path, ass)
      cardPaths.set(piece, path)
    }
    const captionPaths = new Map<string, string>()
    for (const job of todo) {
      if (job.ass === null) continue
      const path = join(tempDir, `captions-${job.key}.ass`)
      await writeFile(path, job.ass)
      captionPaths.set(job.key, path)
    }

    let segmentsDone = false
    let audioDone = 0
    const renderSegments = async () => {
      segmentsProgress()
      if (imageJobs.length > 0) {
        await runImageJobs(imageJobs, join(tempDir, 'images.json'), inner.signal)
      }
      await eachLimited(todo, options.concurrency ?? RENDER_CONCURRENCY, async (job) => {
        inner.signal.throwIfAborted()
        running.set(job.key, 0)
        segmentsProgress()
        const specParts = job.keyInput.parts.map((part, i): SegmentPart => {
          const piece = job.scenes[i]!
          const scene = sceneOf(piece)
          if ('cardAss' in part || scene === null) {
            const show = shows[piece] as Extract<RenderPieceShow, { kind: 'card' }>
            return {
              background: show.card.background,
              assPath: cardPaths.get(piece) ?? null,
              fontsDir,
            }
          }
          const clip = clips[scene]
          const { sceneFrames, firstSceneFrame } = part
          const span = spans[piece]
          return clip
            ? {
                clipPath: clip.path,
                fit: clipFit,
                timing: timings[piece]!,
                sceneFrames,
                firstSceneFrame,
                ...(span ? { span } : {}),
              }
            : {
                stillPath: stillPaths.get(scene)!,
                motion: motions[scene]!,
                sceneFrames,
                firstSceneFrame,
              }
        })
        const captionsPath = captionPaths.get(job.key)
        const spec: SegmentRenderSpec = {
          preset,
          frames: job.plan.frames,
          parts: specParts as unknown as SegmentRenderSpec['parts'],
          overlays: job.cues.map((cue) => ({
            imagePath: cuePaths.get(JSON.stringify(cue.lines))!,
            x: band.x,
            y: band.y,
            startFrame: cue.startFrame,
            endFrame: cue.endFrame,
          })),
          ...(job.keyInput.transition ? { transition: job.keyInput.transition } : {}),
          ...(captionsPath ? { captions: { assPath: captionsPath, fontsDir } } : {}),
        }
        const partial = join(segmentDir, `.${job.key}-${randomUUID()}.tmp.mp4`)
        partialSegments.add(partial)
        const { args } = buildSegmentFilterGraph(spec, capabilities, partial)
        const step = segmentStep(job.plan, shows)
        await ffmpeg(step, args, {
          frames: job.plan.frames,
          onProgress: (fraction) => {
            running.set(job.key, fraction)
            segmentsProgress()
          },
        })
        await rename(partial, job.path)
        partialSegments.delete(partial)
        running.delete(job.key)
        segmentsFinished += 1
        segmentsProgress()
      })
      segmentsDone = true
      report({ stage: 'audio', done: audioDone, total: 1 })
    }

    // Audio runs beside the segments (one small single-threaded ffmpeg at a time): the
    // narrations re-written as canonical WAVs, mixed and measured (pass 1), then gained to
    // the loudness target and encoded as AAC (pass 2).
    const audioPath = join(tempDir, 'audio.m4a')
    const renderAudio = async () => {
      const audioStage = (fraction: number) => {
        audioDone = Math.max(audioDone, fraction)
        if (segmentsDone) report({ stage: 'audio', done: audioDone, total: 1 })
      }
      const narrationPaths = await Promise.all(
        pieceNarrations.map(async (wav, i) => {
          if (!wav) return null
          const path = join(tempDir, `narration-${i}.wav`)
          await writeFile(path, encodePcmWav(wav.format, wav.samples))
          return path
        }),
      )
      let musicPath: string | null = musicFile
      let musicMix: MusicMix | undefined
      if (typeof music === 'string') musicPath = await builtinMusicPath(music, options.cacheDir)
      else if (music) {
        musicMix = music.mix
        if (musicFile === null && music.track) {
          musicPath = await builtinMusicPath(music.track, options.cacheDir)
        }
      }
      const mixPath = join(tempDir, 'mix.wav')
      const clipSounds = shows.map((_, i): ClipSoundTrack | null => {
        const clip = clipOf(i)
        if (clipSound !== 'mix' || !clip?.sound) return null
        const inMs = spans[i]?.inMs ?? 0
        return { path: clip.path, timing: timings[i]!, ...(inMs > 0 ? { inMs } : {}) }
      })
      const mixRun = await ffmpeg(
        'audio mix',
        buildMixPassArgs(
          { timeline, narrationPaths, musicPath, clipSounds, ...(musicMix ? { musicMix } : {}) },
          mixPath,
        ),
        {
          logLevel: 'info',
          durationMs: timeline.durationMs,
          onProgress: (fraction) => audioStage(fraction * 0.3),
        },
      )
      const measured = parseLoudnessMeasurement(mixRun.stderr)
      let levelled = mixPath
      if (measured.integrated > SILENCE_LUFS) {
        // One gain to the target, peaks limited; corrected once if the limiter took too much.
        let gain = LOUDNESS_TARGET_LUFS - measured.integrated
        for (let attempt = 0; attempt < 2; attempt++) {
          levelled = join(tempDir, `level-${attempt}.wav`)
          const run = await ffmpeg(
            'audio level',
            buildLevelPassArgs(mixPath, gain, timelineSamples(timeline), levelled),
            {
              logLevel: 'info',
              durationMs: timeline.durationMs,
              onProgress: (fraction) => audioStage(0.3 + fraction * 0.2),
            },
          )
          const miss = LOUDNESS_TARGET_LUFS - parseLoudnessMeasurement(run.stderr).integrated
          if (Math.abs(miss) <= LOUDNESS_TOLERANCE_LU) break
          gain += miss
        }
      }
      await ffmpeg('audio encode', buildAudioEncodeArgs(levelled, audioPath), {
        durationMs: timeline.durationMs,
        onProgress: (fraction) => audioStage(0.5 + fraction / 2),
      })
      audioStage(1)
    }

    const branches = await Promise.allSettled(
      [renderSegments(), renderAudio()].map((branch) =>
        branch.catch((error: unknown) => {
          inner.abort(error)
          throw error
        }),
      ),
    )
    signal?.throwIfAborted()
    const failure = branches.find((b) => b.status === 'rejected')
    if (failure) throw failure.reason

    // Join: segments and audio by stream copy.
    const listPath = join(tempDir, 'segments.ffconcat')
    await writeFile(
      listPath,
      buildConcatList(
        jobs.map((job) => ({ path: job.path, durationS: job.plan.frames / preset.fps })),
      ),
    )
    const outputTemp = join(tempDir, 'video.mp4')
    report({ stage: 'joining', done: 0, total: 1 })
    await ffmpeg(
      'join',
      buildJoinArgs({
        concatListPath: listPath,
        audioPath,
        durationMs: timeline.durationMs,
        outputPath: outputTemp,
      }),
      {
        durationMs: timeline.durationMs,
        onProgress: (fraction) => report({ stage: 'joining', done: fraction, total: 1 }),
      },
    )
    signal?.throwIfAborted()
    const mp4Path = options.outputPath ?? join(options.workDir, `video-${randomUUID()}.mp4`)
    await mkdir(dirname(mp4Path), { recursive: true })
    await moveFile(outputTemp, mp4Path)
    report({ stage: 'joining', done: 1, total: 1 })
    return {
      mp4Path,
      durationMs: timeline.durationMs,
      timeline: timeline.scenes.map((s) => ({
        index: s.index,
        scene: sceneOf(s.index),
        startMs: s.startMs,
        endMs: s.endMs,
        narrationStartMs: s.narrationStartMs,
      })),
      segments: {
        rendered: todo.map((job) => job.key),
        cached: jobs.filter((job) => job.cached).map((job) => job.key),
      },
      ffmpeg: { path: binary.path, ...capabilities, peakRssBytes },
      runs,
    }
  } finally {
    signal?.removeEventListener('abort', abortInner)
    await Promise.all([...partialSegments].map((path) => rm(path, { force: true })))
    await rm(tempDir, { recursive: true, force: true })
  }
}
