/**
 * Subtitles (issue 13 item 2) and their word timings, pure: the cues of a narration, SRT and
 * WebVTT, and the documented estimate of word times for voices that give none. Shared so that
 * the renderer, the SRT, and the canvas's in-page preview (issue 24) lay cues out alike.
 */
export type { Cue, WordTiming } from './types.ts'
export {
  cuesFromWords,
  shiftCues,
  SUBTITLE_MAX_CUE_MS,
  SUBTITLE_MAX_LINE_CHARS,
  SUBTITLE_MAX_LINES,
  SUBTITLE_MIN_CUE_MS,
  SUBTITLE_PAUSE_SPLIT_MS,
  type CueOptions,
} from './cues.ts'
export { formatSrtTimestamp, formatVttTimestamp, toSrt, toVtt } from './format.ts'
export {
  ESTIMATE_MS_PER_SYLLABLE,
  ESTIMATE_PHRASE_PAUSE_SYLLABLES,
  estimateNarrationMs,
  ESTIMATE_SENTENCE_PAUSE_SYLLABLES,
  estimateSyllables,
  estimateWordTimings,
} from './estimate.ts'
export { endsPhrase, endsSentence, splitWords, startsClause } from './words.ts'
