import { z } from 'zod'
import { NODE_ID_PATTERN } from './graph.ts'
import {
  CAPTION_FONTS,
  CAPTION_POSITIONS,
  CAPTION_STYLES,
  type CaptionsInput,
  COLOR_PATTERN,
} from './caption-style.ts'
import type { VideoScene } from './video.ts'

/**
 * The Video node's timeline (issue 24 item 1): the finishing stage, part of the project's
 * document as CRDT structures, so two people editing different cuts at once both keep their
 * edits, and every edit is checked by the sync server like any other.
 *
 * Document shape (beside `nodes` and `connections`): one top-level Y.Map `timelines` of flat
 * registers, one per field, keyed by {@link cutFieldKey} (`<video id>/cut/<cut id>/<field>`)
 * and {@link settingKey} (`<video id>/settings/<field>`). Flat on purpose: a nested Y.Map
 * made by two people at once is kept from one of them only, with every edit the other made
 * inside it; a register per field keeps each edit that touched another field.
 *
 * A cut is a piece of one scene in the film ({@link CUT_FIELDS}): its place, its in and out
 * points (a clip) or its length (a still), the transition into it, whether it was removed
 * from the film. A scene's first cut has the id {@link defaultCutId}, so two people who touch
 * a new scene at once write the same cut; a split makes a cut of its own. The place is two
 * fractional indexes: `order`, where the cut was laid out (written the same by anyone who
 * lays the film out from the same state), and `movedTo`, where a person moved it (written by
 * moves only, so laying out never undoes a move made at the same time).
 *
 * The timeline follows the graph ({@link effectiveTimeline}): a scene without a placed cut is
 * appended, a cut whose scene left is dropped, and a cut is never shorter than its narration
 * (`timeline-plan.ts`), so new narration lengthens its cut.
 */

/** The top-level map of timeline registers in a project's document. */
export const DOC_TIMELINES_KEY = 'timelines'

/** How a cut starts from the one before it. */
export const TRANSITIONS = ['cut', 'crossfade', 'dip', 'wipe', 'slide'] as const
export type TransitionType = (typeof TRANSITIONS)[number]

/** At most this many cuts in one timeline. */
export const MAX_TIMELINE_CUTS = 300
/** Longest transition, in ms. */
export const MAX_TRANSITION_MS = 3_000
/** Longest still, card or trim point, in ms (10 minutes). */
export const MAX_CUT_MS = 600_000
/** Longest card or caption text, in characters. */
export const MAX_CARD_TEXT_LENGTH = 200
/** A cut id: letters, digits, `:`, `-` and `_`, at most 80 (a node id fits after `scene:`). */
export const CUT_ID_PATTERN = /^[A-Za-z0-9:_-]{1,80}$/
/** A fractional index (the `fractional-indexing` package's base-62 keys), at most 64. */
export const ORDER_KEY_PATTERN = /^[0-9A-Za-z]{1,64}$/
/** The builtin background music tracks (media synthesizes them): `builtin:<name>` in a timeline. */
export const MUSIC_TRACKS = ['calm-pad', 'warm-pad'] as const
export type MusicTrack = (typeof MUSIC_TRACKS)[number]

/**
 * A timeline's music: '' (none), a builtin track (`builtin:<name>`, one of `MUSIC_TRACKS`),
 * or an audio file uploaded to the project (`/api/assets/<id>`, a FLAC, or a PCM WAV when
 * uploaded before issue 40): never an address a person typed.
 */
export const MUSIC_PATTERN = /^(|builtin:[a-z0-9-]{1,40}|\/api\/assets\/[a-z2-7]{32})$/

/** The id of a scene's first cut (the one a new scene gets). */
export function defaultCutId(sceneId: string): string {
  return `scene:${sceneId}`
}

const ms = z.number().finite().min(0).max(MAX_CUT_MS)

const orderKey = z.string().regex(ORDER_KEY_PATTERN)

