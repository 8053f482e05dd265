import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { keywordIndex } from './storyboard-keywords.ts'
import {
  FALLBACK_NOUNS,
  FILLER_SCENERY,
  LIGHT_SKY,
  NOUNS,
  WAVE_NOUN,
  type Noun,
} from './storyboard-vocabulary.ts'

/**
 * The illustrations of the offline storyboard frames (issue 20 item 4; ADR 016): Microsoft's
 * Fluent Emoji, flat style (MIT; the artwork's licence, not only the package's), read from
 * `@iconify-json/fluent-emoji-flat`, plus the few things Unicode has no emoji for (a
 * lighthouse, a ship's wheel), drawn here in the same flat style. Each is SVG markup in its
 * own coordinate box, placed by the frame's composer with a transform.
 */

/** One illustration: SVG markup drawn in the box `left, top, width, height`. */
export interface Art {
  body: string
  left: number
  top: number
  width: number
  height: number
}

const round = (n: number) => Math.round(n * 100) / 100

/** x of the lighthouse tower's edge at height `y` (it narrows from 10 wide at y 25.5 to 6 at y 10). */
function towerEdge(y: number, side: -1 | 1): number {
  const half = 3 + ((y - 10) / 15.5) * 2
  return round(16 + side * half)
}

function towerBand(top: number, bottom: number): string {
  const points = [
    [towerEdge(top, -1), top],
    [towerEdge(top, 1), top],
    [towerEdge(bottom, 1), bottom],
    [towerEdge(bottom, -1), bottom],
  ]
  return `<path fill="#f8312f" d="M${points.map((p) => p.join(' ')).join('L')}Z"/>`
}

/** A lighthouse on its rock, in a 32-unit box: white tower, red bands, lit lantern. */
const LIGHTHOUSE = [
  '<path fill="#636363" d="M2 30c0-2.8 2.4-4.6 5.6-4.4c1.6-1.5 4.3-1.9 6.4-1c2-1.1 4.8-1 6.8.2c3-.5 6.6.9 7.8 3.4c.4.6.4 1.2.4 1.8z"/>',
  '<path fill="#9b9b9b" d="M7.6 25.6c1.6-1.5 4.3-1.9 6.4-1l-1.4 2.6l-3.8.4zm13.2-.8c3-.5 6.6.9 7.8 3.4l-4.2-.6z"/>',
  `<path fill="#f4f4f4" d="M${towerEdge(10, -1)} 10H${towerEdge(10, 1)}L${towerEdge(25.5, 1)} 25.5H${towerEdge(25.5, -1)}z"/>`,
  towerBand(13.5, 16.5),
  towerBand(19.5, 22.5),
  '<path fill="#7d4533" d="M15 25.5v-2a1 1 0 0 1 2 0v2z"/>',
  '<rect x="11.6" y="8.9" width="8.8" height="1.4" rx=".5" fill="#533566"/>',
  '<rect x="13.4" y="5.2" width="5.2" height="3.8" fill="#ffd53f"/>',
  '<path stroke="#533566" stroke-width=".5" d="M16 5.2v3.8"/>',
  '<path fill="#ca0b4a" d="M12.9 5.5c.4-2.2 1.6-3.4 3.1-3.4s2.7 1.2 3.1 3.4z"/>',
  '<circle cx="16" cy="1.9" r=".6" fill="#ca0b4a"/>',
].join('')

/** The lighthouse at night or dusk: beams from the lantern fade out far beyond its box. */
const LIGHTHOUSE_LIT = [
  '<defs>',
  '<linearGradient id="lighthouse-beam-left" x1="1" x2="0" y1="0" y2="0">',
  '<stop offset="0" stop-color="#fff6c8" stop-opacity=".6"/><stop offset="1" stop-color="#fff6c8" stop-opacity="0"/></linearGradient>',
  '<linearGradient id="lighthouse-beam-right" x1="0" x2="1" y1="0" y2="0">',
  '<stop offset="0" stop-color="#fff6c8" stop-opacity=".3"/><stop offset="1" stop-color="#fff6c8" stop-opacity="0"/></linearGradient>',
  '</defs>',
  '<path fill="url(#lighthouse-beam-left)" d="M16 7.1L-110-1v16.2z"/>',
  '<path fill="url(#lighthouse-beam-right)" d="M16 7.1L142 2.5v9.2z"/>',
  '<circle cx="16" cy="7.1" r="4.6" fill="#ffe680" fill-opacity=".45"/>',
  LIGHTHOUSE,
].join('')

