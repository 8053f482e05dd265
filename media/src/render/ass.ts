import {
  type CaptionEvent,
  type CaptionFont,
  type CaptionPosition,
  spokenWord,
  type TimelineSettings,
} from '@reelgraph/shared'
import {
  SUBTITLE_BOTTOM_MARGIN_FRACTION,
  SUBTITLE_MAX_WIDTH_FRACTION,
  type VideoPreset,
} from './config.ts'

/**
 * Captions and card text as ASS subtitles (Advanced SubStation Alpha), which ffmpeg's
 * `subtitles` filter draws with libass (issue 24 item 2). Pure: documents as text. The SRT
 * and VTT downloads stay plain (`shared/src/subtitles`).
 */

/** How captions look: the timeline's caption settings (`timeline.ts`, with `withCaptions`). */
export type CaptionLook = Pick<
  TimelineSettings,
  | 'captionStyle'
  | 'captionFont'
  | 'captionSize'
  | 'captionColor'
  | 'captionHighlight'
  | 'captionPosition'
  | 'captionMaxWords'
>

/** The look of today's burned-in subtitles (`classic`, Inter, white on a dark box). */
export const DEFAULT_CAPTION_LOOK: CaptionLook = {
  captionStyle: 'classic',
  captionFont: 'Inter',
  captionSize: 54,
  captionColor: '#ffffff',
  captionHighlight: '#ffd400',
  captionPosition: 'bottom',
  captionMaxWords: 7,
}

/** How much larger "Bold short-form" words are than the caption size. */
export const BOLD_SIZE_FACTOR = 1.6
/** Opacity of the box behind classic and word-highlight captions (today's 60% black). */
const BOX_ALPHA = 0.6

/** A caption as a segment shows it: segment-local frames (end exclusive) and its words. */
export interface AssCaption {
  startFrame: number
  endFrame: number
  /** The caption's lines of words, and when each word is spoken (segment-local frames). */
  lines: readonly (readonly { text: string; frame: number }[])[]
}

/** `#rrggbb` and an opacity as ASS's `&HAABBGGRR` (alpha 00 is opaque). */
export function assColor(hex: string, opacity = 1): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex)
  if (!m) throw new RangeError(`Not a #rrggbb colour: ${hex}`)
  const alpha = Math.round((1 - Math.min(1, Math.max(0, opacity))) * 255)
  const h = (n: number) => n.toString(16).padStart(2, '0').toUpperCase()
  return `&H${h(alpha)}${m[3]!.toUpperCase()}${m[2]!.toUpperCase()}${m[1]!.toUpperCase()}`
}

/**
 * A person's text as ASS dialogue text that libass shows as written: control characters
 * dropped, a backslash followed by a word joiner (U+2060, invisible) so it starts no
 * override (`\N`, `\h`), braces escaped (`\{`, `\}`) so they open no override block, line
 * breaks as `\N` (or spaces, `breaks: false`).
 */
export function escapeAssText(text: string, { breaks = false } = {}): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
      .replace(/\\/g, '\\\u2060')
      .replace(/[{}]/g, (brace) => `\\${brace}`)
      .replace(/\n/g, breaks ? '\\N' : ' ')
  )
}

/** Segment-local frame as ASS time (h:mm:ss.cc), rounded down so the frame is inside. */
export function assTime(frame: number, fps: number): string {
  const cs = Math.max(0, Math.floor((frame * 100) / fps + 1e-9))
  const h = Math.floor(cs / 360_000)
  const m = Math.floor(cs / 6000) % 60
  const s = Math.floor(cs / 100) % 60
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${h}:${pad(m)}:${pad(s)}.${pad(cs % 100)}`
}

const ALIGNMENT: Record<CaptionPosition, number> = { bottom: 2, middle: 5, top: 8 }

const STYLE_FORMAT =
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding'
const EVENT_FORMAT =
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text'

function header(preset: Pick<VideoPreset, 'width' | 'height'>, styles: string[]): string[] {
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${preset.width}`,
    `PlayResY: ${preset.height}`,
    // Lines are laid out by captionEvents; libass never wraps them.
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: TV.709',
    '',
    '[V4+ Styles]',
    STYLE_FORMAT,
    ...styles,
    '',
    '[Events]',
    EVENT_FORMAT,
  ]
}

/** The ASS style line of a caption look at a preset's size. */
function captionStyleLine(
  look: CaptionLook,
  preset: Pick<VideoPreset, 'width' | 'height'>,
): string {
  const scale = preset.height / 1080
  const bold = look.captionStyle === 'bold'
  const size = Math.round(look.captionSize * scale * (bold ? BOLD_SIZE_FACTOR : 1))
  const margin = Math.round(preset.height * SUBTITLE_BOTTOM_MARGIN_FRACTION)
  const side = Math.round((preset.width * (1 - SUBTITLE_MAX_WIDTH_FRACTION)) / 2)
  const alignment = ALIGNMENT[look.captionPosition]
  const box = assColor('#000000', BOX_ALPHA)
  // Classic and word-highlight: one box behind the whole caption (BorderStyle 4, libass
  // 0.17+, Debian 12's: the box in BackColour, the outline width as its padding, the outline
  // itself transparent); BorderStyle 3 would box each run of glyphs, and a lit word's box
  // would overlap its neighbours'. Bold: a thick black outline and a soft shadow, no box.
  const border = bold
    ? [
        assColor('#000000'),
        assColor('#000000', 0.5),
        -1,
        1,
        Math.max(2, Math.round(size / 12)),
        Math.round(size / 20),
      ]
    : [assColor('#000000', 0), box, -1, 4, Math.max(2, Math.round(size / 5)), 0]
  const [outline, back, weight, borderStyle, outlineWidth, shadow] = border
  return [
    'Style: Caption',
    look.captionFont,
    size,
    assColor(look.captionColor),
    assColor(look.captionColor),
    outline,
    back,
    weight,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    borderStyle,
    outlineWidth,
    shadow,
    alignment,
    side,
    side,
    margin,
    1,
  ].join(',')
}