/** A cut's stored fields; {@link readTimeline} reads each missing or mistyped one as its default. */
export const cutFieldsSchema = z.object({
  /** The scene node it shows (its clip, else its image). */
  sceneId: z.string().regex(NODE_ID_PATTERN),
  /** Where it was laid out: cuts play in ascending place (`movedTo`, else `order`; then id). */
  order: orderKey.optional().catch(undefined),
  /** Where a person moved it; wins over `order`. */
  movedTo: orderKey.optional().catch(undefined),
  /** A clip's in point, in ms from the clip's start. */
  inMs: ms.catch(0),
  /** A clip's out point, in ms from the clip's start; 0: as the plan decides (`timeline-plan.ts`). */
  outMs: ms.catch(0),
  /** A still's length, in ms; 0 (or less than its narration): its narration's length. */
  holdMs: ms.catch(0),
  /** How it starts from the piece before (the first cut's counts only after a title card). */
  transition: z.enum(TRANSITIONS).catch('crossfade'),
  /** The transition's length, in ms (unused for a plain cut). */
  transitionMs: z.number().finite().min(0).max(MAX_TRANSITION_MS).catch(500),
  /** Taken out of the film by a person (the scene stays in the graph). */
  removed: z.boolean().catch(false),
})
export type CutFields = z.infer<typeof cutFieldsSchema>
/** The fields a cut may store. */
export const CUT_FIELDS = Object.keys(cutFieldsSchema.shape) as (keyof CutFields)[]

/** The register of field `field` of cut `cutId` of Video node `videoId`. */
export function cutFieldKey(videoId: string, cutId: string, field: keyof CutFields): string {
  return `${videoId}/cut/${cutId}/${field}`
}

/** The register of setting `field` of Video node `videoId`'s timeline. */
export function settingKey(videoId: string, field: keyof TimelineSettings): string {
  return `${videoId}/settings/${field}`
}

/** A register key taken apart; null when it is not one ({@link cutFieldKey}, {@link settingKey}). */
export type TimelineKey =
  | { videoId: string; kind: 'cut'; cutId: string; field: string }
  | { videoId: string; kind: 'settings'; field: string }

/** Takes a register key apart (the field is not checked against the known ones). */
export function parseTimelineKey(key: string): TimelineKey | null {
  const parts = key.split('/')
  const videoId = parts[0] ?? ''
  if (!NODE_ID_PATTERN.test(videoId)) return null
  if (parts.length === 4 && parts[1] === 'cut' && CUT_ID_PATTERN.test(parts[2]!)) {
    return { videoId, kind: 'cut', cutId: parts[2]!, field: parts[3]! }
  }
  if (parts.length === 3 && parts[1] === 'settings') {
    return { videoId, kind: 'settings', field: parts[2]! }
  }
  return null
}

const color = (fallback: string) => z.string().regex(COLOR_PATTERN).catch(fallback)
const cardText = z.string().max(MAX_CARD_TEXT_LENGTH).catch('')

/** A timeline's settings, each read tolerantly. */
export const timelineSettingsSchema = z.object({
  /** '' (none), `builtin:<track>` (media's MUSIC_TRACKS) or an audio asset's URL of the project. */
  music: z.string().regex(MUSIC_PATTERN).catch(''),
  /** Music level, 0..1 of full scale before ducking. */
  musicVolume: z.number().min(0).max(1).catch(0.5),
  musicFadeInMs: ms.catch(1_000),
  musicFadeOutMs: ms.catch(2_000),
  /** How far the music ducks under the voice, in dB. */
  musicDuckDb: z.number().min(0).max(40).catch(12),
  titleText: cardText,
  titleColor: color('#ffffff'),
  titleBackground: color('#111111'),
  /** The title card's length, in ms; 0: no title card. */
  titleMs: ms.catch(0),
  endText: cardText,
  endColor: color('#ffffff'),
  endBackground: color('#111111'),
  endMs: ms.catch(0),
  captionStyle: z.enum(CAPTION_STYLES).catch('classic'),
  captionFont: z.enum(CAPTION_FONTS).catch('Inter'),
  /** Caption size in px at a 1080 px frame height (scaled with the preset). */
  captionSize: z.number().int().min(24).max(160).catch(54),
  captionColor: color('#ffffff'),
  /** The spoken word's colour in `word-highlight`. */
  captionHighlight: color('#ffd400'),
  captionPosition: z.enum(CAPTION_POSITIONS).catch('bottom'),
  /** Most words on one caption line. */
  captionMaxWords: z.number().int().min(1).max(12).catch(7),
})
export type TimelineSettings = z.infer<typeof timelineSettingsSchema>
/** The keys a timeline's settings Y.Map may hold. */
export const TIMELINE_SETTING_FIELDS = Object.keys(
  timelineSettingsSchema.shape,
) as (keyof TimelineSettings)[]

