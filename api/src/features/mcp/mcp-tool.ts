import type { McpToolInput, McpToolName } from '@reelgraph/shared'
import type { Logger } from 'pino'
import type { AppDeps } from '../../app-env.ts'
import type { TokenActor } from '../tokens/token-service.ts'
import type { JsonSplices, SplicedJson } from './json-splice.ts'

/**
 * One MCP tool (issue 41 item 2): what an agent reads in `tools/list` and what a call does.
 * Its arguments' schema and its token scope are shared's (`MCP_TOOL_INPUTS`,
 * `MCP_TOOL_SCOPES`); `run` calls the services REST calls, as the token's owner, inside the
 * token's project limit, once the scope is checked (`mcp-server.ts`).
 */
export interface McpTool<N extends McpToolName = McpToolName> {
  name: N
  /** A short human title (clients show it). */
  title: string
  /** What it does and answers, in words an agent can act on. */
  description: string
  /** True when it changes nothing (MCP's `readOnlyHint`). */
  readOnly: boolean
  /** True when it removes something (MCP's `destructiveHint`). */
  destructive?: boolean
  /**
   * Does the work. Resolves with a JSON-able object, the tool's structured result; throws
   * `AppError`s in words, which the agent reads as a tool error.
   */
  run(input: McpToolInput<N>, context: McpToolContext): Promise<McpToolAnswer>
}

/**
 * A tool's answer: a JSON-able object (answered as JSON text and as MCP structured content),
 * or {@link SplicedJson}: JSON text whose long part was prepared once (a large graph answered
 * again and again), answered as that text alone.
 */
export type McpToolAnswer = Record<string, unknown> | SplicedJson

/** What a tool call runs with. */
export interface McpToolContext {
  deps: AppDeps
  /** The token the agent authenticated with, and its owner. */
  actor: TokenActor
  /** The origin the agent reached (`https://reelgraph.example`): file URLs are made absolute on it. */
  origin: string
  logger: Logger
  /** Where a {@link SplicedJson} answer's bytes wait for the HTTP answer (`mcp-routes.ts`). */
  splices: JsonSplices
}

/** `tool`, typed by its name (so `run` gets that tool's arguments). */
export function defineTool<N extends McpToolName>(tool: McpTool<N>): McpTool<N> {
  return tool
}

/**
 * `path` (an asset URL the API answers, `/api/assets/…`) as an absolute URL on `origin`,
 * which the agent fetches with its `Authorization: Bearer` header; '' stays ''.
 */
export function absoluteUrl(origin: string, path: string): string {
  return path ? new URL(path, origin).href : ''
}
