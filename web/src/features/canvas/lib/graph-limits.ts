import {
  MAX_CONNECTIONS,
  MAX_NODES,
  UPDATE_REFUSAL_REASONS,
  type UpdateRefusalReason,
} from '@reelgraph/shared'

/** How many nodes and connections a project's doc holds, or an edit adds. */
export interface GraphCounts {
  nodes: number
  connections: number
}

/**
 * Why the sync server would refuse adding `adding` to a doc holding `current` (the limits
 * of shared's `validateDocChange`: more than MAX_NODES nodes or MAX_CONNECTIONS
 * connections), or null when it fits. The canvas checks before writing, so a change the
 * server would refuse is never made, and nothing is sent (issue 11). Like the server, it
 * never refuses an edit that adds nothing, even to a project already over a limit.
 */
export function limitRefusal(
  current: GraphCounts,
  adding: GraphCounts,
): UpdateRefusalReason | null {
  if (adding.nodes > 0 && current.nodes + adding.nodes > MAX_NODES) {
    return UPDATE_REFUSAL_REASONS.tooManyNodes
  }
  if (adding.connections > 0 && current.connections + adding.connections > MAX_CONNECTIONS) {
    return UPDATE_REFUSAL_REASONS.tooManyConnections
  }
  return null
}
