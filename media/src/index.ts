/**
 * Narration, subtitles and video rendering (issue 13). See `media/CONTEXT.md`.
 */
export * from './render/index.ts'
