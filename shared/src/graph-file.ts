import { z } from 'zod'
import { safeFileName } from './file-name.ts'
import {
  connectionsSchema,
  type GraphNode,
  nodeIdSchema,
  nodesSchema,
  refineGraph,
  refineNodeData,
} from './graph.ts'
import { JOB_FIELD_KEYS } from './nodes/job-fields.ts'
import { nodeDataProblem } from './nodes/registry.ts'
import { type NodeData } from './node-values.ts'
import { createdProjectSchema, projectDescriptionSchema, projectNameSchema } from './projects.ts'
import {
  type CutFields,
  cutFieldKey,
  MAX_TIMELINE_CUTS,
  parseTimelineKey,
  settingKey,
  type TimelineSettings,
} from './timeline.ts'
import { MAX_TIMELINE_REGISTERS, timelineRegisterProblem } from './timeline-rules.ts'

/**
 * The graph file (issue 42 item 2, decision 031): a project's graph as a JSON file a person
 * downloads (`GET /api/projects/:id/export.json`) and imports as a new project (`POST
 * /api/projects/import`). Versioned by {@link GRAPH_FILE_VERSION}; read by the same schemas
 * and limits as the document (`graph.ts`' node, connection and data rules,
 * `timeline-rules.ts`' registers), so a file is refused exactly where a REST write or a sync
 * update with the same content would be, with the same words.
 *
 * Shape (version 1):
 * `{ format: "reelgraph.graph", version: 1, exportedAt, project: { name, description },
 * nodes, connections, timelines }`, where `timelines` holds each Video node's timeline
 * (`timeline.ts`) as `{ [videoId]: { settings: { field: value }, cuts: { [cutId]: { field:
 * value } } } }`: the document's registers grouped, not its key layout.
 */

/** The `format` every graph file names. */
export const GRAPH_FILE_FORMAT = 'reelgraph.graph'
/** The format version this Reelgraph writes and the newest it reads. */
export const GRAPH_FILE_VERSION = 1
/** The end of a graph file's name: `<project name>.reelgraph.json`. */
export const GRAPH_FILE_EXTENSION = '.reelgraph.json'

/** What a graph file is refused for before its content is read, in words a person can act on. */
export const GRAPH_FILE_MESSAGES = {
  notAGraphFile:
    'This is not a Reelgraph graph file: it has no "format": "reelgraph.graph". Choose a file made by Export graph.',
  notJson:
    'This file is not valid JSON, so it is not a Reelgraph graph file. Choose a file made by Export graph.',
  badVersion: `This graph file has no valid format version (a whole number from 1); this Reelgraph reads format ${GRAPH_FILE_VERSION}.`,
  newer: (version: number) =>
    `This file was made by a newer Reelgraph (format ${version}); this one reads format ${GRAPH_FILE_VERSION}.`,
  orphanTimeline: (videoId: string) =>
    `The file has a timeline for "${videoId}", which is not a Video node of the file.`,
} as const

/** A timeline register's value: what every timeline field holds. */
const timelineValueSchema = z.union([z.string(), z.number(), z.boolean()], {
  error: 'A timeline field holds a string, a number or a boolean.',
})

/** One Video node's timeline in a file: its settings and its cuts, field by field. */
export const graphFileTimelineSchema = z.object({
  settings: z.record(z.string(), timelineValueSchema).default({}),
  cuts: z.record(z.string(), z.record(z.string(), timelineValueSchema)).default({}),
})
export type GraphFileTimeline = z.infer<typeof graphFileTimelineSchema>
/** Every Video node's timeline, by the node's id. */
export type GraphFileTimelines = Record<string, GraphFileTimeline>

/** A timeline register: its document key and value. */
export type TimelineRegister = readonly [key: string, value: string | number | boolean]

/** One register of a file's timeline: its document key, its value, where the file holds it. */
interface FileRegister {
  key: string
  value: string | number | boolean
  path: string[]
}

