import sharp from 'sharp'
import {
  SUBTITLE_BAND_FRACTION,
  SUBTITLE_BOTTOM_MARGIN_FRACTION,
  SUBTITLE_MAX_WIDTH_FRACTION,
  type VideoPreset,
} from './config.ts'

/** How burned-in subtitles look. Sizes are relative, so one style fits every preset. */
export interface SubtitleStyle {
  /** Pango font description without size: families, comma-separated, then style words. */
  font: string
  /** Font size as a fraction of the frame's shorter side. */
  fontSize: number
  /** Text colour, `#rrggbb`. */
  color: string
  /** Colour of the box behind the text, `#rrggbb`. */
  boxColor: string
  /** Opacity of that box, 0..1. */
  boxOpacity: number
}

/** White bold sans on a 60% black box: readable on any image. */
export const DEFAULT_SUBTITLE_STYLE: SubtitleStyle = {
  font: 'DejaVu Sans, Liberation Sans, sans-serif Bold',
  fontSize: 0.045,
  color: '#ffffff',
  boxColor: '#000000',
  boxOpacity: 0.6,
}

/** A rectangle of the frame, in pixels. */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

const even = (n: number) => 2 * Math.round(n / 2)

/**
 * The subtitle band of a preset: the full-width strip at the bottom of the frame, with even
 * coordinates so yuv420p chroma stays aligned. Subtitles never touch a pixel outside it.
 * @see issue 13 item 3
 */
export function subtitleBand(preset: VideoPreset): Rect {
  const height = even(preset.height * SUBTITLE_BAND_FRACTION)
  return { x: 0, y: preset.height - height, width: preset.width, height }
}

const COLOR = /^#[0-9a-f]{6}$/i

function escapeMarkup(text: string): string {
  return (
    text
      // Control characters other than the line feed have no place in a caption.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  )
}

/**
 * One cue's text as a band-sized transparent PNG (`subtitleBand` size): the lines centred,
 * wrapped by Pango to `SUBTITLE_MAX_WIDTH_FRACTION` of the width, on a rounded box, above
 * the bottom margin; scaled down if the text would not fit the band. Rendered by sharp
 * (Pango), so both ffmpeg binaries burn identical pixels and neither needs libass or fonts.
 * @throws RangeError when a colour of the style is not `#rrggbb` or an opacity is out of 0..1.
 * @see issue 13 item 3
 */
export async function renderSubtitleImage(
  lines: readonly string[],
  preset: VideoPreset,
  style: SubtitleStyle,
): Promise<Buffer> {
  if (!COLOR.test(style.color) || !COLOR.test(style.boxColor)) {
    throw new RangeError('Subtitle colours must be #rrggbb')
  }
  if (!(style.boxOpacity >= 0 && style.boxOpacity <= 1)) {
    throw new RangeError('Subtitle box opacity must be within 0..1')
  }
  const band = subtitleBand(preset)
  const fontPx = Math.max(8, Math.round(Math.min(preset.width, preset.height) * style.fontSize))
  const padX = Math.round(fontPx * 0.5)
  const padY = Math.round(fontPx * 0.3)
  const bottom = Math.round(preset.height * SUBTITLE_BOTTOM_MARGIN_FRACTION)
  const maxTextWidth = Math.round(preset.width * SUBTITLE_MAX_WIDTH_FRACTION) - 2 * padX
  const maxTextHeight = band.height - bottom - 2 * padY
  const canvas = sharp({
    create: { width: band.width, height: band.height, channels: 4, background: '#00000000' },
  })
  const text = lines.join('\n').trim()
  if (text === '') return canvas.png().toBuffer()

  let rendered = await sharp({
    text: {
      text: `<span foreground="${style.color}">${escapeMarkup(text)}</span>`,
      font: `${style.font} ${fontPx}`,
      width: maxTextWidth,
      align: 'centre',
      wrap: 'word-char',
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true })
  if (rendered.info.height > maxTextHeight || rendered.info.width > maxTextWidth) {
    rendered = await sharp(rendered.data)
      .resize(maxTextWidth, maxTextHeight, { fit: 'inside' })
      .png()
      .toBuffer({ resolveWithObject: true })
  }
  const { width: textWidth, height: textHeight } = rendered.info
  const boxWidth = textWidth + 2 * padX
  const boxHeight = textHeight + 2 * padY
  const boxLeft = Math.round((band.width - boxWidth) / 2)
  const boxTop = band.height - bottom - boxHeight
  const radius = Math.round(fontPx * 0.25)
  const box =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${boxWidth}" height="${boxHeight}">` +
    `<rect width="${boxWidth}" height="${boxHeight}" rx="${radius}" fill="${style.boxColor}" ` +
    `fill-opacity="${style.boxOpacity}"/></svg>`
  return canvas
    .composite([
      { input: Buffer.from(box), left: boxLeft, top: boxTop },
      { input: rendered.data, left: boxLeft + padX, top: boxTop + padY },
    ])
    .png()
    .toBuffer()
}
