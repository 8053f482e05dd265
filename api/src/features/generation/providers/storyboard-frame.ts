import { SUBTITLE_BAND_FRACTION } from '@reelgraph/media'
import { cutAtWord } from './builtin-topic.ts'
import { seededRandom, type SeededRandom } from './seeded-random.ts'
import { css, lean, palette, shift, type Sky } from './storyboard-palette.ts'
import {
  FALLBACK_NOUNS,
  FILLER_SCENERY,
  type Framing,
  LIGHT_SKY,
  type Noun,
  readShot,
  type ShotReading,
  type TimeOfDay,
  WAVE_NOUN,
} from './storyboard-vocabulary.ts'

/**
 * The offline storyboard frame as a picture (issue 20 item 4; ADR 016): a sky and a ground
 * (land or water) in a palette from the light words and the seed, illustrations picked by
 * the prompt's nouns and placed by its framing, one short title line near the top and a
 * small "Offline draft" mark. Composing (`composeFrame`, pure) is apart from drawing
 * (`storyboard-svg.ts`), so a test can draw the same frame without its illustrations and title.
 *
 * The bottom quarter, where the render burns in subtitles, holds only the background: no
 * illustration or text reaches below `1 - SUBTITLE_BAND_FRACTION` of the height.
 */

/** The mark every builtin frame carries. */
export const OFFLINE_MARK = 'Offline draft'

/**
 * Distance of the mark and the title from the frame's edges, as a fraction of the width
 * (left) and the height (top): the render's Ken Burns move crops at most 0.8 × (1 - 1/1.12)
 * ≈ 8.6% from a side (media `KEN_BURNS_MAX_ZOOM`, pan 0.2..0.8), so both stay in the video.
 */
const EDGE_SAFE = 0.09
/** Space kept free above the subtitle band, as a fraction of the height. */
const SUBTITLE_GAP = 0.015
/** Title font, as a fraction of the shorter side (52 px at 1080p: a title, not a caption). */
const TITLE_FONT = 0.05
/** Smallest title font before the title is cut, as a fraction of the shorter side. */
const TITLE_MIN_FONT = 0.034
/** Mark font, as a fraction of the shorter side (22 px at 1080p: small, still legible). */
const MARK_FONT = 0.02
/** Advance of a Latin character in DejaVu Sans Bold, in em (measured 0.55-0.6; err wide). */
const BOLD_CHAR_EM = 0.64
/** Advance of a CJK or full-width character, in em. */
const WIDE_CHAR_EM = 1.0
/** Places tried for a sky illustration before it is left out. */
const SKY_ATTEMPTS = 8
/** Stars in a night sky. */
const STAR_COUNT = 70

/** One illustration placed in the frame: its box's top-left corner and side, in pixels. */
export interface Placement {
  art: string
  x: number
  y: number
  size: number
  /** Mirrored left to right. */
  flip: boolean
  /** 0..1: scenery behind a close-up is faded. */
  opacity: number
  /** It gives light (the moon, the sun): drawn above the light's shade. */
  glows: boolean
}

/** A line of text: baseline start (the mark) or centre (the title), font size in pixels. */
export interface FrameText {
  text: string
  x: number
  y: number
  fontSize: number
}

/** What lies behind the illustrations: sky, ground, sun, stars, and the light's shade. */
export interface Background {
  /** Sky colours, top to horizon. */
  sky: [string, string, string]
  /** The horizon's y in pixels. */
  horizon: number
  /** Ground colours at the horizon and at the bottom edge. */
  ground: [string, string]
  water: boolean
  /** Far hills along the horizon (an SVG path), or null. */
  hills: { d: string; color: string } | null
  /** The low sun of dawn and sunset, sitting on the horizon (behind the ground). */
  sun: { x: number; y: number; r: number; color: string } | null
  /** Stars: x, y, radius and opacity. */
  stars: [number, number, number, number][]
  /** Glints on water: x, y, width, height. */
  glints: [number, number, number, number][]
  /** A far shore along the horizon for scenery seen across the water: top y, height, colour. */
  shore: { y: number; height: number; color: string } | null
  /** The near shore in front of the water, where things on land stand: its outline and colours. */
  quay: { d: string; colors: [string, string] } | null
  /** A tint over the picture for the light (night darkens, sunset warms). */
  shade: { color: string; opacity: number }
}