function wheelSpokes(): string {
  const spokes: string[] = []
  const handles: string[] = []
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4 + Math.PI / 8
    const at = (r: number) => `${round(16 + r * Math.cos(a))} ${round(16 + r * Math.sin(a))}`
    spokes.push(`M${at(2.5)}L${at(11)}`)
    handles.push(`M${at(11.2)}L${at(14.6)}`)
  }
  return [
    `<path stroke="#f3ad61" stroke-width="1.5" stroke-linecap="round" d="${spokes.join('')}"/>`,
    `<path stroke="#d3883e" stroke-width="2.3" stroke-linecap="round" d="${handles.join('')}"/>`,
  ].join('')
}

/** A ship's wheel (helm): a wooden rim, eight spokes that end in handles, a hub. */
const SHIPS_WHEEL = [
  wheelSpokes(),
  '<circle cx="16" cy="16" r="9.6" fill="none" stroke="#a56953" stroke-width="2.6"/>',
  '<circle cx="16" cy="16" r="8.3" fill="none" stroke="#8d5b3f" stroke-width=".7"/>',
  '<circle cx="16" cy="16" r="3.1" fill="#8d5b3f"/>',
  '<circle cx="16" cy="16" r="1.4" fill="#f3ad61"/>',
].join('')

const box = (body: string): Art => ({ body, left: 0, top: 0, width: 32, height: 32 })

/** Illustrations drawn for Reelgraph (the project's own licence), by name. */
export const OWN_ART: Readonly<Record<string, Art>> = {
  lighthouse: box(LIGHTHOUSE),
  'lighthouse-lit': box(LIGHTHOUSE_LIT),
  'ships-wheel': box(SHIPS_WHEEL),
}

/**
 * Every illustration the vocabulary, the keyword index (the whole Fluent Emoji set but its
 * symbols, flags and skin-tone variants; issue 42 item 6) and the composer can ask for.
 */
export function artNames(): Set<string> {
  const nouns: Noun[] = [...NOUNS, ...FALLBACK_NOUNS, FILLER_SCENERY, WAVE_NOUN]
  for (const noun of Object.values(LIGHT_SKY)) if (noun) nouns.push(noun)
  const names = nouns.flatMap((noun) => [...noun.art, ...(noun.closeArt ?? [])])
  return new Set([...names, ...keywordIndex().icons.keys(), ...Object.keys(OWN_ART)])
}

/** The parts of an Iconify JSON icon set read here (`@iconify/types` IconifyJSON). */
interface IconSet {
  icons: Record<string, Partial<Omit<Art, 'body'>> & { body: string }>
  aliases?: Record<string, { parent: string }>
  width?: number
  height?: number
}

const require = createRequire(import.meta.url)

/**
 * Reads the icon set and keeps the icons the storyboard can draw (about 1,300 of its 3,200:
 * 2.7 MB of SVG markup; the file is 9 MB with the skin-tone variants and the symbols).
 */
async function loadArt(): Promise<ReadonlyMap<string, Art>> {
  const path = require.resolve('@iconify-json/fluent-emoji-flat/icons.json')
  const set = JSON.parse(await readFile(path, 'utf8')) as IconSet
  const art = new Map<string, Art>()
  for (const name of artNames()) {
    const own = OWN_ART[name]
    if (own) {
      art.set(name, own)
      continue
    }
    const icon = set.icons[name] ?? set.icons[set.aliases?.[name]?.parent ?? '']
    if (!icon) continue
    art.set(name, {
      body: icon.body,
      left: icon.left ?? 0,
      top: icon.top ?? 0,
      width: icon.width ?? set.width ?? 16,
      height: icon.height ?? set.height ?? 16,
    })
  }
  return art
}

let loading: Promise<ReadonlyMap<string, Art>> | null = null

/**
 * The storyboard illustrations by name, read once per process (the icon set is static
 * package data, so every process reads the same).
 * @throws when the icon set cannot be read (the package is missing); a later call tries again.
 */
export function storyboardArt(): Promise<ReadonlyMap<string, Art>> {
  loading ??= loadArt().catch((error: unknown) => {
    loading = null
    throw error
  })
  return loading
}
