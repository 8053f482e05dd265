import {
  captionsInput,
  CLIP_FITS,
  cutFieldsSchema,
  CUT_ID_PATTERN,
  timelineSettingsSchema,
  CLIP_SHORTER,
  CLIP_SOUND,
  projectIdSchema,
  VIDEO_PRESET_NAMES,
  type VideoScene,
} from '@reelgraph/shared'
import { z } from 'zod'

/** One scene of a render, as the submit service collected it (shared's `VideoScene`). */
export const videoSceneInput = z.object({
  nodeId: z.string(),
  sceneNumber: z.string(),
  narration: z.string(),
  imageUrl: z.string().nullable(),
  // Absent in a job queued before clips existed.
  clip: z
    .object({
      url: z.string(),
      durationMs: z.number().nonnegative(),
      hasAudio: z.boolean(),
      modelId: z.string().default(''),
    })
    .nullable()
    .default(null),
}) satisfies z.ZodType<VideoScene>

/**
 * A render job's input (issue 13 item 4): what `POST /api/video/render` collected from the
 * document, so the job renders what was charged even if the graph changes meanwhile.
 */
export const videoJobInput = z.object({
  projectId: projectIdSchema,
  nodeId: z.string(),
  preset: z.enum(VIDEO_PRESET_NAMES),
  voice: z.string(),
  subtitles: z.boolean(),
  music: z.boolean(),
  clipFit: z.enum(CLIP_FITS).default('cover'),
  clipShorter: z.enum(CLIP_SHORTER).default('hold'),
  clipSound: z.enum(CLIP_SOUND).default('off'),
  scenes: z.array(videoSceneInput),
  inputHash: z.string(),
  /**
   * The Video node's timeline as stored when the render was asked (issue 24 item 1): its cuts
   * and settings, and whether its music was ever chosen (else the node's Music switch
   * decides, as before the timeline). Null: no timeline yet, today's film.
   */
  timeline: z
    .object({
      cuts: z.array(cutFieldsSchema.extend({ id: z.string().regex(CUT_ID_PATTERN) })),
      settings: timelineSettingsSchema,
      musicChosen: z.boolean(),
    })
    .nullable()
    .default(null),
  /** The caption look asked with the render (issue 24 item 4), over the timeline's. */
  captions: captionsInput.optional(),
  /**
   * Narrations charged at submit: those not in the narration cache then (issue 21 item 4).
   * One the cache loses meanwhile is spoken again at no charge.
   */
  voicesCharged: z.number().int().nonnegative(),
})
export type VideoJobInput = z.infer<typeof videoJobInput>
