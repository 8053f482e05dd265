import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import {
  findTextProblems,
  MCP_TOOL_INPUTS,
  MCP_TOOL_NAMES,
  MCP_TOOL_SCOPES,
  type McpToolName,
} from '@reelgraph/shared'
import { AppError } from '../../lib/app-error.ts'
import { withProjectLimit } from '../access/project-limit.ts'
import { requireTokenScope } from '../tokens/token-service.ts'
import { SplicedJson } from './json-splice.ts'
import type { McpTool, McpToolAnswer, McpToolContext } from './mcp-tool.ts'
import { MCP_TOOLS } from './tools/index.ts'

/**
 * Reelgraph's MCP server (issue 41 item 2, decision 030): the tools of `tools/`, each called
 * as the token's owner with the token's scopes and project limit, over the services REST
 * uses. One server per HTTP request (`mcp-routes.ts`, stateless Streamable HTTP), so any api
 * process answers any call.
 */

/**
 * The JSON Schema validator of every server this process makes (the SDK would build an Ajv
 * instance per server, a third of a millisecond of each call; the tools never use it: it
 * checks elicitation answers). It keeps compiled schemas only, nothing of a request.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/** What an agent reads first (`initialize`'s `instructions`). */
const INSTRUCTIONS =
  'Reelgraph makes narrated videos on a node canvas. Quickest path: create_project (or list_projects), then make_video with a topic, then get_job every few seconds until it succeeds, then export_video for the MP4. To build by hand: add_nodes (script-generator with a topic), run_node on it, get_project to see what it wrote, run_node on the text node for scenes, and so on; connect_nodes joins nodes. From a template (list_templates): create_project_from_template with makeVideo true makes one video; create_batch quotes many from rows of values, start_batch runs them, get_batch follows them. After editing a graph, run_stale runs only what the edit made stale. Everything you do appears live on the canvas of the people who have the project open. Generation spends credits (get_credits).'

/**
 * The answer of a successful call: the result as JSON text and as structured content (the
 * specification asks for both), or spliced JSON text: a marker the HTTP answer replaces.
 */
function toolResult(result: McpToolAnswer, context: McpToolContext): CallToolResult {
  if (result instanceof SplicedJson) {
    return { content: [{ type: 'text', text: context.splices.add(result) }] }
  }
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result }
}

/** A tool error in words (MCP's `isError` result: the agent reads it and can act). */
function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/**
 * Calls `tool` with `input` for the context's token: its scope first (the REST route's 403
 * message), the text rules REST applies to every body, then the tool inside the token's
 * project limit. An `AppError` comes back as a tool error in its words; anything else is
 * logged and answered without its details.
 */
export async function callTool<N extends McpToolName>(
  tool: McpTool<N>,
  input: unknown,
  context: McpToolContext,
): Promise<CallToolResult> {
  try {
    requireTokenScope(context.actor, MCP_TOOL_SCOPES[tool.name])
    const problem = findTextProblems(input)[0]
    if (problem) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${problem.path.join('.') || 'An argument'} ${problem.problem}`,
      )
    }
    const result = await withProjectLimit(context.actor.projectIds, () =>
      tool.run(input as Parameters<McpTool<N>['run']>[0], context),
    )
    return toolResult(result, context)
  } catch (err) {
    if (err instanceof AppError) return toolError(err.message)
    context.logger.error({ err, tool: tool.name }, 'MCP tool failed')
    return toolError(
      `${tool.name} failed on Reelgraph’s side. Try again in a moment; if it keeps failing, the server’s log has the details.`,
    )
  }
}

/** An MCP server with every tool of {@link MCP_TOOLS}, bound to one request's token. */
export function createMcpServer(context: McpToolContext): McpServer {
  const server = new McpServer(
    { name: 'reelgraph', title: 'Reelgraph', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator },
  )
  for (const name of MCP_TOOL_NAMES) {
    const tool = MCP_TOOLS[name] as McpTool
    server.registerTool(
      name,
      {
        title: tool.title,
        description: `${tool.description} Needs a token with the ${MCP_TOOL_SCOPES[name]} scope.`,
        inputSchema: MCP_TOOL_INPUTS[name],
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly,
          destructiveHint: tool.destructive ?? false,
          openWorldHint: false,
        },
      },
      (input: unknown) => callTool(tool, input, context),
    )
  }
  return server
}
