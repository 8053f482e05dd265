import { quoteProjectRun, runProject } from '../../runs/run-service.ts'
import { defineTool } from '../mcp-tool.ts'

/**
 * The run tool (issue 42 item 4; issue 42: "batches are driven by tokens and MCP too"): the
 * same services as `POST /api/projects/:id/run`, its `dryRun` the quote.
 */

export const runStaleTool = defineTool({
  name: 'run_stale',
  title: 'Run what is stale',
  description:
    'The canvas’s Run stale: runs the project’s generators whose result was not made from their inputs as they are now (scope stale, the default; scope all runs every generator), and everything that reads their results, in dependency order, as jobs that wait for their inputs; unchanged results are reused and not paid again. `nodeIds` limits it to those nodes and what depends on them. Charged the total at once (a tool error in words, nothing charged, when your balance is short). Answers the nodes it runs (nodeId, type, jobId, credits, waitsFor), the total credits, and the nodes left out with why; empty and 0 when nothing is stale. Call it with dryRun true first to see the price; follow each job with get_job. Editors only.',
  readOnly: false,
  async run({ projectId, scope, nodeIds, dryRun }, { deps, actor }) {
    const request = { userId: actor.user.id, projectId, scope: scope ?? 'stale', nodeIds }
    return dryRun ? await quoteProjectRun(deps, request) : await runProject(deps, request)
  },
})