/** A composed storyboard frame, in pixels. */
export interface StoryboardFrame {
  width: number
  height: number
  background: Background
  /** Back to front. */
  illustrations: Placement[]
  title: FrameText | null
  mark: FrameText
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))
const px = (n: number) => Math.round(n * 10) / 10

function charEm(char: string, latin: number): number {
  // CJK, Hangul, full-width forms and emoji take about a full em.
  return (char.codePointAt(0) ?? 0) >= 0x2e80 ? WIDE_CHAR_EM : latin
}

/** Estimated width of `text` in em. */
export function textEm(text: string, latin = BOLD_CHAR_EM): number {
  let em = 0
  for (const char of text) em += charEm(char, latin)
  return em
}

/** The title at the largest font that fits `maxWidth` on one line, cut at a word if needed. */
function fitTitle(
  text: string,
  maxWidth: number,
  short: number,
): { text: string; fontSize: number } {
  const largest = Math.max(1, short * TITLE_FONT)
  const smallest = Math.max(1, short * TITLE_MIN_FONT)
  const fontSize = clamp(maxWidth / textEm(text), smallest, largest)
  let fitted = text
  let max = fitted.length
  while (textEm(fitted) * fontSize > maxWidth && max > 1) {
    max -= 1
    fitted = cutAtWord(text, max)
  }
  return { text: fitted, fontSize: px(fontSize) }
}

/** How each framing casts and scales its illustrations (sizes as fractions of `fit`). */
interface FramingRule {
  subjects: number
  scenery: number
  sky: number
  subjectSize: number
  scenerySize: number
  skySize: number
  /** Horizon, as a fraction of the height: its least value and its seeded range. */
  horizon: [number, number]
  hills: boolean
}

const FRAMINGS: Readonly<Record<Framing, FramingRule>> = {
  wide: {
    subjects: 3,
    scenery: 3,
    sky: 2,
    subjectSize: 0.42,
    scenerySize: 0.3,
    skySize: 0.2,
    horizon: [0.55, 0.06],
    hills: true,
  },
  medium: {
    subjects: 2,
    scenery: 2,
    sky: 1,
    subjectSize: 0.7,
    scenerySize: 0.34,
    skySize: 0.18,
    horizon: [0.6, 0.05],
    hills: true,
  },
  'close-up': {
    subjects: 1,
    scenery: 1,
    sky: 1,
    subjectSize: 0.96,
    scenerySize: 0.32,
    skySize: 0.16,
    horizon: [0.64, 0.04],
    hills: false,
  },
  detail: {
    subjects: 1,
    scenery: 0,
    sky: 0,
    subjectSize: 1.9,
    scenerySize: 0,
    skySize: 0,
    horizon: [0.44, 0.08],
    hills: false,
  },
}

interface Cast {
  subjects: Noun[]
  scenery: Noun[]
  sky: Noun[]
}