/** A timeline's settings with every default. */
export const DEFAULT_TIMELINE_SETTINGS: TimelineSettings = timelineSettingsSchema.parse({})

/** `settings` with the caption fields of `captions` over them. */
export function withCaptions(
  settings: TimelineSettings,
  captions?: CaptionsInput,
): TimelineSettings {
  if (!captions) return settings
  return { ...settings, ...captionSettings(captions) }
}

/**
 * The timeline settings a caption look (`POST /api/video/make`'s `captions`) stands for: the
 * style and each field it gives. Make video writes them onto its Video node's timeline, so the
 * node keeps the look for later renders (issue 42 item 2: a template's bold word captions).
 */
export function captionSettings(captions: CaptionsInput): Partial<TimelineSettings> {
  return {
    captionStyle: captions.style,
    ...(captions.font && { captionFont: captions.font }),
    ...(captions.size && { captionSize: captions.size }),
    ...(captions.color && { captionColor: captions.color }),
    ...(captions.highlight && { captionHighlight: captions.highlight }),
    ...(captions.position && { captionPosition: captions.position }),
    ...(captions.maxWords && { captionMaxWords: captions.maxWords }),
  }
}

/** A cut as stored, with its id. */
export interface TimelineCut extends CutFields {
  id: string
}

/** A Video node's timeline as stored: its cuts (any order) and its settings. */
export interface StoredTimeline {
  cuts: TimelineCut[]
  settings: TimelineSettings
}

/**
 * Video node `videoId`'s stored timeline ({@link readTimeline}), or null when no register of
 * it was ever written (the film is the graph's default one).
 */
export function storedTimelineOf(
  entries: Iterable<readonly [string, unknown]>,
  videoId: string,
): StoredTimeline | null {
  const list = [...entries]
  const prefix = `${videoId}/`
  return list.some(([key]) => key.startsWith(prefix)) ? readTimeline(list, videoId) : null
}

/**
 * Reads Video node `videoId`'s stored timeline from the registers of `timelines` (a Y.Map's
 * `entries()`, or any key/value pairs). A cut whose scene is unknown is skipped (a default cut
 * knows its scene from its id); every other field reads as its default when missing or
 * mistyped, so a reader never fails on what a peer wrote.
 */
export function readTimeline(
  entries: Iterable<readonly [string, unknown]>,
  videoId: string,
): StoredTimeline {
  const rawCuts = new Map<string, Record<string, unknown>>()
  const rawSettings: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    if (!key.startsWith(`${videoId}/`)) continue
    const parsed = parseTimelineKey(key)
    if (parsed?.videoId !== videoId) continue
    if (parsed.kind === 'settings') rawSettings[parsed.field] = value
    else {
      const fields = rawCuts.get(parsed.cutId) ?? {}
      fields[parsed.field] = value
      rawCuts.set(parsed.cutId, fields)
    }
  }
  const cuts: TimelineCut[] = []
  for (const [id, fields] of rawCuts) {
    const sceneId = fields.sceneId ?? (id.startsWith('scene:') ? id.slice(6) : undefined)
    const parsed = cutFieldsSchema.safeParse({ ...fields, sceneId })
    if (parsed.success) cuts.push({ id, ...parsed.data })
  }
  return { cuts, settings: timelineSettingsSchema.parse(rawSettings) }
}

