import { z } from 'zod'
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
  })
  .meta({ id: 'VideoRenderResult' })
export type VideoRenderResult = z.infer<typeof videoRenderResult>
