/**
 * A reader of OpenTimelineIO JSON for tests (issue 24 item 3), written against OTIO's
 * documented serialized schema (docs/tutorials/otio-serialized-schema.md) because
 * OpenTimelineIO's own Python reader cannot be installed here (no PyPI; ADR 018). It is
 * strict where OTIO is: every object names a known `OTIO_SCHEMA` of the version OTIO reads,
 * with the fields of that schema and their types; times are `RationalTime.1`; a transition
 * sits between two items. It answers what OTIO's reader answers: each track's items with
 * their range in the track (`range_in_parent`, end to end, transitions taking no time) and
 * their visible range (the source range widened by the transitions around them, OTIO's
 * `visible_range`).
 */

/** A time or duration as a whole number of frames at `rate`. */
export interface ReadTime {
  value: number
  rate: number
}

export interface ReadItem {
  schema: 'Clip.2' | 'Gap.1'
  name: string
  /** Its source range, in frames. */
  sourceStart: number
  duration: number
  /** Where it sits in its track, in frames. */
  trackStart: number
  /** The source range widened by the transitions around it (OTIO's `visible_range`). */
  visibleStart: number
  visibleDuration: number
  /** `target_url` of its `ExternalReference.1` (clips). */
  targetUrl: string | null
  /** Available range's duration (null: none given, e.g. a still). */
  availableDuration: number | null
  metadata: Record<string, unknown>
}

export interface ReadTransition {
  schema: 'Transition.1'
  name: string
  transitionType: string
  inOffset: number
  outOffset: number
  /** Its cut point in the track. */
  at: number
}

export interface ReadTrack {
  name: string
  kind: 'Video' | 'Audio'
  children: (ReadItem | ReadTransition)[]
  /** The track's length: its items end to end. */
  duration: number
}

export interface ReadTimeline {
  name: string
  rate: number
  tracks: ReadTrack[]
  /** Every OTIO_SCHEMA met, with how often. */
  schemas: Map<string, number>
}

const KNOWN = new Set([
  'Timeline.1',
  'Stack.1',
  'Track.1',
  'Clip.2',
  'Gap.1',
  'Transition.1',
  'ExternalReference.1',
  'RationalTime.1',
  'TimeRange.1',
])

type Obj = Record<string, unknown>

function fail(path: string, message: string): never {
  throw new Error(`OTIO ${path}: ${message}`)
}

function obj(value: unknown, path: string, schema?: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, 'not an object')
  }
  const o = value as Obj
  if (schema !== undefined && o.OTIO_SCHEMA !== schema) {
    fail(path, `expected ${schema}, found ${String(o.OTIO_SCHEMA)}`)
  }
  return o
}

function str(o: Obj, key: string, path: string): string {
  if (typeof o[key] !== 'string') fail(`${path}.${key}`, 'not a string')
  return o[key]
}

function meta(o: Obj, path: string): Obj {
  return obj(o.metadata, `${path}.metadata`)
}

function time(value: unknown, path: string, rate: number): number {
  const t = obj(value, path, 'RationalTime.1')
  if (t.rate !== rate) fail(path, `rate ${String(t.rate)}, expected ${rate}`)
  if (typeof t.value !== 'number' || !Number.isInteger(t.value) || t.value < 0) {
    fail(path, `value ${String(t.value)} is not a whole, non-negative frame`)
  }
  return t.value
}

function timeRange(value: unknown, path: string, rate: number) {
  const r = obj(value, path, 'TimeRange.1')
  return {
    start: time(r.start_time, `${path}.start_time`, rate),
    duration: time(r.duration, `${path}.duration`, rate),
  }
}

/** Checks the fields every Item serializes. */
function itemFields(o: Obj, path: string): void {
  str(o, 'name', path)
  meta(o, path)
  if (!Array.isArray(o.effects)) fail(path, 'effects is not a list')
  if (!Array.isArray(o.markers)) fail(path, 'markers is not a list')
  if (typeof o.enabled !== 'boolean') fail(path, 'enabled is not a boolean')
}

function countSchemas(value: unknown, schemas: Map<string, number>, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => countSchemas(v, schemas, `${path}[${i}]`))
    return
  }
  if (typeof value !== 'object' || value === null) return
  const o = value as Obj
  if ('OTIO_SCHEMA' in o) {
    const s = String(o.OTIO_SCHEMA)
    if (!KNOWN.has(s)) fail(path, `unknown schema ${s}`)
    schemas.set(s, (schemas.get(s) ?? 0) + 1)
  }
  for (const [k, v] of Object.entries(o)) {
    if (k !== 'metadata') countSchemas(v, schemas, `${path}.${k}`)
  }
}

