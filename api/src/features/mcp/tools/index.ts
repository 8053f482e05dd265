import type { McpToolName } from '@reelgraph/shared'
import type { McpTool } from '../mcp-tool.ts'
import { getCreditsTool } from './account-tools.ts'
import {
  cancelBatchTool,
  createBatchTool,
  getBatchTool,
  retryBatchTool,
  startBatchTool,
} from './batch-tools.ts'
import { exportVideoTool } from './export-tools.ts'
import { listModelsTool, makeVideoTool, runNodeTool } from './generation-tools.ts'
import { addNodesTool, connectNodesTool, deleteNodesTool, updateNodeTool } from './graph-tools.ts'
import { cancelJobTool, getJobTool } from './job-tools.ts'
import { createProjectTool, getProjectTool, listProjectsTool } from './project-tools.ts'
import { runStaleTool } from './run-tools.ts'
import { createProjectFromTemplateTool, listTemplatesTool } from './template-tools.ts'

/**
 * Every MCP tool by name (issue 41 item 2): the registry the server registers from. A tool
 * is one entry here and one schema in shared's `MCP_TOOL_INPUTS`; the type makes a name
 * without its tool (or the other way round) fail to compile.
 */
export const MCP_TOOLS: { readonly [N in McpToolName]: McpTool<N> } = {
  list_projects: listProjectsTool,
  create_project: createProjectTool,
  get_project: getProjectTool,
  add_nodes: addNodesTool,
  connect_nodes: connectNodesTool,
  update_node: updateNodeTool,
  delete_nodes: deleteNodesTool,
  run_node: runNodeTool,
  make_video: makeVideoTool,
  get_job: getJobTool,
  cancel_job: cancelJobTool,
  list_models: listModelsTool,
  get_credits: getCreditsTool,
  export_video: exportVideoTool,
  list_templates: listTemplatesTool,
  create_project_from_template: createProjectFromTemplateTool,
  create_batch: createBatchTool,
  start_batch: startBatchTool,
  get_batch: getBatchTool,
  cancel_batch: cancelBatchTool,
  retry_batch: retryBatchTool,
  run_stale: runStaleTool,
}
