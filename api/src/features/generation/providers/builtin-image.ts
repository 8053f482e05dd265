import type { GenerateImageRequest, ImageModel } from '@reelgraph/shared'
import sharp from 'sharp'
import { type GeneratedImage, type ImageProvider, ProviderError } from './types.ts'
import { seededRandom } from './seeded-random.ts'

/**
 * The builtin image provider (ARCHITECTURE "AI providers"; issue 4 item 2): offline,
 * deterministic, no model. It draws a storyboard frame of exactly the asked size showing
 * the prompt (the scene's visual instructions), on a background and shapes derived from
 * the seed, and rasterizes it with sharp to PNG. Same request and seed, same bytes.
 */

const MODEL: ImageModel = {
  id: 'storyboard',
  name: 'Storyboard frames (offline)',
  modelVersions: [{ id: 'storyboard-v1', name: 'v1' }],
}

/** Generic list so frames render wherever fonts differ (DejaVu on most Linux hosts). */
const FONT_FAMILY = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif"
/** Line height as a multiple of the font size. */
const LINE_HEIGHT = 1.3
/** Average advance of a Latin character, in em (DejaVu Sans is wide; err on the wide side). */
const NARROW_CHAR_EM = 0.6
/** Advance of a CJK or full-width character, in em. */
const WIDE_CHAR_EM = 1.0
/** Largest prompt font, as a fraction of the text box's shorter side (a short prompt reads as a title). */
const MAX_FONT_OF_SIDE = 0.16
/** Smallest prompt font in px; below it the text is cut with an ellipsis. */
const MIN_FONT_PX = 4
/** Shapes drawn behind the text, at most. */
const MAX_SHAPES = 5

type Signal = AbortSignal

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

function charEm(char: string): number {
  const code = char.codePointAt(0) ?? 0
  // CJK, Hangul, full-width forms and emoji take about a full em.
  return code >= 0x2e80 ? WIDE_CHAR_EM : NARROW_CHAR_EM
}

function textEm(text: string): number {
  let em = 0
  for (const char of text) em += charEm(char)
  return em
}

/** Splits a word wider than `maxEm` into pieces that fit. */
function splitWord(word: string, maxEm: number): string[] {
  const pieces: string[] = []
  let piece = ''
  let em = 0
  for (const char of word) {
    const w = charEm(char)
    if (piece && em + w > maxEm) {
      pieces.push(piece)
      piece = ''
      em = 0
    }
    piece += char
    em += w
  }
  if (piece) pieces.push(piece)
  return pieces
}

