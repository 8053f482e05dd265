import { z } from 'zod'
import type { NodeDataValue } from '../node-values.ts'

/**
 * One field of a node's data (issue 21 item 3): how its stored value is read, what it reads
 * as when missing or unreadable, and how a value is stored.
 *
 * Stored data is flat: string, number or boolean values in the node's `data` map
 * (ARCHITECTURE decision 2). Reading is tolerant, as the canvas always read it: a numeric
 * string reads as its number, "true"/"false" as booleans, a number or boolean in a text field
 * as its text; anything else reads as the field's fallback. The sync validator refuses a
 * value its field cannot read ({@link NodeField.schema} fails on it).
 */

/** A value a field reads as: a stored value, or a list (a JSON field such as the takes). */
export type NodeFieldValue = NodeDataValue | readonly unknown[]

/** What a field holds, for people (refusal details) and for generators of test data. */
export type NodeFieldKind =
  | { type: 'text' }
  | { type: 'number'; integer: boolean; min: number | null; max: number | null }
  | { type: 'boolean' }
  | { type: 'choice'; values: readonly string[] }
  | { type: 'json' }

/** A field of a node's data whose value type is `T`. */
export interface NodeField<T extends NodeFieldValue, Optional extends boolean = boolean> {
  /** Reads a stored value; fails on a value this field cannot read. */
  readonly schema: z.ZodType<T>
  /** True when the field may be absent (a job's state, a render's result). */
  readonly optional: Optional
  /** What a missing or unreadable value reads as (none for an optional field). */
  readonly fallback: Optional extends true ? undefined : T
  /** True when a new node is created with this field set to its fallback. */
  readonly initial: boolean
  /** The stored form of a value (a method, so fields of every value type fit {@link NodeFields}). */
  store(value: T): NodeDataValue
  readonly kind: NodeFieldKind
  /** What the field must hold, said after its name ("must be a number"). */
  readonly expects: string
}

type AnyField = NodeField<NodeFieldValue, boolean>

/** The fields of one node type, by stored key. */
export type NodeFields = Readonly<Record<string, AnyField>>

type ValueOf<F> = F extends NodeField<infer T, boolean> ? T : never
type Simplify<T> = { [K in keyof T]: T[K] } & {}

/** The data `F`'s fields read as: required fields always there, optional ones when stored. */
export type NodeFieldsData<F extends NodeFields> = Simplify<
  { -readonly [K in keyof F as F[K]['optional'] extends true ? never : K]: ValueOf<F[K]> } & {
    -readonly [K in keyof F as F[K]['optional'] extends true ? K : never]?: ValueOf<F[K]>
  }
>

const finiteNumber = z.number().refine(Number.isFinite)
const identity = <T extends NodeDataValue>(value: T): NodeDataValue => value

/** Whether `text` reads as a finite number (" 12 ", "7.5"; not "", "abc" or "Infinity"). */
export function isNumericText(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text))
}

/** A finite number, or a numeric string (" 12 ", "7.5") read as its number. */
export const numberValue: z.ZodType<number> = z.union([
  finiteNumber,
  z.string().refine(isNumericText).transform(Number),
])

/** A boolean, or "true" / "false" read as one. */
export const booleanValue: z.ZodType<boolean> = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((s) => s === 'true'),
])

/** Text; a finite number or a boolean reads as its text (what the canvas always did). */
export const textValue: z.ZodType<string> = z.union([
  z.string(),
  finiteNumber.transform(String),
  z.boolean().transform(String),
])

/** Text of one character or more (ids, times). */
export const nonEmptyTextValue: z.ZodType<string> = z.string().min(1)

interface FieldOptions {
  /** Whether a new node gets this field (default true). */
  initial?: boolean
}

/** A text field reading as `fallback` when missing. */
export function textField(fallback: string, options: FieldOptions = {}): NodeField<string, false> {
  return {
    schema: textValue,
    optional: false,
    fallback,
    initial: options.initial ?? true,
    store: identity,
    kind: { type: 'text' },
    expects: 'must be text',
  }
}