/** Where a cut of the film comes from, where it plays and whether it carries the narration. */
export interface FilmCut extends TimelineCut {
  /** Its scene, as the Video node collects it (narration, image, clip). */
  scene: VideoScene
  /** Its place in the film (`movedTo`, else `order`, else the one it is appended at). */
  place: string
  /** True for the first cut of its scene in the film: the one the narration plays over. */
  narrated: boolean
}

/** The film a timeline makes now. */
export interface EffectiveTimeline {
  /** The film's cuts in order: removed ones and ones whose scene left are not here. */
  cuts: FilmCut[]
  /** Cuts a person removed, in order (the timeline can put them back). */
  removed: FilmCut[]
  settings: TimelineSettings
}

const byPlace = (a: FilmCut, b: FilmCut) =>
  a.place < b.place ? -1 : a.place > b.place ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

/**
 * The film the timeline makes of the Video node's scenes (issue 24 item 1: the timeline
 * follows the graph): the cuts of scenes still there, by place; cuts without a place (a
 * scene nobody moved yet) and a default cut for every scene without any, appended after them
 * in scene order; a scene's first cut in the film carries its narration. Pure: nothing is
 * written.
 * @param appendOrder makes an order key after `after` (null: the first), e.g. the
 *   `fractional-indexing` package's `generateKeyBetween(after, null)`
 */
export function effectiveTimeline(
  stored: StoredTimeline,
  scenes: readonly VideoScene[],
  appendOrder: (after: string | null) => string,
): EffectiveTimeline {
  const sceneIndex = new Map(scenes.map((s, i) => [s.nodeId, i]))
  const present = stored.cuts.filter((c) => sceneIndex.has(c.sceneId))
  const placed: FilmCut[] = []
  const unplaced: TimelineCut[] = []
  for (const cut of present) {
    const place = cut.movedTo ?? cut.order
    const scene = scenes[sceneIndex.get(cut.sceneId)!]!
    if (place === undefined) unplaced.push(cut)
    else placed.push({ ...cut, scene, place, narrated: false })
  }
  placed.sort(byPlace)
  const withCut = new Set(present.map((c) => c.sceneId))
  for (const scene of scenes) {
    if (!withCut.has(scene.nodeId)) {
      unplaced.push({ id: defaultCutId(scene.nodeId), sceneId: scene.nodeId, ...DEFAULT_CUT })
    }
  }
  unplaced.sort(
    (a, b) => sceneIndex.get(a.sceneId)! - sceneIndex.get(b.sceneId)! || (a.id < b.id ? -1 : 1),
  )
  let last = placed.at(-1)?.place ?? null
  const all = [...placed]
  for (const cut of unplaced) {
    last = appendOrder(last)
    all.push({ ...cut, scene: scenes[sceneIndex.get(cut.sceneId)!]!, place: last, narrated: false })
  }
  const narrated = new Set<string>()
  const film: FilmCut[] = []
  const removed: FilmCut[] = []
  for (const cut of all) {
    cut.narrated = !cut.removed && !narrated.has(cut.sceneId)
    if (cut.narrated) narrated.add(cut.sceneId)
    ;(cut.removed ? removed : film).push(cut)
  }
  return { cuts: film, removed, settings: stored.settings }
}

/** What a new cut starts with (besides its id, scene and place). */
export const DEFAULT_CUT: Omit<CutFields, 'sceneId' | 'order' | 'movedTo'> = {
  inMs: 0,
  outMs: 0,
  holdMs: 0,
  transition: 'crossfade',
  transitionMs: 500,
  removed: false,
}
