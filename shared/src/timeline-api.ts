import { z } from 'zod'
import { projectIdQuerySchema, projectIdSchema } from './ids.ts'

/**
 * The HTTP contracts of the Video node's timeline (issue 24): its narrations (lengths, words
 * and audio for the timeline's edges, waveform and in-page preview), music uploads, and the
 * export for an editor.
 */

/** `GET /api/video/narrations?projectId=&nodeId=`. */
export const narrationsQuery = z.object({
  projectId: projectIdQuerySchema,
  nodeId: z.string().min(1).max(64),
})
export type NarrationsQuery = z.infer<typeof narrationsQuery>

const wordTiming = z.object({
  text: z.string(),
  startMs: z.number().nonnegative(),
  endMs: z.number().nonnegative(),
})

/**
 * Each scene's narration as the Video node would speak it now: spoken before (in the
 * narration cache: exact length, words and its WAV), or not yet (`estimated`: a length and
 * word times from the documented estimate, no audio). Blank narration: length 0, no words.
 */
export const narrationsOutput = z
  .object({
    scenes: z.array(
      z.object({
        sceneId: z.string(),
        /** The narration's length, in ms. */
        durationMs: z.number().nonnegative(),
        /** True when not spoken yet: length and words are the estimate. */
        estimated: z.boolean(),
        /** The cached WAV (`/api/assets/<id>`), or null when not spoken yet. */
        wavUrl: z.string().nullable(),
        words: z.array(wordTiming),
      }),
    ),
  })
  .meta({ id: 'Narrations' })
export type NarrationsOutput = z.infer<typeof narrationsOutput>
export type SceneNarration = NarrationsOutput['scenes'][number]

/** Largest music file a person may upload, in bytes (25 MiB: ten minutes of a good MP3). */
export const MAX_AUDIO_UPLOAD_BYTES = 25 * 1024 * 1024
/** Longest music file, in ms (10 minutes): longer music is never heard in a short film. */
export const MAX_AUDIO_UPLOAD_MS = 600_000

/** `POST /api/assets/audio?projectId=`: the file is the raw request body. */
export const audioUploadQuery = z.object({
  projectId: projectIdQuerySchema,
})

/** An uploaded music file, re-encoded to FLAC (issue 40 item 5): its asset URL and length. */
export const audioUploadOutput = z
  .object({
    /** The FLAC's asset URL (`/api/assets/<id>`): the timeline's `music` setting. */
    url: z.string(),
    /** Its length, in ms. */
    durationMs: z.number().nonnegative(),
  })
  .meta({ id: 'AudioUpload' })
export type AudioUpload = z.infer<typeof audioUploadOutput>

/** Formats a timeline exports to (issue 24 item 3). */
export const EXPORT_FORMATS = ['otio', 'fcpxml'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** `POST /api/video/export`: answers a ZIP of the timeline file and its media. */
export const exportInput = z
  .object({
    projectId: projectIdSchema,
    nodeId: z.string().min(1).max(64),
    format: z.enum(EXPORT_FORMATS, {
      error: `The format must be one of ${EXPORT_FORMATS.join(', ')}.`,
    }),
  })
  .meta({ id: 'ExportInput' })
export type ExportInput = z.infer<typeof exportInput>