/**
 * A number field reading as `fallback` when missing; with `integer`, `min` or `max`, a stored
 * number outside them reads rounded and clamped into them (the scene count, spec §5).
 */
export function numberField(
  fallback: number,
  options: FieldOptions & { integer?: boolean; min?: number; max?: number } = {},
): NodeField<number, false> {
  const { integer = false, min = null, max = null } = options
  const schema =
    !integer && min === null && max === null
      ? numberValue
      : numberValue.transform((n) => {
          const whole = integer ? Math.round(n) : n
          return Math.min(max ?? Infinity, Math.max(min ?? -Infinity, whole))
        })
  return {
    schema,
    optional: false,
    fallback,
    initial: options.initial ?? true,
    store: identity,
    kind: { type: 'number', integer, min, max },
    expects: 'must be a number',
  }
}

/** A boolean field reading as `fallback` when missing. */
export function booleanField(
  fallback: boolean,
  options: FieldOptions = {},
): NodeField<boolean, false> {
  return {
    schema: booleanValue,
    optional: false,
    fallback,
    initial: options.initial ?? true,
    store: identity,
    kind: { type: 'boolean' },
    expects: 'must be true or false',
  }
}

/** A field holding one of `values` (text), reading as `fallback` when missing or another. */
export function choiceField<const V extends readonly [string, ...string[]]>(
  values: V,
  fallback: V[number],
  options: FieldOptions = {},
): NodeField<V[number], false> {
  return {
    schema: z.enum(values) as unknown as z.ZodType<V[number]>,
    optional: false,
    fallback,
    initial: options.initial ?? true,
    store: identity,
    kind: { type: 'choice', values },
    expects: `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  }
}

/**
 * A yes/no field stored as the text "true" or "false" (spec §3's promptFromScene); a stored
 * boolean reads as its text.
 */
export function textFlagField(
  fallback: 'true' | 'false',
  options: FieldOptions = {},
): NodeField<'true' | 'false', false> {
  return {
    schema: z.union([
      z.enum(['true', 'false']),
      z.boolean().transform((b) => (b ? 'true' : 'false')),
    ]),
    optional: false,
    fallback,
    initial: options.initial ?? true,
    store: identity,
    kind: { type: 'choice', values: ['true', 'false'] },
    expects: 'must be "true" or "false"',
  }
}

/**
 * A field that is absent until something writes it (a job's state, a render's result): it
 * reads as absent when missing or unreadable, and a new node does not have it.
 */
export function optionalField<T extends NodeDataValue>(
  schema: z.ZodType<T>,
  kind: NodeFieldKind,
  expects: string,
): NodeField<T, true> {
  return {
    schema,
    optional: true,
    fallback: undefined,
    initial: false,
    store: identity,
    kind,
    expects,
  }
}

/** An optional text field ({@link optionalField}). */
export const optionalText = (): NodeField<string, true> =>
  optionalField(z.string(), { type: 'text' }, 'must be text')

/** An optional number field ({@link optionalField}). */
export const optionalNumber = (): NodeField<number, true> =>
  optionalField(
    numberValue,
    { type: 'number', integer: false, min: null, max: null },
    'must be a number',
  )

/**
 * A list of `item`s stored as a JSON string (data values are flat), newest first: an entry
 * that is not an `item` is skipped and at most `max` are read; missing or unreadable, the
 * list is empty. A new node does not have it.
 */
export function jsonListField<T>(
  item: z.ZodType<T>,
  max: number,
  expects: string,
): NodeField<T[], false> {
  const list = z.array(z.unknown()).transform((items) =>
    items
      .flatMap((entry) => {
        const parsed = item.safeParse(entry)
        return parsed.success ? [parsed.data] : []
      })
      .slice(0, max),
  )
  return {
    schema: z.union([
      z
        .string()
        .transform((text, ctx) => {
          try {
            return JSON.parse(text) as unknown
          } catch {
            ctx.addIssue({ code: 'custom', message: 'not JSON' })
            return z.NEVER
          }
        })
        .pipe(list),
      list,
    ]),
    optional: false,
    fallback: [],
    initial: false,
    store: (values) => JSON.stringify(values),
    kind: { type: 'json' },
    expects,
  }
}
