import type { Art } from './storyboard-art.ts'
import type { Background, Placement, StoryboardFrame } from './storyboard-frame.ts'
import { textEm } from './storyboard-frame.ts'

/**
 * Draws a composed storyboard frame as SVG (issue 20 item 4): the background, the
 * illustrations (those that give light above the light's shade), then the title and the
 * mark. Pure string building; sharp (librsvg) rasterizes it.
 */

/** Generic list so frames render wherever fonts differ (DejaVu on most Linux hosts). */
const FONT_FAMILY = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif"
/** Advance of a Latin character in DejaVu Sans, in em (measured 0.46 on the mark). */
const REGULAR_CHAR_EM = 0.5

const px = (n: number) => Math.round(n * 10) / 10

/** Characters XML 1.0 forbids (librsvg refuses the whole document on one). */
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Text safe inside an SVG element or attribute. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

function drawBackground(bg: Background, width: number, height: number): string {
  const parts = [
    '<defs>',
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="${bg.horizon}" gradientUnits="userSpaceOnUse">`,
    `<stop offset="0" stop-color="${bg.sky[0]}"/><stop offset=".55" stop-color="${bg.sky[1]}"/><stop offset="1" stop-color="${bg.sky[2]}"/></linearGradient>`,
    `<linearGradient id="ground" x1="0" y1="${bg.horizon}" x2="0" y2="${height}" gradientUnits="userSpaceOnUse">`,
    `<stop offset="0" stop-color="${bg.ground[0]}"/><stop offset="1" stop-color="${bg.ground[1]}"/></linearGradient>`,
    `<linearGradient id="low" x1="0" y1="${px(height * 0.62)}" x2="0" y2="${height}" gradientUnits="userSpaceOnUse">`,
    '<stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".32"/></linearGradient>',
    '</defs>',
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>`,
  ]
  if (bg.stars.length > 0) {
    parts.push(
      `<g fill="#fff">${bg.stars.map(([x, y, r, o]) => `<circle cx="${x}" cy="${y}" r="${r}" fill-opacity="${o}"/>`).join('')}</g>`,
    )
  }
  if (bg.sun) {
    const { x, y, r, color } = bg.sun
    parts.push(
      `<radialGradient id="glow" cx="${x}" cy="${y}" r="${px(r * 3)}" gradientUnits="userSpaceOnUse">`,
      `<stop offset="0" stop-color="${color}" stop-opacity=".55"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`,
      `<circle cx="${x}" cy="${y}" r="${px(r * 3)}" fill="url(#glow)"/>`,
      `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>`,
    )
  }
  if (bg.hills) parts.push(`<path d="${bg.hills.d}" fill="${bg.hills.color}"/>`)
  parts.push(
    `<rect y="${bg.horizon}" width="${width}" height="${px(height - bg.horizon)}" fill="url(#ground)"/>`,
  )
  if (bg.glints.length > 0) {
    parts.push(
      `<g fill="${bg.sky[2]}" fill-opacity=".35">${bg.glints.map(([x, y, w, h]) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${px(h / 2)}"/>`).join('')}</g>`,
    )
  }
  if (bg.quay) {
    parts.push(
      `<linearGradient id="quay" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg.quay.colors[0]}"/><stop offset="1" stop-color="${bg.quay.colors[1]}"/></linearGradient>`,
      `<path d="${bg.quay.d}" fill="url(#quay)"/>`,
    )
  }
  if (bg.shore) {
    const { y, height: h, color } = bg.shore
    parts.push(`<rect y="${y}" width="${width}" height="${h}" fill="${color}"/>`)
  }
  parts.push(`<rect width="${width}" height="${height}" fill="url(#low)"/>`)
  return parts.join('')
}

function drawIllustration(placement: Placement, art: ReadonlyMap<string, Art>): string {
  const drawing = art.get(placement.art)
  if (!drawing) return ''
  const scale = placement.size / Math.max(drawing.width, drawing.height)
  const dx = (placement.size - drawing.width * scale) / 2 - drawing.left * scale
  const dy = placement.size - drawing.height * scale - drawing.top * scale
  const x = placement.flip ? placement.x + placement.size - dx : placement.x + dx
  const transform = `translate(${px(x)} ${px(placement.y + dy)}) scale(${placement.flip ? -scale : scale} ${scale})`
  const opacity = placement.opacity < 1 ? ` opacity="${placement.opacity}"` : ''
  return `<g transform="${transform}"${opacity}>${drawing.body}</g>`
}

function drawText(frame: StoryboardFrame): string {
  const parts: string[] = []
  const { mark, title } = frame
  const pad = mark.fontSize * 0.55
  const markWidth = textEm(mark.text, REGULAR_CHAR_EM) * mark.fontSize
  parts.push(
    `<rect x="${px(mark.x - pad)}" y="${px(mark.y - mark.fontSize - pad * 0.45)}" width="${px(markWidth + 2 * pad)}" height="${px(mark.fontSize + pad * 1.4)}" rx="${px(mark.fontSize * 0.6)}" fill="#000" fill-opacity=".38"/>`,
    `<text x="${mark.x}" y="${mark.y}" font-family="${FONT_FAMILY}" font-size="${mark.fontSize}" fill="#fff" fill-opacity=".88">${escapeXml(mark.text)}</text>`,
  )
  if (title) {
    parts.push(
      `<text x="${title.x}" y="${title.y}" font-family="${FONT_FAMILY}" font-size="${title.fontSize}" font-weight="bold" text-anchor="middle" fill="#fff" stroke="#000" stroke-opacity=".45" stroke-width="${px(title.fontSize * 0.14)}" stroke-linejoin="round" paint-order="stroke">${escapeXml(title.text)}</text>`,
    )
  }
  return parts.join('')
}

/** The frame as SVG text, exactly `width` x `height` user units. */
export function frameSvg(frame: StoryboardFrame, art: ReadonlyMap<string, Art>): string {
  const { width, height, background: bg } = frame
  const draw = (placements: Placement[]) =>
    placements.map((placement) => drawIllustration(placement, art)).join('')
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    drawBackground(bg, width, height),
    draw(frame.illustrations.filter((placement) => !placement.glows)),
    bg.shade.opacity > 0
      ? `<rect width="${width}" height="${height}" fill="${bg.shade.color}" fill-opacity="${bg.shade.opacity}"/>`
      : '',
    draw(frame.illustrations.filter((placement) => placement.glows)),
    drawText(frame),
    '</svg>',
  ].join('')
}