function dialogue(
  start: number,
  end: number,
  fps: number,
  text: string,
  style = 'Caption',
): string {
  return `Dialogue: 0,${assTime(start, fps)},${assTime(end, fps)},${style},,0,0,0,,${text}`
}

/**
 * The captions of one segment as an ASS document (pure): `classic` and `bold` show each
 * caption from its start to its end; `word-highlight` shows it once per spoken word, that
 * word in the highlight colour (from when it is spoken until the next word starts), so the
 * spoken word lights up frame-exactly without karaoke timing tags.
 * @param fps the video's frame rate (frames become ASS centiseconds, rounded down)
 */
export function captionsAss(
  captions: readonly AssCaption[],
  look: CaptionLook,
  preset: Pick<VideoPreset, 'width' | 'height' | 'fps'>,
): string {
  const lines = header(preset, [captionStyleLine(look, preset)])
  // An override colour is &HBBGGRR& (no alpha).
  const highlight = `${assColor(look.captionHighlight).replace('&H00', '&H')}&`
  for (const caption of captions) {
    if (caption.endFrame <= caption.startFrame) continue
    const words = caption.lines.flat()
    const textOf = (lit: number) => {
      let i = 0
      return caption.lines
        .map((line) =>
          line
            .map((word) => {
              const text = escapeAssText(word.text)
              const out = i === lit ? `{\\c${highlight}}${text}{\\r}` : text
              i++
              return out
            })
            .join(' '),
        )
        .join('\\N')
    }
    if (look.captionStyle !== 'word-highlight') {
      lines.push(dialogue(caption.startFrame, caption.endFrame, preset.fps, textOf(-1)))
      continue
    }
    // One event per stretch in which the same word is lit (none before the first word).
    const event = {
      startMs: caption.startFrame,
      endMs: caption.endFrame,
      lines: caption.lines.map((line) =>
        line.map((w) => ({ text: w.text, startMs: w.frame, endMs: w.frame })),
      ),
    }
    const cuts = [...new Set([caption.startFrame, ...words.map((w) => w.frame)])]
      .filter((f) => f >= caption.startFrame && f < caption.endFrame)
      .sort((a, b) => a - b)
    cuts.forEach((from, k) => {
      const to = cuts[k + 1] ?? caption.endFrame
      lines.push(dialogue(from, to, preset.fps, textOf(spokenWord(event, from))))
    })
  }
  return `${lines.join('\n')}\n`
}

/** A title or end card's text and colours (issue 24 item 1). */
export interface CardLook {
  text: string
  color: string
  background: string
  font: CaptionFont
}

/** A card's text as an ASS document (pure): centred, bold, shown for the whole segment. */
export function cardAss(card: CardLook, preset: Pick<VideoPreset, 'width' | 'height'>): string {
  const size = Math.round((preset.height / 1080) * 96)
  const side = Math.round((preset.width * (1 - SUBTITLE_MAX_WIDTH_FRACTION)) / 2)
  const style = [
    'Style: Card',
    card.font,
    size,
    assColor(card.color),
    assColor(card.color),
    assColor(card.background),
    assColor(card.background),
    -1,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    1,
    0,
    0,
    5,
    side,
    side,
    0,
    1,
  ].join(',')
  const lines = header(preset, [style])
  // WrapStyle 2 wraps nothing: a long title wraps by the words here, at most ~24 a line.
  const words = escapeAssText(card.text, { breaks: true })
    .split('\\N')
    .map((l) => wrap(l, 24))
  lines.push(`Dialogue: 0,0:00:00.00,9:59:59.99,Card,,0,0,0,,${words.join('\\N')}`)
  return `${lines.join('\n')}\n`
}

function wrap(line: string, width: number): string {
  const out: string[] = []
  let current = ''
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current)
      current = word
    } else current = current ? `${current} ${word}` : word
  }
  if (current) out.push(current)
  return out.join('\\N')
}

/** Where a caption's words are, for the segment-local layout of {@link captionsAss}. */
export function captionFrames(
  event: CaptionEvent,
  toFrame: (narrationMs: number) => number,
): AssCaption {
  return {
    startFrame: toFrame(event.startMs),
    endFrame: toFrame(event.endMs),
    lines: event.lines.map((line) =>
      line.map((word) => ({ text: word.text, frame: toFrame(word.startMs) })),
    ),
  }
}
