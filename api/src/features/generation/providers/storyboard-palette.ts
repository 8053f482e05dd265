import type { SeededRandom } from './seeded-random.ts'
import type { Temperature, TimeOfDay } from './storyboard-vocabulary.ts'

/**
 * The storyboard frame's palette (issue 20 item 4): a sky, land and sea for each time of day
 * the light words name (day, dawn, sunset, night), leaning warm or cold when the prompt
 * says so, and varied a little by the seed.
 */

/** A colour as hue (degrees), saturation and lightness (percent). */
export interface Tone {
  h: number
  s: number
  l: number
}

/** The colours of one light: the sky top to horizon, land, sea, low sun, and a tint over all. */
export interface Sky {
  top: Tone
  middle: Tone
  horizon: Tone
  land: Tone
  sea: Tone
  sun: Tone | null
  shade: Tone
  shadeOpacity: number
}

/** The palette of each time of day, before the warm or cold tint and the seed's variation. */
const SKIES: Readonly<Record<TimeOfDay, Sky>> = {
  day: {
    top: { h: 212, s: 62, l: 52 },
    middle: { h: 205, s: 65, l: 68 },
    horizon: { h: 195, s: 60, l: 85 },
    land: { h: 105, s: 34, l: 42 },
    sea: { h: 203, s: 62, l: 42 },
    sun: null,
    shade: { h: 0, s: 0, l: 0 },
    shadeOpacity: 0,
  },
  dawn: {
    top: { h: 228, s: 40, l: 46 },
    middle: { h: 290, s: 28, l: 66 },
    horizon: { h: 32, s: 85, l: 80 },
    land: { h: 140, s: 22, l: 30 },
    sea: { h: 225, s: 38, l: 45 },
    sun: { h: 45, s: 100, l: 82 },
    shade: { h: 30, s: 80, l: 60 },
    shadeOpacity: 0.05,
  },
  sunset: {
    top: { h: 262, s: 42, l: 28 },
    middle: { h: 335, s: 58, l: 52 },
    horizon: { h: 32, s: 92, l: 62 },
    land: { h: 285, s: 24, l: 19 },
    sea: { h: 255, s: 32, l: 30 },
    sun: { h: 42, s: 100, l: 72 },
    shade: { h: 20, s: 85, l: 55 },
    shadeOpacity: 0.08,
  },
  night: {
    top: { h: 232, s: 55, l: 7 },
    middle: { h: 228, s: 48, l: 15 },
    horizon: { h: 222, s: 40, l: 27 },
    land: { h: 232, s: 26, l: 11 },
    sea: { h: 224, s: 45, l: 16 },
    sun: null,
    shade: { h: 230, s: 60, l: 10 },
    shadeOpacity: 0.28,
  },
}

/** Hue the warm and cold tints lean toward, in degrees, and how far. */
const TINT: Readonly<Record<Temperature, { hue: number; by: number; s: number; l: number }>> = {
  neutral: { hue: 0, by: 0, s: 0, l: 0 },
  warm: { hue: 35, by: 16, s: 8, l: 0 },
  cold: { hue: 212, by: 16, s: -14, l: 3 },
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))

/** `tone` as a CSS colour. */
export function css(tone: Tone): string {
  const h = Math.round(((tone.h % 360) + 360) % 360)
  return `hsl(${h}, ${Math.round(clamp(tone.s, 0, 100))}%, ${Math.round(clamp(tone.l, 0, 100))}%)`
}

/** `tone` with its hue moved toward `hue` by at most `by` degrees. */
export function lean(tone: Tone, hue: number, by: number): Tone {
  const d = ((hue - tone.h + 540) % 360) - 180
  return { ...tone, h: tone.h + Math.sign(d) * Math.min(Math.abs(d), by) }
}

/** `tone` lighter by `dl` and more saturated by `ds` (percentage points). */
export function shift(tone: Tone, dl: number, ds = 0): Tone {
  return { h: tone.h, s: tone.s + ds, l: tone.l + dl }
}

/** The palette for a light, varied by the seed: hues within ±10°, lightness within ±3. */
export function palette(time: TimeOfDay, temperature: Temperature, random: SeededRandom): Sky {
  const sky = SKIES[time]
  const tint = TINT[temperature]
  const hue = (random.next() - 0.5) * 20
  const light = (random.next() - 0.5) * 6
  const vary = (tone: Tone): Tone => {
    const leaned = tint.by > 0 ? lean(tone, tint.hue, tint.by) : tone
    return { h: leaned.h + hue, s: leaned.s + tint.s, l: leaned.l + tint.l + light }
  }
  return {
    ...sky,
    top: vary(sky.top),
    middle: vary(sky.middle),
    horizon: vary(sky.horizon),
    land: vary(sky.land),
    sea: vary(sky.sea),
  }
}
