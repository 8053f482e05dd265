/**
 * Narration, subtitles and video rendering (issue 13). See `media/CONTEXT.md`.
 */
export {}