/** The registers of Video node `videoId`'s timeline in a file. */
function* fileRegisters(videoId: string, timeline: GraphFileTimeline): Generator<FileRegister> {
  for (const [field, value] of Object.entries(timeline.settings)) {
    const key = settingKey(videoId, field as keyof TimelineSettings)
    yield { key, value, path: ['settings', field] }
  }
  for (const [cutId, fields] of Object.entries(timeline.cuts)) {
    for (const [field, value] of Object.entries(fields)) {
      const key = cutFieldKey(videoId, cutId, field as keyof CutFields)
      yield { key, value, path: ['cuts', cutId, field] }
    }
  }
}

/** The document registers a file's timelines stand for (`timeline.ts`' keys and values). */
export function timelineRegistersOfFile(timelines: GraphFileTimelines): TimelineRegister[] {
  const registers: TimelineRegister[] = []
  for (const [videoId, timeline] of Object.entries(timelines)) {
    for (const { key, value } of fileRegisters(videoId, timeline)) registers.push([key, value])
  }
  return registers
}

/**
 * The timelines of `videoIds` in a document's registers (the `timelines` map's entries), as a
 * file holds them. Registers of other nodes, and any the document rules would refuse
 * (`timelineRegisterProblem`), are left out, so what is exported always imports.
 */
export function graphFileTimelines(
  registers: Iterable<readonly [string, unknown]>,
  videoIds: ReadonlySet<string>,
): GraphFileTimelines {
  const timelines: GraphFileTimelines = {}
  for (const [key, value] of registers) {
    const parsed = parseTimelineKey(key)
    if (!parsed || !videoIds.has(parsed.videoId)) continue
    if (value === undefined || timelineRegisterProblem(key, value)) continue
    const plain = value as string | number | boolean
    const timeline = (timelines[parsed.videoId] ??= { settings: {}, cuts: {} })
    if (parsed.kind === 'settings') timeline.settings[parsed.field] = plain
    else (timeline.cuts[parsed.cutId] ??= {})[parsed.field] = plain
  }
  return timelines
}

/**
 * Checks a file's timelines as the sync server checks timeline registers (decision 011,
 * `timeline-rules.ts`): known fields with values of their kind, at most MAX_TIMELINE_CUTS
 * cuts a timeline and MAX_TIMELINE_REGISTERS registers in all; and each belongs to a Video
 * node of the file.
 */
function refineTimelines(
  file: { nodes: GraphNode[]; timelines: GraphFileTimelines },
  ctx: z.RefinementCtx,
): void {
  const videos = new Set(file.nodes.filter((n) => n.type === 'video').map((n) => n.id))
  let registers = 0
  for (const [videoId, timeline] of Object.entries(file.timelines)) {
    if (!videos.has(videoId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['timelines', videoId],
        message: GRAPH_FILE_MESSAGES.orphanTimeline(videoId),
      })
      continue
    }
    const cuts = Object.keys(timeline.cuts).length
    if (cuts > MAX_TIMELINE_CUTS) {
      ctx.addIssue({
        code: 'custom',
        path: ['timelines', videoId, 'cuts'],
        message: `The timeline of "${videoId}" has ${cuts} cuts; a timeline can hold at most ${MAX_TIMELINE_CUTS}.`,
      })
    }
    for (const { key, value, path } of fileRegisters(videoId, timeline)) {
      registers += 1
      const problem = timelineRegisterProblem(key, value)
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          path: ['timelines', videoId, ...path],
          message: `The timeline of "${videoId}": ${problem}.`,
        })
      }
    }
  }
  if (registers > MAX_TIMELINE_REGISTERS) {
    ctx.addIssue({
      code: 'custom',
      path: ['timelines'],
      message: `The file's timelines hold ${registers.toLocaleString('en-US')} fields; a project can hold at most ${MAX_TIMELINE_REGISTERS.toLocaleString('en-US')}.`,
    })
  }
}

/**
 * A graph file of the current version, read by the document's own rules: the nodes and
 * connections as `POST /api/projects` takes them (`nodesSchema`, `connectionsSchema`,
 * `refineGraph`, `refineNodeData`), the project's name and description by the project rules,
 * and the timelines by the sync server's register rules. `exportedAt` (ISO 8601) is written by
 * every export and not needed to import. Read a file with {@link parseGraphFile}, which
 * answers an unknown format or a newer version first, in words.
 */
