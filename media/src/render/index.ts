/**
 * Video rendering with ffmpeg (issue 13 item 3): see `media/CONTEXT.md` and ADR 005.
 */
export * from './config.ts'
export {
  buildAudioEncodeArgs,
  buildAudioMixGraph,
  buildConcatList,
  buildJoinArgs,
  buildLevelPassArgs,
  buildMixPassArgs,
  parseLoudnessMeasurement,
  timelineSamples,
  type AudioMixInput,
  type ClipSoundTrack,
  duckingExpression,
  type JoinInput,
  type MusicMix,
  type LoudnessMeasurement,
} from './audio-graph.ts'
export { RenderError, type RenderErrorCode } from './errors.ts'
export {
  clipInputArgs,
  clipTiming,
  parseClipListing,
  probeClip,
  sha256File,
  type ClipProbe,
  type ClipTiming,
} from './clips.ts'
export {
  pruneRenderCache,
  RENDER_CACHE_MIN_AGE_MS,
  touchCacheEntry,
  type PruneResult,
} from './cache-prune.ts'
export {
  createProgressParser,
  detectCapabilities,
  findFfmpeg,
  progressFraction,
  runFfmpeg,
  staticFfmpegPath,
  type FfmpegBinary,
  type FfmpegResult,
  type FfmpegSource,
  type FindFfmpegOptions,
  type ProgressBlock,
  type RunFfmpegOptions,
} from './ffmpeg.ts'
export {
  buildSegmentFilterGraph,
  kenBurnsFilter,
  isClipPart,
  type FfmpegCapabilities,
  type SegmentClipPart,
  type SegmentCommand,
  type SegmentOverlay,
  type SegmentRenderSpec,
  type SegmentPart,
  type SegmentScenePart,
} from './filter-graph.ts'
export {
  segmentCacheKey,
  type SegmentKeyCue,
  type SegmentKeyInput,
  type SegmentKeyClipPart,
  type SegmentKeyPart,
  type SegmentKeyStillPart,
} from './cache-key.ts'
export { kenBurnsMotion, type KenBurnsMotion } from './motion.ts'
export {
  buildMotionDraftArgs,
  MOTION_DRAFT_MASK,
  MOTION_DRAFT_PARALLAX,
  parallaxMotion,
  renderMotionDraft,
  type MotionDraftOptions,
  type MotionDraftSpec,
} from './motion-draft.ts'
export { builtinMusicPath, synthesizeMusic } from './music.ts'
export {
  renderVideo,
  type RenderClip,
  type RenderFilm,
  type RenderMusic,
  type RenderPiece,
  type RenderPieceShow,
  type RenderCue,
  type RenderProgress,
  type RenderScene,
  type RenderVideoOptions,
  type RenderVideoResult,
} from './render-video.ts'
export { fitStill, stillCacheKey, stillSize, type StillFit } from './stills.ts'
export {
  extractPosterFrame,
  type MediaProbe,
  probeMedia,
  type ProbeOptions,
  transcodeToMp4,
} from './probe.ts'
export {
  DEFAULT_SUBTITLE_STYLE,
  renderSubtitleImage,
  subtitleBand,
  type Rect,
  type SubtitleStyle,
} from './subtitle-images.ts'
export {
  planTimeline,
  timelineFromFilm,
  type FilmPieceTiming,
  type PlannedScene,
  type PlannedSegment,
  type PlanTimelineOptions,
  type Timeline,
  type TimelineSceneInput,
} from './timeline.ts'
export { encodePcmWav, parsePcmWav, type PcmFormat, type PcmWav } from './wav.ts'
export { filmPieces } from './film.ts'
export {
  assColor,
  captionsAss,
  cardAss,
  DEFAULT_CAPTION_LOOK,
  escapeAssText,
  type AssCaption,
  type CaptionLook,
  type CardLook,
} from './ass.ts'
export { captionFontsDir, fontsVersion } from './fonts.ts'
