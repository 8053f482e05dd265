import { z } from 'zod'
import type { ConnectionPoints, NodeData } from '../node-values.ts'
import {
  isNumericText,
  type NodeFieldKind,
  type NodeFieldValue,
  type NodeFields,
  type NodeFieldsData,
} from './node-field.ts'

/**
 * A node type's definition (issue 21 item 3): its data's fields with their defaults, the
 * migrations that read older stored shapes, and what the canvas needs to create and place
 * one. tldraw's shape props with validators and migrations (`packages/tlschema`) are the
 * model; each node type is one module under `nodes/` and one line of `NODE_KINDS`.
 */

/** A node's data as readers get it: the doc's values, or the canvas's flow data. */
export type StoredNodeData = Readonly<Record<string, unknown>>

/**
 * Reads one older stored shape of a node type's data as the current one. Applied, in list
 * order, every time the data is read (the stored data is not rewritten); idempotent: data
 * that is not of the old shape comes back as it is.
 */
export interface NodeDataMigration {
  /** Stable and unique: `<node type>/<what changed>`. */
  readonly id: string
  /** The old shape, and when and why it changed. */
  readonly description: string
  up(data: StoredNodeData): StoredNodeData
}

/** A node already on the canvas, as a new node's creation sees it. */
export interface ExistingNode {
  type: string
  data: StoredNodeData
}

/** What a node type module declares. */
export interface NodeKindDefinition<T extends string, F extends NodeFields> {
  type: T
  /** The title a new node gets (shown in its header). */
  title: string
  /** Where it connects (spec §3 Node connectionPoints). */
  connectionPoints: ConnectionPoints
  /**
   * The area it is taken to cover, in canvas units, for free-space placement on the server:
   * the width the canvas renders and the height with its default fields (measured at 100 %
   * zoom, rounded up).
   */
  footprint: { width: number; height: number }
  /** Its data's fields, by stored key. */
  fields: F
  /** Older stored shapes, oldest first. */
  migrations?: readonly NodeDataMigration[]
  /** A new node's label and data beyond the defaults, from the nodes already there. */
  created?: (existing: readonly ExistingNode[]) => {
    label: string
    data: Partial<NodeFieldsData<F>>
  }
}

/** A node type: its definition and the functions every reader and writer of its data uses. */
export interface NodeKind<T extends string, F extends NodeFields> extends NodeKindDefinition<T, F> {
  migrations: readonly NodeDataMigration[]
  /**
   * The zod schema of its data: each field read from its stored value, with its fallback
   * for a missing or unreadable one (optional fields stay absent). Unknown keys are ignored
   * (they stay in the stored data).
   */
  schema: z.ZodType<NodeFieldsData<F>>
  /** The stored data of a new node: every initial field at its fallback. A new object. */
  defaults(): NodeData
  /** The data as its fields read it, after the migrations. */
  read(data: StoredNodeData): NodeFieldsData<F>
  /** The stored form of `patch` (its fields only; absent values are left out). */
  store(patch: Partial<NodeFieldsData<F>>): NodeData
  /**
   * Why `value` cannot be stored under `key`, or null when it can (or `key` is none of its
   * fields: unknown keys are allowed).
   */
  problem(key: string, value: unknown): string | null
}

/** A fresh copy of a fallback (a list must not be shared between reads). */
function fresh<V>(value: V): V {
  return (Array.isArray(value) ? [...value] : value) as V
}

/**
 * The zod schema reading `fields` from stored data: each field's value, its fallback for a
 * missing or unreadable one, absent for an optional one; unknown keys are left out.
 */
export function fieldsSchema<F extends NodeFields>(fields: F): z.ZodType<NodeFieldsData<F>> {
  const shape: Record<string, z.ZodType> = {}
  for (const [key, field] of Object.entries(fields)) {
    shape[key] = field.optional
      ? field.schema.optional().catch(undefined)
      : field.schema.catch(() => fresh(field.fallback) as NodeFieldValue)
  }
  return z.object(shape) as unknown as z.ZodType<NodeFieldsData<F>>
}

/** `data` read with a {@link fieldsSchema}, without the keys of absent optional fields. */
export function readFields<D>(schema: z.ZodType<D>, data: StoredNodeData): D {
  const read = schema.parse(data) as Record<string, unknown>
  for (const key of Object.keys(read)) if (read[key] === undefined) delete read[key]
  return read as D
}

/**
 * Whether a field of `kind` certainly reads `value`, known without running its schema (the
 * common stored values; a REST autosave checks every field of a graph each second, issue
 * 23). False means "run the schema", not "refused".
 */
function readsWithoutParse(kind: NodeFieldKind, value: unknown): boolean {
  if (typeof value !== 'string') return false
  switch (kind.type) {
    case 'text':
      return true
    case 'choice':
      return kind.values.includes(value)
    case 'number':
      return isNumericText(value)
    default:
      return false
  }
}

/** Builds a node type from its definition. */
export function defineNodeKind<const T extends string, const F extends NodeFields>(
  definition: NodeKindDefinition<T, F>,
): NodeKind<T, F> {
  const { fields, type } = definition
  const migrations = definition.migrations ?? []
  const schema = fieldsSchema(fields)
  const fieldOf = (key: string) => (Object.hasOwn(fields, key) ? fields[key] : undefined)

  return {
    ...definition,
    migrations,
    schema,
    defaults() {
      const data: NodeData = {}
      for (const [key, field] of Object.entries(fields)) {
        if (field.initial && field.fallback !== undefined) data[key] = field.store(field.fallback)
      }
      return data
    },
    read(data) {
      let current = data
      for (const migration of migrations) current = migration.up(current)
      return readFields(schema, current)
    },
    store(patch) {
      const data: NodeData = {}
      for (const [key, value] of Object.entries(patch)) {
        const field = fieldOf(key)
        if (field && value !== undefined) data[key] = field.store(value as never)
      }
      return data
    },
    problem(key, value) {
      const field = fieldOf(key)
      if (!field || readsWithoutParse(field.kind, value) || field.schema.safeParse(value).success) {
        return null
      }
      return `data ${JSON.stringify(key)} ${field.expects} for a node of type "${type}"`
    },
  }
}
