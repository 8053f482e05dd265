import { z } from 'zod'
import { projectIdQuerySchema } from './ids.ts'
import { VIDEO_PRESET_NAMES } from './video.ts'

/**
 * What a render job answers (`GET /api/jobs/:id` once succeeded) and writes onto its Video
 * node: the stored MP4 and subtitles, the video's length, and what it was rendered from.
 * @see issue 13 item 4; issue 21 item 1 (a job kind's result schema)
 */
export const videoRenderResult = z
  .object({
    /** The MP4's asset URL (`/api/assets/:id`). */
    mp4Url: z.string().min(1),
    srtUrl: z.string().min(1),
    vttUrl: z.string().min(1),
    /** Length of the video, in ms. */
    durationMs: z.number().nonnegative(),
    /** shared `videoInputHash` of the scenes and settings it was rendered from. */
    inputHash: z.string(),
    /** The preset it was rendered in. */
    preset: z.enum(VIDEO_PRESET_NAMES),
    /** Spoken narrations taken from the narration cache, of `voicesTotal` (issue 21 item 4). */
    voicesReused: z.number().int().nonnegative(),
    /** Scenes with narration to speak. */
    voicesTotal: z.number().int().nonnegative(),
  })
  .meta({ id: 'VideoRenderResult' })
export type VideoRenderResult = z.infer<typeof videoRenderResult>

/**
 * `GET /api/video/render-quote?projectId=&nodeId=`: what rendering a Video node would cost
 * now (issue 21 item 4), the number on its Render button.
 */
export const renderQuoteQuery = z.object({
  projectId: projectIdQuerySchema,
  nodeId: z.string().min(1).max(64),
})
export type RenderQuoteQuery = z.infer<typeof renderQuoteQuery>

/** The quote: credits, and how many of the scenes' voices the narration cache already has. */
export const renderQuoteOutput = z
  .object({
    /** COST_VIDEO plus COST_VOICE per narration to speak. */
    credits: z.number().int().nonnegative(),
    voices: z.object({
      /** Scenes with narration. */
      total: z.number().int().nonnegative(),
      /** Of those, already spoken (in the narration cache): not charged again. */
      reused: z.number().int().nonnegative(),
    }),
  })
  .meta({ id: 'RenderQuote' })
export type RenderQuote = z.infer<typeof renderQuoteOutput>