function readItem(value: unknown, path: string, rate: number): ReadItem | ReadTransition {
  const o = obj(value, path)
  if (o.OTIO_SCHEMA === 'Transition.1') {
    str(o, 'name', path)
    meta(o, path)
    return {
      schema: 'Transition.1',
      name: o.name as string,
      transitionType: str(o, 'transition_type', path),
      inOffset: time(o.in_offset, `${path}.in_offset`, rate),
      outOffset: time(o.out_offset, `${path}.out_offset`, rate),
      at: 0,
    }
  }
  if (o.OTIO_SCHEMA !== 'Clip.2' && o.OTIO_SCHEMA !== 'Gap.1') {
    fail(path, `${String(o.OTIO_SCHEMA)} cannot be in a track here`)
  }
  itemFields(o, path)
  const source = timeRange(o.source_range, `${path}.source_range`, rate)
  if (source.duration <= 0) fail(path, 'an item of no frames')
  let targetUrl: string | null = null
  let availableDuration: number | null = null
  if (o.OTIO_SCHEMA === 'Clip.2') {
    const key = str(o, 'active_media_reference_key', path)
    const refs = obj(o.media_references, `${path}.media_references`)
    const ref = obj(refs[key], `${path}.media_references.${key}`, 'ExternalReference.1')
    targetUrl = str(ref, 'target_url', `${path}.media_references.${key}`)
    str(ref, 'name', `${path}.media_references.${key}`)
    meta(ref, `${path}.media_references.${key}`)
    if (ref.available_range !== null) {
      const available = timeRange(ref.available_range, `${path}.available_range`, rate)
      availableDuration = available.duration
    }
  }
  return {
    schema: o.OTIO_SCHEMA,
    name: o.name as string,
    sourceStart: source.start,
    duration: source.duration,
    trackStart: 0,
    visibleStart: source.start,
    visibleDuration: source.duration,
    targetUrl,
    availableDuration,
    metadata: meta(o, path),
  }
}

/**
 * Reads an `.otio` file's text.
 * @throws Error naming the path of the first thing OTIO's reader would refuse or misread.
 */
export function readOtio(text: string): ReadTimeline {
  const root = obj(JSON.parse(text), '$', 'Timeline.1')
  const schemas = new Map<string, number>()
  countSchemas(root, schemas, '$')
  const stack = obj(root.tracks, '$.tracks', 'Stack.1')
  itemFields(stack, '$.tracks')
  if (!Array.isArray(stack.children)) fail('$.tracks', 'children is not a list')
  const start = obj(root.global_start_time, '$.global_start_time', 'RationalTime.1')
  const rate = start.rate as number
  const tracks = stack.children.map((value, t) => {
    const path = `$.tracks.children[${t}]`
    const o = obj(value, path, 'Track.1')
    itemFields(o, path)
    if (o.kind !== 'Video' && o.kind !== 'Audio') fail(path, `kind ${String(o.kind)}`)
    if (!Array.isArray(o.children)) fail(path, 'children is not a list')
    const children = o.children.map((c, i) => readItem(c, `${path}.children[${i}]`, rate))
    let at = 0
    children.forEach((c, i) => {
      if (c.schema === 'Transition.1') {
        const before = children[i - 1]
        const after = children[i + 1]
        if (
          !before ||
          !after ||
          before.schema === 'Transition.1' ||
          after.schema === 'Transition.1'
        ) {
          fail(`${path}.children[${i}]`, 'a transition must sit between two items')
        }
        if (c.inOffset > before.duration || c.outOffset > after.duration) {
          fail(`${path}.children[${i}]`, 'a transition longer than the items it joins')
        }
        c.at = at
        // OTIO's visible_range: the items it joins show over it.
        before.visibleDuration += c.outOffset
        after.visibleStart -= c.inOffset
        after.visibleDuration += c.inOffset
        return
      }
      c.trackStart = at
      at += c.duration
    })
    return { name: o.name as string, kind: o.kind as ReadTrack['kind'], children, duration: at }
  })
  return { name: str(root, 'name', '$'), rate, tracks, schemas }
}
