import { z } from 'zod'
import {
  connectionSchema,
  connectionsSchema,
  dropDuplicateConnections,
  graphNodeSchema,
  type KnownNodes,
  NODE_TYPES,
  nodesSchema,
  parseKnownGraph,
  PROJECT_DESCRIPTION_MAX_LENGTH,
  PROJECT_NAME_MAX_LENGTH,
  refineGraph,
  refineNodeData,
} from './graph.ts'
import { projectRoleSchema } from './members.ts'

/** Messages of the projects forms and API (spec §5 Projects). */
export const PROJECT_MESSAGES = {
  nameRequired: 'Project name is required',
  nameTooLong: `A project name can be at most ${PROJECT_NAME_MAX_LENGTH} characters`,
} as const

/** The default name of a new project (spec §5 Projects). */
export const DEFAULT_PROJECT_NAME = 'My Project'

/** A project name: trimmed, 1 to 100 characters; buttons stay disabled while it is empty. */
export const projectNameSchema = z
  .string({ error: PROJECT_MESSAGES.nameRequired })
  .trim()
  .min(1, PROJECT_MESSAGES.nameRequired)
  .max(PROJECT_NAME_MAX_LENGTH, PROJECT_MESSAGES.nameTooLong)

/** A project's description: at most 1,000 characters. */
export const projectDescriptionSchema = z
  .string()
  .max(
    PROJECT_DESCRIPTION_MAX_LENGTH,
    `A description can be at most ${PROJECT_DESCRIPTION_MAX_LENGTH} characters`,
  )

/**
 * `POST /api/projects` body. The description defaults to "Created on <long US date>";
 * nodes and connections default to empty and follow the graph rules of `graphSchema`.
 * @see spec §7, issue 3
 */
export const createProjectInput = z
  .object({
    name: projectNameSchema,
    description: projectDescriptionSchema.optional(),
    nodes: nodesSchema.default([]),
    connections: connectionsSchema.default([]),
  })
  .superRefine(refineGraph)
  .superRefine(refineNodeData)
  .transform((p) => ({ ...p, connections: dropDuplicateConnections(p.connections) }))
  .meta({ id: 'CreateProjectInput' })
export type CreateProjectInput = z.input<typeof createProjectInput>

/**
 * `PATCH /api/projects/:id`: either `{ name }` (rename) or `{ nodes, connections }` (replace
 * the graph; applied to the live document), never both.
 * @see spec §7
 */
export const patchProjectInput = z
  .object({
    name: projectNameSchema.optional(),
    nodes: nodesSchema.optional(),
    connections: connectionsSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const hasGraph = body.nodes !== undefined || body.connections !== undefined
    if (body.name === undefined && !hasGraph) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'Send {name} to rename the project or {nodes, connections} to replace its graph.',
      })
    } else if (body.name !== undefined && hasGraph) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'Rename the project and replace its graph in separate requests.',
      })
    } else if (hasGraph && (body.nodes === undefined || body.connections === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.nodes ? 'connections' : 'nodes'],
        message: 'Send nodes and connections together.',
      })
    } else if (hasGraph) {
      refineGraph(body, ctx)
      refineNodeData(body, ctx)
    }
  })
  .transform((body) =>
    body.name !== undefined
      ? { kind: 'rename' as const, name: body.name }
      : {
          kind: 'graph' as const,
          nodes: body.nodes ?? [],
          connections: dropDuplicateConnections(body.connections ?? []),
        },
  )
  .meta({ id: 'PatchProjectInput' })
export type PatchProjectInput = z.output<typeof patchProjectInput>

/**
 * Parses a `PATCH /api/projects/:id` body exactly as {@link patchProjectInput} does (the same
 * answer, the same issues), quickly when it is a graph made of nodes the caller knows valid
 * (`known`: the project's graph as last written; an autosave sends the whole graph each
 * second with one node moved: issue 23) and plainly valid others (`parseKnownGraph`); a node
 * equal to a known one is answered with the known node itself, so the caller tells it by
 * identity. Anything else gets the full parse.
 */
export function parsePatchProjectInput(
  body: unknown,
  known?: KnownNodes,
  /** Receives the body's nodes taken as known (their text is clean: a known node's is). */
  taken?: Set<object>,
): z.ZodSafeParseResult<PatchProjectInput> {
  const graph = known && known.size > 0 ? parseKnownGraph(body, known, taken) : null
  if (graph) return { success: true, data: { kind: 'graph', ...graph } }
  return patchProjectInput.safeParse(body)
}

/** `POST /api/projects` answer: the new id (numeric, spec §5 Projects) and name. */
export const createdProjectSchema = z
  .object({ id: z.number().int(), name: z.string() })
  .meta({ id: 'CreatedProject' })
export type CreatedProject = z.infer<typeof createdProjectSchema>

/** At most this many nodes are drawn in a project card's preview (the first ones stored). */
export const PROJECT_PREVIEW_MAX_NODES = 200

/**
 * A project card's preview (issue 14): where its nodes are and what they are, in canvas
 * units, at most {@link PROJECT_PREVIEW_MAX_NODES}.
 */
export const projectPreviewSchema = z
  .array(z.object({ type: z.enum(NODE_TYPES), x: z.number(), y: z.number() }))
  .max(PROJECT_PREVIEW_MAX_NODES)
export type ProjectPreview = z.infer<typeof projectPreviewSchema>

/** One card of `GET /api/projects` (most recently updated first). Dates are ISO 8601. */
export const projectSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    nodeCount: z.number().int(),
    /** The nodes to draw on the card, as last compacted (behind live edits until they pause). */
    preview: projectPreviewSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
    /** The caller's role on it (issue 6): `owner` for their own projects. */
    role: projectRoleSchema,
    /** The owner's name, shown on projects shared with the caller. */
    ownerName: z.string(),
  })
  .meta({ id: 'ProjectSummary' })
export type ProjectSummary = z.infer<typeof projectSummarySchema>

/** `GET /api/projects/:id`: the project with its graph (spec §7). */
export const projectSchema = projectSummarySchema
  .omit({ nodeCount: true, preview: true })
  .extend({ nodes: z.array(graphNodeSchema), connections: z.array(connectionSchema) })
  .meta({ id: 'Project' })
export type Project = z.infer<typeof projectSchema>

/** Rename answer (spec §7). */
export const renamedProjectSchema = z
  .object({ name: z.string(), updatedAt: z.string() })
  .meta({ id: 'RenamedProject' })
/** Graph update answer (spec §7). */
export const updatedGraphSchema = z
  .object({ nodes: z.array(graphNodeSchema), connections: z.array(connectionSchema) })
  .meta({ id: 'UpdatedGraph' })

/** Formats a date in long US English ("November 21, 2026"), "N/A" when missing (spec §3). */
export function formatLongDate(date: Date | string | null | undefined): string {
  if (!date) return 'N/A'
  const d = typeof date === 'string' ? new Date(date) : date
  if (Number.isNaN(d.getTime())) return 'N/A'
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
}

/** The default description of a project created at `date` (spec §3 Project). */
export function defaultProjectDescription(date = new Date()): string {
  return `Created on ${formatLongDate(date)}`
}
