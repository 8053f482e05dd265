import { generateKeyBetween } from 'fractional-indexing'
import type * as Y from 'yjs'
import {
  type CutFields,
  cutFieldKey,
  DOC_TIMELINES_KEY,
  type EffectiveTimeline,
  effectiveTimeline,
  type FilmCut,
  readTimeline,
  settingKey,
  type StoredTimeline,
  type TimelineCut,
  type TimelineSettings,
} from './timeline.ts'
import type { VideoScene } from './video.ts'

/**
 * Edits of a Video node's timeline in the project's Y.Doc (issue 24 item 1), each one Yjs
 * transaction that writes only the registers it changes: a move writes the moved cut's
 * `movedTo` (and the `order` of cuts never laid out, the same value anyone would write), a
 * trim its in or out point. So two people editing different cuts at once both keep their
 * edits, and two editing one field converge on one of them. Shape: `timeline.ts`.
 */

/** A register's value: what the timeline's fields hold. */
export type TimelineValue = string | number | boolean

/** The doc's map of timeline registers. */
export function getTimelinesMap(doc: Y.Doc): Y.Map<TimelineValue> {
  return doc.getMap<TimelineValue>(DOC_TIMELINES_KEY)
}

/** A Video node's stored timeline (empty when it has none yet). */
export function readDocTimeline(doc: Y.Doc, videoId: string): StoredTimeline {
  return readTimeline(getTimelinesMap(doc).entries(), videoId)
}

/** An order key after `after` (null: the first): fractional indexing, base 62. */
export function orderAfter(after: string | null): string {
  return generateKeyBetween(after, null)
}

/** The film a Video node's timeline makes of `scenes` now ({@link effectiveTimeline}). */
export function docFilm(
  doc: Y.Doc,
  videoId: string,
  scenes: readonly VideoScene[],
): EffectiveTimeline {
  return effectiveTimeline(readDocTimeline(doc, videoId), scenes, orderAfter)
}

function setField<K extends keyof CutFields>(
  doc: Y.Doc,
  videoId: string,
  cutId: string,
  field: K,
  value: CutFields[K],
): void {
  if (value === undefined) return
  const map = getTimelinesMap(doc)
  const key = cutFieldKey(videoId, cutId, field)
  if (map.get(key) !== value) map.set(key, value as TimelineValue)
}

/**
 * Writes the place of every cut of `film` that has none (a scene nobody moved yet): the one
 * it plays at now, the same any client laying out the same film writes.
 */
function layOut(doc: Y.Doc, videoId: string, film: readonly FilmCut[]): void {
  for (const c of film) {
    setField(doc, videoId, c.id, 'sceneId', c.sceneId)
    if (c.order === undefined && c.movedTo === undefined) {
      setField(doc, videoId, c.id, 'order', c.place)
    }
  }
}

/** Fields of a cut a person edits (its scene and place are not among them). */
export type CutEdit = Partial<Omit<CutFields, 'sceneId' | 'order' | 'movedTo'>>

/**
 * Writes `edit` to `cut` (as {@link docFilm} gives it): its scene and the fields that change.
 * Removing a cut (`removed: true`) takes it out of the film, never its scene out of the graph.
 */
export function editCut(
  doc: Y.Doc,
  videoId: string,
  cut: TimelineCut,
  edit: CutEdit,
  origin: unknown = null,
): void {
  doc.transact(() => {
    setField(doc, videoId, cut.id, 'sceneId', cut.sceneId)
    for (const [field, value] of Object.entries(edit) as [keyof CutEdit, never][]) {
      setField(doc, videoId, cut.id, field, value)
    }
  }, origin)
}

/**
 * Moves cut `cutId` so that it plays at index `to` of `film` (the film's cuts in order,
 * {@link docFilm}'s `cuts`): its `movedTo`, between its new neighbours' places, after every
 * cut of the film is laid out (`order` written where missing). When the neighbours share a
 * place (two people moved cuts to one spot at once), the ones after the gap move too, so the
 * cut lands exactly where it was dropped.
 * @throws RangeError when `cutId` is not in `film`.
 */
