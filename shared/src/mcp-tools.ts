import { z } from 'zod'
import { generateScriptInput, sceneCountSchema } from './ai.ts'
import { createBatchInput } from './batches.ts'
import { catalogQuery } from './catalog.ts'
import {
  connectionSchema,
  MAX_LABEL_LENGTH,
  NODE_TYPES,
  nodeDataValueSchema,
  nodeIdSchema,
} from './graph.ts'
import { databaseIdSchema, jobIdSchema, projectIdSchema } from './ids.ts'
import { makeVideoInput } from './make-video.ts'
import { projectDescriptionSchema, projectNameSchema } from './projects.ts'
import { runProjectInput } from './stale.ts'
import { templateIdSchema, templateValuesSchema } from './templates.ts'
import type { TokenScope } from './tokens.ts'

/**
 * The MCP server's tools (issue 41 item 2): their names, the token scope each needs and the
 * arguments each takes, as zod schemas the server hands to the MCP SDK (which answers their
 * JSON Schema in `tools/list` and checks every call against them). The api's tool registry
 * (`api/src/features/mcp/tools/`) binds each to the services REST uses.
 */

/** The path the MCP server answers at (Streamable HTTP). */
export const MCP_PATH = '/mcp'

/** At most this many nodes in one `add_nodes` call. */
export const MCP_ADD_NODES_MAX = 100
/** At most this many connections in one `connect_nodes` call. */
export const MCP_CONNECT_MAX = 200
/** At most this many node ids in one `delete_nodes` call. */
export const MCP_DELETE_MAX = 500

const projectId = projectIdSchema.describe('The project’s id (list_projects answers them).')
const nodeId = nodeIdSchema.describe('A node’s id, as get_project or add_nodes answers it.')
const templateId = templateIdSchema.describe('The template’s id (list_templates answers them).')
const batchId = databaseIdSchema('batchId must be the id of a batch of yours.').describe(
  'The batch’s id, as create_batch answers it.',
)
const position = z
  .object({ x: z.number().finite(), y: z.number().finite() })
  .describe('Where the node sits on the canvas, in canvas pixels (x to the right, y down).')
const data = z
  .record(z.string().max(64), nodeDataValueSchema)
  .describe(
    'Node data fields by name (text, numbers, true/false), as get_project shows them: e.g. a script-generator’s `topic`, a scene’s `narration` and `visuals`, an image-generator’s `prompt`.',
  )

/** One node `add_nodes` places. */
export const mcpNewNodeSchema = z.object({
  type: z
    .enum(NODE_TYPES, { error: `A node type must be one of: ${NODE_TYPES.join(', ')}.` })
    .describe('The node type.'),
  id: nodeIdSchema
    .optional()
    .describe(
      'An id of your own (`<type>-<digits>-<letters>`, e.g. `scene-1-intro`) to refer to it in the same session; default a fresh one.',
    ),
  label: z
    .string()
    .max(MAX_LABEL_LENGTH)
    .optional()
    .describe('The title on the node; default the type’s.'),
  position: position.optional().describe('Where to place it; default the nearest free spot.'),
  data: data.optional(),
})
export type McpNewNode = z.infer<typeof mcpNewNodeSchema>