/** Who appears: the prompt's nouns by role, with fallbacks so a frame is never empty. */
function castOf(reading: ShotReading, rule: FramingRule, random: SeededRandom): Cast {
  const nouns = reading.nouns.map((match) => match.noun)
  let subjects = nouns.filter((noun) => noun.role === 'subject' || noun.role === 'afloat')
  let scenery = nouns.filter((noun) => noun.role === 'scenery')
  const sky = nouns.filter((noun) => noun.role === 'sky')
  if (subjects.length === 0) {
    if (scenery.length > 0) {
      subjects = [{ ...scenery[0]!, role: 'subject' }]
      scenery = scenery.slice(1)
    } else if (reading.water) {
      subjects = [WAVE_NOUN]
    } else {
      subjects = FALLBACK_NOUNS.filter((noun) => noun.role === 'subject')
      scenery = FALLBACK_NOUNS.filter((noun) => noun.role === 'scenery')
    }
  }
  const byLight = LIGHT_SKY[reading.time]
  if (byLight && sky.length === 0 && (reading.time === 'night' || random.next() < 0.7)) {
    sky.push(byLight)
  }
  if (reading.framing === 'wide' && !reading.water && scenery.length < 2) {
    scenery.push(FILLER_SCENERY)
  }
  return {
    subjects: subjects.slice(0, rule.subjects),
    scenery: scenery.slice(0, rule.scenery),
    sky: sky.slice(0, rule.sky),
  }
}

/** Centres for `sizes` across the width in shuffled cells, jittered within their cell. */
function spread(sizes: number[], width: number, random: SeededRandom): number[] {
  const n = sizes.length
  const left = width * 0.06
  const cell = (width * 0.88) / Math.max(1, n)
  const order = sizes.map((_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1))
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  return sizes.map((size, i) => {
    const room = Math.max(0, cell - size) / 2
    const centre = left + cell * (order[i]! + 0.5) + (random.next() - 0.5) * 2 * room
    return clamp(centre, size / 2, width - size / 2)
  })
}

function artFor(noun: Noun, framing: Framing, time: TimeOfDay, random: SeededRandom): string {
  const close = framing === 'close-up' || framing === 'detail'
  const art = random.pick(close && noun.closeArt ? noun.closeArt : noun.art)
  return art === 'lighthouse' && time !== 'day' ? 'lighthouse-lit' : art
}

/**
 * Composes the frame for `prompt` at `width` x `height` pixels: deterministic for the same
 * arguments; another seed moves, mirrors and recolours things.
 */
