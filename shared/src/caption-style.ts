import { z } from 'zod'

// The caption look (issue 24 item 2), apart from the timeline that stores it, so the render
// and Make video calls (video.ts, make-video.ts) take it without importing the timeline.

/** Caption looks (issue 24 item 2), burned in through libass. */
export const CAPTION_STYLES = ['classic', 'word-highlight', 'bold'] as const
export type CaptionStyle = (typeof CAPTION_STYLES)[number]
/** Where captions sit. */
export const CAPTION_POSITIONS = ['bottom', 'middle', 'top'] as const
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number]
/** The open-licensed fonts shipped with the app for captions and cards (OFL 1.1). */
export const CAPTION_FONTS = ['Inter', 'Montserrat', 'Merriweather'] as const
export type CaptionFont = (typeof CAPTION_FONTS)[number]

/** A colour: `#rrggbb`. */
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/

/**
 * The caption look a render asks for (`POST /api/video/render`, `/make`: `captions`), over
 * the timeline's own; absent fields keep the timeline's.
 */
export const captionsInput = z
  .object({
    style: z.enum(CAPTION_STYLES, {
      error: `The caption style must be one of ${CAPTION_STYLES.join(', ')}.`,
    }),
    font: z.enum(CAPTION_FONTS).optional(),
    size: z.number().int().min(24).max(160).optional(),
    color: z.string().regex(COLOR_PATTERN, 'A colour is #rrggbb.').optional(),
    highlight: z.string().regex(COLOR_PATTERN, 'A colour is #rrggbb.').optional(),
    position: z.enum(CAPTION_POSITIONS).optional(),
    maxWords: z.number().int().min(1).max(12).optional(),
  })
  .meta({ id: 'Captions' })
export type CaptionsInput = z.infer<typeof captionsInput>