/** The arguments of each tool, by tool name. */
export const MCP_TOOL_INPUTS = {
  list_projects: z.object({}),
  create_project: z.object({
    name: projectNameSchema.describe('The new project’s name.'),
    description: projectDescriptionSchema.optional(),
  }),
  get_project: z.object({ projectId }),
  add_nodes: z.object({
    projectId,
    nodes: z
      .array(mcpNewNodeSchema)
      .min(1, 'Give at least one node.')
      .max(MCP_ADD_NODES_MAX, `Add at most ${MCP_ADD_NODES_MAX} nodes at a time.`),
  }),
  connect_nodes: z.object({
    projectId,
    connections: z
      .array(connectionSchema)
      .min(1, 'Give at least one connection.')
      .max(MCP_CONNECT_MAX, `Connect at most ${MCP_CONNECT_MAX} pairs at a time.`)
      .describe('Each from `source` (an output) to `target` (an input).'),
  }),
  update_node: z.object({
    projectId,
    nodeId,
    data: data.optional().describe('The fields to change; the others are kept.'),
    label: z.string().max(MAX_LABEL_LENGTH).optional(),
    position: position.optional(),
  }),
  delete_nodes: z.object({
    projectId,
    nodeIds: z
      .array(nodeIdSchema)
      .min(1, 'Give at least one node id.')
      .max(MCP_DELETE_MAX, `Delete at most ${MCP_DELETE_MAX} nodes at a time.`),
  }),
  run_node: z.object({ projectId, nodeId }),
  make_video: z.object({
    projectId,
    topic: generateScriptInput.shape.topic.describe('What the video is about.'),
    style: generateScriptInput.shape.style.optional(),
    tone: generateScriptInput.shape.tone.optional(),
    format: generateScriptInput.shape.format.optional(),
    sceneCount: sceneCountSchema.describe('How many scenes (1-25).'),
    targetSeconds: makeVideoInput.shape.targetSeconds.describe(
      'How long the video should be, in seconds (10-600; 15, 30, 60 and 90 are the usual ones); the script is written for it and the video lands within ±15 %. Absent: 60.',
    ),
    preset: makeVideoInput.shape.preset.describe('The video’s format (aspect ratio).'),
    animate: makeVideoInput.shape.animate.describe(
      'Animate each scene’s picture with this video model (list_models kind video, one that starts from an image); absent: stills.',
    ),
    captions: makeVideoInput.shape.captions,
  }),
  get_job: z.object({ jobId: jobIdSchema.describe('The job id a run answered.') }),
  cancel_job: z.object({ jobId: jobIdSchema }),
  list_models: catalogQuery,
  get_credits: z.object({}),
  export_video: z.object({
    projectId,
    nodeId: nodeIdSchema
      .optional()
      .describe('A Video node; default the project’s Video node rendered last.'),
  }),
  // Templates, batches and runs of what is stale (issue 42 items 2-4; issue 42: "batches are
  // driven by tokens and MCP too").
  list_templates: z.object({}),
  create_project_from_template: z.object({
    templateId,
    name: projectNameSchema
      .optional()
      .describe('The new project’s name; absent: the template’s name and the first value.'),
    values: templateValuesSchema
      .optional()
      .describe(
        'A value for every variable the template lists, by name ({"topic": "How honeybees make honey"}): text of at most 500 characters, or for a picture (`image`, `*_image`) an /api/assets/<id> URL of yours or a data:image/png|jpeg|webp;base64, URL.',
      ),
    makeVideo: z
      .boolean()
      .optional()
      .describe(
        'true: also start the project’s video with the template’s settings (its picture and character too), charged as Make video; needs the generate scope. Answers the job to follow with get_job.',
      ),
  }),
  create_batch: z.object({
    templateId,
    rows: createBatchInput.shape.rows.describe(
      'One object of values per video, like create_project_from_template’s `values` (at most 500 rows).',
    ),
  }),
  start_batch: z.object({ batchId }),
  get_batch: z.object({ batchId }),
  cancel_batch: z.object({ batchId }),
  retry_batch: z.object({ batchId }),
  run_stale: z.object({
    projectId,
    scope: runProjectInput.shape.scope
      .optional()
      .describe(
        '`stale` (default): the generators whose result was not made from their inputs as they are now, and what reads them; `all`: every generator.',
      ),
    nodeIds: runProjectInput.shape.nodeIds.describe(
      'Only these nodes and what depends on them; absent: every node of the scope.',
    ),
    dryRun: runProjectInput.shape.dryRun.describe(
      'true: answer what would run and its price, start nothing and charge nothing.',
    ),
  }),
} as const

/** An MCP tool's name. */
export type McpToolName = keyof typeof MCP_TOOL_INPUTS

/** The tool names, in the order `tools/list` answers them. */
export const MCP_TOOL_NAMES = Object.keys(MCP_TOOL_INPUTS) as McpToolName[]

/** The token scope each tool needs (the same as the REST route it stands for). */
export const MCP_TOOL_SCOPES: Readonly<Record<McpToolName, TokenScope>> = {
  list_projects: 'projects:read',
  create_project: 'projects:write',
  get_project: 'projects:read',
  add_nodes: 'projects:write',
  connect_nodes: 'projects:write',
  update_node: 'projects:write',
  delete_nodes: 'projects:write',
  run_node: 'generate',
  make_video: 'generate',
  get_job: 'projects:read',
  cancel_job: 'generate',
  list_models: 'projects:read',
  get_credits: 'billing:read',
  export_video: 'projects:read',
  list_templates: 'projects:read',
  create_project_from_template: 'projects:write',
  // Quoting stores a quote and spends nothing, as `POST /api/batches` (route-scopes.ts).
  create_batch: 'projects:write',
  start_batch: 'generate',
  get_batch: 'projects:read',
  cancel_batch: 'generate',
  retry_batch: 'generate',
  run_stale: 'generate',
}

/** The arguments of tool `T`, as parsed. */
export type McpToolInput<T extends McpToolName> = z.output<(typeof MCP_TOOL_INPUTS)[T]>