export function composeFrame(
  prompt: string,
  width: number,
  height: number,
  seed: number,
): StoryboardFrame {
  const random = seededRandom(seed)
  const reading = readShot(prompt)
  const rule = FRAMINGS[reading.framing]
  const short = Math.min(width, height)
  const sky = palette(reading.time, reading.temperature, random)

  // Text first: the illustrations start below it.
  const markFont = px(Math.max(1, short * MARK_FONT))
  const mark: FrameText = {
    text: OFFLINE_MARK,
    x: px(width * EDGE_SAFE),
    y: px(height * EDGE_SAFE + markFont),
    fontSize: markFont,
  }
  let title: FrameText | null = null
  let textBottom = mark.y + markFont * 0.6
  if (reading.title) {
    const fitted = fitTitle(reading.title, width * (1 - 2 * EDGE_SAFE), short)
    const y = mark.y + markFont * 0.9 + fitted.fontSize * 1.15
    title = { text: fitted.text, x: px(width / 2), y: px(y), fontSize: fitted.fontSize }
    textBottom = y + fitted.fontSize * 0.3
  }

  // The region illustrations may use: below the text, above the subtitle band.
  const bottom = Math.floor(height * (1 - SUBTITLE_BAND_FRACTION) - height * SUBTITLE_GAP)
  const top = Math.min(bottom * 0.5, Math.max(height * 0.2, textBottom + height * 0.02))
  const fit = Math.max(1, Math.min(bottom - top, width))
  const horizon = height * (rule.horizon[0] + random.next() * rule.horizon[1])

  const cast = castOf(reading, rule, random)
  // By the sea, whatever stands on land stands on a near shore in front of the water.
  const onLand = cast.subjects.some((noun) => noun.role === 'subject' && noun !== WAVE_NOUN)
  const quay =
    reading.water && onLand && reading.framing !== 'detail'
      ? horizon + (bottom - horizon) * (reading.framing === 'wide' ? 0.5 : 0.6)
      : null
  const placed: Placement[] = []
  const place = (noun: Noun, size: number, cx: number, bottomY: number, opacity = 1) => {
    const y = Math.min(bottomY, bottom) - size
    placed.push({
      art: artFor(noun, reading.framing, reading.time, random),
      x: px(cx - size / 2),
      y: px(y),
      size: px(size),
      flip: !noun.fixed && random.next() < 0.5,
      opacity,
      glows: noun.glows === true,
    })
  }

  if (reading.framing === 'detail') {
    const size = fit * rule.subjectSize
    const side = random.next() < 0.5 ? -1 : 1
    place(cast.subjects[0]!, size, width * (0.5 + side * (0.12 + random.next() * 0.1)), bottom)
  } else if (reading.framing === 'close-up') {
    const noun = cast.subjects[0]!
    const size = Math.min(fit, fit * rule.subjectSize * Math.min(noun.scale ?? 1, 1.05))
    const cx = clamp(width * (0.35 + random.next() * 0.3), size / 2, width - size / 2)
    for (const back of cast.scenery) {
      const s = fit * rule.scenerySize * (back.scale ?? 1)
      const other = cx < width / 2 ? 0.82 : 0.18
      place(back, s, width * other, horizon + height * 0.01, 0.6)
    }
    place(noun, size, cx, bottom)
  } else {
    const scenerySizes = cast.scenery.map((noun) => fit * rule.scenerySize * (noun.scale ?? 1))
    spread(scenerySizes, width, random).forEach((cx, i) => {
      place(cast.scenery[i]!, scenerySizes[i]!, cx, horizon + height * 0.012)
    })
    const n = cast.subjects.length
    const widthCap = (width * 0.84) / (n + 0.4)
    const sizes = cast.subjects.map((noun) =>
      Math.min(fit * rule.subjectSize * (noun.scale ?? 1), widthCap * (noun.scale ?? 1), fit),
    )
    const xs = spread(sizes, width, random)
    const ground = cast.subjects
      .map((noun, i) => {
        const depth = reading.framing === 'wide' ? random.next() : 0.85 + random.next() * 0.15
        const afloat = noun.role === 'afloat'
        const from = afloat
          ? horizon + (bottom - horizon) * 0.3
          : (quay ?? horizon + (bottom - horizon) * 0.45) + height * 0.02
        const to = afloat && quay !== null ? quay : bottom
        return { noun, i, y: from + (to - from) * depth }
      })
      .sort((a, b) => a.y - b.y)
    for (const { noun, i, y } of ground) place(noun, sizes[i]!, xs[i]!, y)
  }

  // Sky: small, in the upper part, left or right of the middle, clear of everything else;
  // an item with no clear spot is left out (a moon never sits on a face).
  const skySize = fit * rule.skySize
  const skyStart = random.next() < 0.5 ? 0 : 1
  const margin = short * 0.03
  const clear = (x: number, y: number) =>
    placed.every(
      (other) =>
        x + skySize + margin <= other.x ||
        other.x + other.size + margin <= x ||
        y + skySize + margin <= other.y ||
        other.y + other.size + margin <= y,
    )
  cast.sky.forEach((noun, i) => {
    const low = Math.max(top, horizon - skySize - height * 0.05)
    for (let attempt = 0; attempt < SKY_ATTEMPTS; attempt++) {
      const side = (skyStart + i + attempt) % 2
      const cx = width * (side === 0 ? 0.12 + random.next() * 0.22 : 0.66 + random.next() * 0.22)
      const y = top + random.next() * Math.max(0, low - top)
      if (clear(cx - skySize / 2, y)) {
        place(noun, skySize, cx, y + skySize)
        break
      }
    }
  })

  const moon = placed.find((placement) => placement.art === 'crescent-moon')
  const moonX = moon ? moon.x + moon.size / 2 : null
  return {
    width,
    height,
    background: background(
      reading,
      rule,
      sky,
      { width, height, horizon, bottom },
      random,
      moonX,
      cast.scenery.length > 0 && reading.framing !== 'detail',
      quay,
    ),
    illustrations: placed,
    title,
    mark,
  }
}