/** Greedy word wrap of `text` into lines at most `maxEm` wide; blank lines separate paragraphs. */
export function wrapText(text: string, maxEm: number): string[] {
  const lines: string[] = []
  const paragraphs = text.split(/\r?\n/)
  for (const paragraph of paragraphs) {
    const words = paragraph.split(/\s+/).filter(Boolean)
    if (words.length === 0) {
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('')
      continue
    }
    let line = ''
    for (const word of words) {
      for (const piece of textEm(word) > maxEm ? splitWord(word, maxEm) : [word]) {
        const candidate = line ? `${line} ${piece}` : piece
        if (line && textEm(candidate) > maxEm) {
          lines.push(line)
          line = piece
        } else {
          line = candidate
        }
      }
    }
    lines.push(line)
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

interface TextLayout {
  fontSize: number
  lines: string[]
}

/**
 * The largest font at which the wrapped text fits the box, preferring sizes that keep every
 * word whole; when nothing fits at {@link MIN_FONT_PX} the text is cut with an ellipsis.
 */
export function fitText(text: string, boxWidth: number, boxHeight: number): TextLayout {
  const maxFont = Math.max(
    MIN_FONT_PX,
    Math.floor(Math.min(boxHeight / LINE_HEIGHT, Math.min(boxWidth, boxHeight) * MAX_FONT_OF_SIDE)),
  )
  const longestWordEm = Math.max(0, ...text.split(/\s+/).map(textEm))
  const fitsBox = (size: number) =>
    wrapText(text, boxWidth / size).length * size * LINE_HEIGHT <= boxHeight
  const fitsWhole = (size: number) => longestWordEm * size <= boxWidth && fitsBox(size)
  // Both predicates hold for small sizes and fail past some size: binary search on pixels.
  const largest = (fits: (size: number) => boolean): number | null => {
    if (!fits(MIN_FONT_PX)) return null
    let lo = MIN_FONT_PX
    let hi = maxFont
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      if (fits(mid)) lo = mid
      else hi = mid - 1
    }
    return lo
  }
  const size = largest(fitsWhole) ?? largest(fitsBox)
  if (size !== null) return { fontSize: size, lines: wrapText(text, boxWidth / size) }

  const maxEm = boxWidth / MIN_FONT_PX
  const maxLines = Math.max(1, Math.floor(boxHeight / (MIN_FONT_PX * LINE_HEIGHT)))
  const lines = wrapText(text, maxEm).slice(0, maxLines)
  let last = lines[maxLines - 1] ?? ''
  while (last && textEm(`${last}…`) > maxEm) last = Array.from(last).slice(0, -1).join('')
  lines[maxLines - 1] = `${last.trimEnd()}…`
  return { fontSize: MIN_FONT_PX, lines }
}

const round = (n: number) => Math.round(n * 10) / 10

/** The storyboard frame as SVG text, exactly `width` x `height` user units. */
export function storyboardSvg(prompt: string, width: number, height: number, seed: number): string {
  const rand = seededRandom(seed).next
  const short = Math.min(width, height)
  const hue = Math.floor(rand() * 360)
  const hue2 = (hue + 30 + Math.floor(rand() * 60)) % 360
  const sat = 35 + Math.floor(rand() * 30)
  const angle = Math.floor(rand() * 360)
  const bgA = `hsl(${hue}, ${sat}%, 22%)`
  const bgB = `hsl(${hue2}, ${sat}%, 12%)`

  const shapes: string[] = []
  const shapeCount = 2 + Math.floor(rand() * (MAX_SHAPES - 1))
  for (let i = 0; i < shapeCount; i++) {
    const kind = rand()
    const x = round(rand() * width)
    const y = round(rand() * height)
    const size = round(short * (0.15 + rand() * 0.45))
    const fill = `hsl(${(hue + Math.floor(rand() * 120) - 60 + 360) % 360}, ${sat + 10}%, 55%)`
    const opacity = round(0.06 + rand() * 0.1)
    if (kind < 0.45) {
      shapes.push(
        `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${fill}" opacity="${opacity}"/>`,
      )
    } else if (kind < 0.8) {
      const rotate = Math.floor(rand() * 90)
      shapes.push(
        `<rect x="${round(x - size / 2)}" y="${round(y - size / 3)}" width="${size}" height="${round((size * 2) / 3)}" rx="${round(size * 0.06)}" fill="${fill}" opacity="${opacity}" transform="rotate(${rotate} ${x} ${y})"/>`,
      )
    } else {
      const p = [x, y - size / 2, x + size / 2, y + size / 2, x - size / 2, y + size / 2].map(round)
      shapes.push(`<polygon points="${p.join(' ')}" fill="${fill}" opacity="${opacity}"/>`)
    }
  }

  // Frame border inset from the edge, caption strip at the bottom inside the frame.
  const inset = Math.max(2, Math.round(short * 0.03))
  const stroke = Math.max(1, Math.round(short * 0.006))
  const caption = `Offline draft · seed ${seed} · ${width}×${height}`
  const captionMaxWidth = width - 2 * inset - 2 * stroke - 4
  const captionFont = round(
    Math.max(1, Math.min(short * 0.035, 22, captionMaxWidth / textEm(caption))),
  )
  const captionY = round(height - inset - stroke - captionFont * 0.6)
  const pad = Math.max(2, Math.round(short * 0.06))
  const box = {
    x: inset + pad,
    y: inset + pad,
    width: Math.max(1, width - 2 * (inset + pad)),
    height: Math.max(1, height - 2 * (inset + pad) - captionFont * 1.6),
  }
  const { fontSize, lines } = fitText(prompt, box.width, box.height)
  const lineStep = fontSize * LINE_HEIGHT
  const top = box.y + (box.height - lines.length * lineStep) / 2 + fontSize * 0.95
  const textLines = lines
    .map((line, i) =>
      line
        ? `<text x="${round(width / 2)}" y="${round(top + i * lineStep)}">${escapeXml(line)}</text>`
        : '',
    )
    .join('')
  const dash = `${Math.max(2, stroke * 6)} ${Math.max(2, stroke * 4)}`

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<defs><linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)">`,
    `<stop offset="0" stop-color="${bgA}"/><stop offset="1" stop-color="${bgB}"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
    shapes.join(''),
    `<rect x="${inset}" y="${inset}" width="${width - 2 * inset}" height="${height - 2 * inset}" fill="none" stroke="#ffffff" stroke-opacity="0.75" stroke-width="${stroke}" stroke-dasharray="${dash}"/>`,
    `<g font-family="${FONT_FAMILY}" font-size="${fontSize}" fill="#ffffff" text-anchor="middle">${textLines}</g>`,
    `<text x="${round(width / 2)}" y="${captionY}" font-family="${FONT_FAMILY}" font-size="${captionFont}" fill="#ffffff" fill-opacity="0.7" text-anchor="middle">${escapeXml(caption)}</text>`,
    '</svg>',
  ].join('')
}

function abortError(signal: Signal): ProviderError {
  const timedOut = (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError'
  return timedOut
    ? new ProviderError('timeout', 'The image took too long to generate.', { cause: signal.reason })
    : new ProviderError('unavailable', 'Image generation was cancelled.', { cause: signal.reason })
}

/** Rejects as soon as `signal` aborts, else settles with `work`. */
function raceAbort<T>(work: Promise<T>, signal: Signal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** Renders one storyboard frame to PNG bytes of exactly `width` x `height`. */
export async function renderStoryboardFrame(
  prompt: string,
  width: number,
  height: number,
  seed: number,
): Promise<Uint8Array> {
  const svg = storyboardSvg(prompt, width, height, seed)
  let image = sharp(Buffer.from(svg), { density: 72 })
  const meta = await image.metadata()
  // librsvg honours width/height at 72 dpi; guard against a rounding pixel anyway.
  if (meta.width !== width || meta.height !== height) {
    image = image.resize(width, height, { fit: 'fill' })
  }
  const png = await image.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer()
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength)
}

/** The offline storyboard-frame image provider. */
export function createBuiltinImageProvider(): ImageProvider {
  return {
    info: { id: 'builtin', name: 'Storyboard frames (offline)', offline: true },
    listModels(limit: number, signal: Signal): Promise<ImageModel[]> {
      if (signal.aborted) return Promise.reject(abortError(signal))
      return Promise.resolve(limit >= 1 ? [MODEL] : [])
    },
    async generateImage(
      request: GenerateImageRequest & { seed: number },
      signal: Signal,
    ): Promise<GeneratedImage> {
      const { prompt, width, height, seed } = request
      try {
        const bytes = await raceAbort(renderStoryboardFrame(prompt, width, height, seed), signal)
        return { bytes, mimeType: 'image/png' }
      } catch (error) {
        if (error instanceof ProviderError) throw error
        throw new ProviderError('malformed', 'The storyboard frame could not be drawn.', {
          cause: error,
        })
      }
    },
  }
}