export function moveCut(
  doc: Y.Doc,
  videoId: string,
  film: readonly FilmCut[],
  cutId: string,
  to: number,
  origin: unknown = null,
): void {
  const from = film.findIndex((c) => c.id === cutId)
  if (from < 0) throw new RangeError(`No cut ${cutId} in this timeline`)
  const rest = film.filter((c) => c.id !== cutId)
  const index = Math.max(0, Math.min(to, rest.length))
  if (index === from) return
  doc.transact(() => {
    layOut(doc, videoId, film)
    const before = rest[index - 1]?.place ?? null
    let after = index
    while (after < rest.length && before !== null && rest[after]!.place <= before) after++
    const next = rest[after]?.place ?? null
    let key = generateKeyBetween(before, next)
    setField(doc, videoId, cutId, 'movedTo', key)
    // Cuts tied with the one before the gap (concurrent moves) follow the moved cut.
    for (let i = index; i < after; i++) {
      key = generateKeyBetween(key, next)
      setField(doc, videoId, rest[i]!.id, 'movedTo', key)
    }
  }, origin)
}

/**
 * Splits `cut` at `atMs` from its start into two cuts of one scene: the first keeps its id,
 * narration and transition in; the second, `newId`, follows it with a plain cut. A clip's
 * second part starts where the first ends in the clip; a still's length is shared.
 * @param input.lengthMs the cut's current length (the plan's), in ms
 * @param input.clipMs the clip's length, or null for a still
 * @param input.film the film's cuts in order ({@link docFilm}); the second part goes after `cut`
 * @throws RangeError when `atMs` is not inside the cut.
 */
export function splitCut(
  doc: Y.Doc,
  videoId: string,
  input: {
    film: readonly FilmCut[]
    cut: FilmCut
    atMs: number
    lengthMs: number
    clipMs: number | null
    newId: string
  },
  origin: unknown = null,
): void {
  const { film, cut, atMs, lengthMs, clipMs, newId } = input
  const next = film[film.findIndex((c) => c.id === cut.id) + 1]
  if (!(atMs > 0 && atMs < lengthMs)) throw new RangeError('Split inside the cut')
  doc.transact(() => {
    layOut(doc, videoId, film)
    const second: Omit<TimelineCut, 'id'> = {
      sceneId: cut.sceneId,
      order: generateKeyBetween(cut.place, next && next.place > cut.place ? next.place : null),
      inMs: 0,
      outMs: 0,
      holdMs: 0,
      transition: 'cut',
      transitionMs: 0,
      removed: false,
    }
    if (clipMs === null) {
      setField(doc, videoId, cut.id, 'holdMs', Math.round(atMs))
      second.holdMs = Math.round(lengthMs - atMs)
    } else {
      const splitAt = Math.round(Math.min(clipMs, cut.inMs + atMs))
      const end = cut.outMs > 0 ? cut.outMs : Math.min(clipMs, cut.inMs + lengthMs)
      setField(doc, videoId, cut.id, 'outMs', splitAt)
      second.inMs = splitAt
      second.outMs = Math.max(splitAt + 1, Math.round(end))
    }
    for (const [field, value] of Object.entries(second) as [keyof CutFields, never][]) {
      setField(doc, videoId, newId, field, value)
    }
  }, origin)
}

/** Writes the settings in `patch` that change (music, cards, captions). */
export function editTimelineSettings(
  doc: Y.Doc,
  videoId: string,
  patch: Partial<TimelineSettings>,
  origin: unknown = null,
): void {
  const map = getTimelinesMap(doc)
  doc.transact(() => {
    for (const [field, value] of Object.entries(patch) as [keyof TimelineSettings, unknown][]) {
      const key = settingKey(videoId, field)
      if (value !== undefined && map.get(key) !== value) map.set(key, value as TimelineValue)
    }
  }, origin)
}

/** Deletes the timelines of Video nodes `videoIds` (when the nodes leave the graph). */
export function removeTimelines(
  doc: Y.Doc,
  videoIds: Iterable<string>,
  origin: unknown = null,
): void {
  const map = getTimelinesMap(doc)
  const prefixes = [...videoIds].map((id) => `${id}/`)
  if (prefixes.length === 0) return
  doc.transact(() => {
    for (const key of [...map.keys()]) {
      if (prefixes.some((p) => key.startsWith(p))) map.delete(key)
    }
  }, origin)
}