function background(
  reading: ShotReading,
  rule: FramingRule,
  sky: Sky,
  frame: { width: number; height: number; horizon: number; bottom: number },
  random: SeededRandom,
  /** Where a moon hangs, if one does: its light lies on the water below it. */
  moonX: number | null,
  /** Scenery stands on the horizon: across water it needs a shore. */
  scenery: boolean,
  /** The near shore's top edge, if there is one. */
  quayY: number | null,
): Background {
  const { width, height, horizon } = frame
  const short = Math.min(width, height)
  const water = reading.water
  const base = water ? sky.sea : sky.land
  const ground: [string, string] = water
    ? [css(shift(base, 3)), css(shift(base, -10))]
    : [css(shift(base, 6)), css(shift(base, -9))]

  let hills: Background['hills'] = null
  if (rule.hills && !water) {
    const humps = 3 + Math.floor(random.next() * 2)
    const step = width / humps
    let d = `M0 ${px(horizon + 2)}`
    for (let i = 0; i < humps; i++) {
      const peak = horizon - height * (0.025 + random.next() * 0.06)
      d += `Q${px(step * (i + 0.5))} ${px(peak)} ${px(step * (i + 1))} ${px(horizon + 2)}`
    }
    hills = { d: `${d}Z`, color: css(shift(lean(sky.land, sky.horizon.h, 40), 12, -8)) }
  }

  let sun: Background['sun'] = null
  if (sky.sun) {
    const r = short * 0.085
    sun = {
      x: px(width * (0.25 + random.next() * 0.5)),
      y: px(horizon - r * 0.3),
      r: px(r),
      color: css(sky.sun),
    }
  }

  const stars: Background['stars'] = []
  if (reading.time === 'night') {
    for (let i = 0; i < STAR_COUNT; i++) {
      stars.push([
        px(random.next() * width),
        px(random.next() * horizon * 0.92),
        px(short * (0.0012 + random.next() * 0.0024)),
        Math.round((0.35 + random.next() * 0.6) * 100) / 100,
      ])
    }
  }

  const glints: Background['glints'] = []
  if (water) {
    const lowest = frame.bottom
    for (let i = 0; i < 7; i++) {
      const w = width * (0.04 + random.next() * 0.1)
      const y = horizon + (lowest - horizon) * (0.1 + random.next() * 0.85)
      glints.push([px(random.next() * (width - w)), px(y), px(w), px(Math.max(1, short * 0.004))])
    }
    const light = sun
      ? { x: sun.x, r: sun.r }
      : moonX !== null
        ? { x: moonX, r: short * 0.05 }
        : null
    if (light) {
      for (let i = 0; i < 5; i++) {
        const w = light.r * (1.6 - i * 0.25)
        const y = horizon + (lowest - horizon) * (0.08 + i * 0.16)
        glints.push([px(light.x - w / 2), px(y), px(w), px(Math.max(1, short * 0.006))])
      }
    }
  }

  return {
    sky: [css(sky.top), css(sky.middle), css(sky.horizon)],
    horizon: px(horizon),
    ground,
    water,
    hills,
    sun,
    stars,
    glints,
    shore:
      water && scenery
        ? {
            y: px(horizon - height * 0.006),
            height: px(height * 0.03),
            color: css(shift(sky.land, 4)),
          }
        : null,
    quay:
      quayY === null
        ? null
        : {
            d: `M0 ${px(quayY + height * 0.01 * random.next())}Q${px(width * (0.3 + random.next() * 0.4))} ${px(quayY - height * 0.015)} ${width} ${px(quayY + height * 0.01 * random.next())}V${height}H0Z`,
            colors: [css(shift(sky.land, 5)), css(shift(sky.land, -9))],
          },
    shade: { color: css(sky.shade), opacity: sky.shadeOpacity },
  }
}
