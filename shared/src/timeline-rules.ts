import type { z } from 'zod'
import { textProblem } from './text.ts'
import {
  cutFieldsSchema,
  MAX_TIMELINE_CUTS,
  parseTimelineKey,
  timelineSettingsSchema,
} from './timeline.ts'

/**
 * The sync server's rules for the document's `timelines` registers (issue 24 item 1: each
 * timeline edit is validated like any other): a key names a known field of a cut or of the
 * settings of a Video node, its value is of that field's kind and range (the readers'
 * defaults are never a licence to store anything), text is clean, and a timeline holds at
 * most {@link MAX_TIMELINE_CUTS} cuts and the map at most {@link MAX_TIMELINE_REGISTERS}
 * registers.
 */

/** Most registers the `timelines` map may hold (about 7 timelines of 300 cuts). */
export const MAX_TIMELINE_REGISTERS = 20_000

/** The strict schema inside a tolerant reader's field (its `.catch`, then `.optional`). */
function strict(schema: z.ZodType): z.ZodType {
  let inner = schema
  for (;;) {
    const def = inner.def as { type: string; innerType?: z.ZodType }
    if ((def.type === 'catch' || def.type === 'optional') && def.innerType) inner = def.innerType
    else return inner
  }
}

const CUT_FIELD_RULES = new Map(
  Object.entries(cutFieldsSchema.shape).map(([k, v]) => [k, strict(v as z.ZodType)]),
)
const SETTING_RULES = new Map(
  Object.entries(timelineSettingsSchema.shape).map(([k, v]) => [k, strict(v as z.ZodType)]),
)

/**
 * A register's value in a refusal's words: a plain value as its JSON (at most 40
 * characters), anything else by its kind (`a list`, `an object`, `a bigint`...). Nothing is
 * read off an object (not its `constructor`, prototype or getters), so a value of any shape
 * can be described (issue 40 item 7).
 */
function describeValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return JSON.stringify(value).slice(0, 40)
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * Why one register of `timelines` is refused, or null when it keeps the rules. Every field
 * of a timeline holds a string, number or boolean, so any other value (an object of any
 * shape: prototype-less, `{constructor: null}`, with getters or a `__proto__` key; a list;
 * nesting of any depth) is refused before a rule reads it (issue 40 item 7).
 * @param key the register's key (`<video>/cut/<cut>/<field>` or `<video>/settings/<field>`)
 * @param value its value as the document holds it (undefined: deleted)
 * @returns the problem in words, or null
 */
export function timelineRegisterProblem(key: string, value: unknown): string | null {
  const parsed = parseTimelineKey(key)
  if (!parsed) return `a timeline register has the key ${JSON.stringify(key.slice(0, 80))}`
  const rule = (parsed.kind === 'cut' ? CUT_FIELD_RULES : SETTING_RULES).get(parsed.field)
  if (!rule) return `a timeline has an unknown field ${JSON.stringify(parsed.field.slice(0, 40))}`
  // A deleted register (a removed timeline) is always fine.
  if (value === undefined) return null
  const plain =
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  const result = plain ? rule.safeParse(value) : null
  if (!result?.success) {
    const why = result?.error.issues[0]?.message ?? 'not a plain value'
    return `the timeline field ${parsed.field} holds ${describeValue(value)}, ${why}`
  }
  if (typeof value === 'string') {
    const problem = textProblem(value)
    if (problem) return `the timeline field ${parsed.field} ${problem}`
  }
  return null
}

/**
 * Why the timelines of `videoIds` (the ones a change touched) hold too many cuts, or null.
 * @param keys every key of the `timelines` map after the change
 */
export function timelineCutsProblem(
  keys: Iterable<string>,
  videoIds: ReadonlySet<string>,
): string | null {
  const cuts = new Map<string, Set<string>>()
  for (const key of keys) {
    const parsed = parseTimelineKey(key)
    if (parsed?.kind !== 'cut' || !videoIds.has(parsed.videoId)) continue
    const set = cuts.get(parsed.videoId) ?? new Set()
    set.add(parsed.cutId)
    cuts.set(parsed.videoId, set)
  }
  for (const [videoId, set] of cuts) {
    if (set.size > MAX_TIMELINE_CUTS) return `${set.size} cuts in the timeline of ${videoId}`
  }
  return null
}