export const graphFileSchema = z
  .object({
    format: z.literal(GRAPH_FILE_FORMAT, { error: GRAPH_FILE_MESSAGES.notAGraphFile }),
    version: z.literal(GRAPH_FILE_VERSION, { error: GRAPH_FILE_MESSAGES.badVersion }),
    exportedAt: z.iso
      .datetime({ offset: true, error: 'exportedAt must be an ISO 8601 time.' })
      .optional(),
    project: z.object(
      { name: projectNameSchema, description: projectDescriptionSchema.optional() },
      { error: 'A graph file names its project: "project": { "name": "…" }.' },
    ),
    // As POST /api/projects: a file without nodes or connections has none.
    nodes: nodesSchema.default([]),
    connections: connectionsSchema.default([]),
    timelines: z.record(nodeIdSchema, graphFileTimelineSchema).default({}),
  })
  .superRefine(refineGraph)
  .superRefine(refineNodeData)
  .superRefine(refineTimelines)
  .meta({ id: 'GraphFile' })
/** A graph file as read (defaults filled in). */
export type GraphFile = z.output<typeof graphFileSchema>
/** A graph file as written or sent. */
export type GraphFileInput = z.input<typeof graphFileSchema>

/** What a file must show before its content is read: its format, then a version this reads. */
const GRAPH_FILE_HEADS = [
  z
    .object(
      { format: z.literal(GRAPH_FILE_FORMAT, { error: GRAPH_FILE_MESSAGES.notAGraphFile }) },
      { error: GRAPH_FILE_MESSAGES.notAGraphFile },
    )
    .loose(),
  z
    .object({
      version: z
        .number({ error: GRAPH_FILE_MESSAGES.badVersion })
        .int(GRAPH_FILE_MESSAGES.badVersion)
        .min(1, GRAPH_FILE_MESSAGES.badVersion),
    })
    .loose()
    .superRefine(({ version }, ctx) => {
      if (version > GRAPH_FILE_VERSION) {
        ctx.addIssue({
          code: 'custom',
          path: ['version'],
          message: GRAPH_FILE_MESSAGES.newer(version),
        })
      }
    }),
] as const

/**
 * Reads a parsed JSON value as a graph file: a value that is not one (no `format`), or one
 * of a version this Reelgraph does not read (a newer one: "This file was made by a newer
 * Reelgraph (format 2); this one reads format 1."), is answered with that issue alone;
 * anything else as {@link graphFileSchema} answers it.
 */
export function parseGraphFile(value: unknown): z.ZodSafeParseResult<GraphFile> {
  for (const head of GRAPH_FILE_HEADS) {
    const read = head.safeParse(value)
    if (!read.success) return { success: false, error: read.error as z.ZodError<GraphFile> }
  }
  return graphFileSchema.safeParse(value)
}

/**
 * A node as a graph file holds it: the state of its last job (`JOB_FIELD_KEYS`: a job of the
 * project it was in, which the new project cannot follow) and any data field its type cannot
 * read (it reads as its default anyway, and the import would refuse it) left out.
 */
export function graphFileNode(node: GraphNode): GraphNode {
  const data: NodeData = {}
  for (const [key, value] of Object.entries(node.data)) {
    if (JOB_FIELD_KEYS.includes(key) || nodeDataProblem(node.type, key, value)) continue
    data[key] = value
  }
  return { ...node, data }
}

/** A graph file's name: `<project name>.reelgraph.json`, safe on every system. */
export function graphFileName(projectName: string): string {
  return `${safeFileName(projectName, 'project')}${GRAPH_FILE_EXTENSION}`
}

/** `POST /api/projects/import?name=`: the new project's name instead of the file's. */
export const importProjectQuery = z.object({ name: projectNameSchema.optional() })

/**
 * `POST /api/projects/import` answer (201): the new project as `POST /api/projects` answers
 * it, and what the import left out or could not bring along, in words (empty when nothing).
 */
export const importedProjectSchema = createdProjectSchema
  .extend({ warnings: z.array(z.string()) })
  .meta({ id: 'ImportedProject' })
export type ImportedProject = z.infer<typeof importedProjectSchema>
