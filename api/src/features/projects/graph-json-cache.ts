import { LRUCache } from 'lru-cache'
import { GRAPH_JSON_CACHE_BYTES } from '../../config.ts'

/**
 * The stored graphs' JSON text a process read last, by project (issue 41 item 2: agents
 * reading a large project again and again with `get_project`). An entry is the text of the
 * project's `nodes` and `connections` columns with the version it was read at (the
 * project's `updated_at` as Postgres prints it, to the microsecond: the columns change only
 * with it). A reader first reads the version, and uses the entry only when it is that one;
 * so a process never answers an older graph than the database holds, whichever process
 * wrote it. Bounded by {@link GRAPH_JSON_CACHE_BYTES}, least recently used out first.
 */

/** One project's stored graph as JSON text, at `version`. */
export interface GraphJsonEntry {
  version: string
  nodes: string
  connections: string
}

const cache = new LRUCache<number, GraphJsonEntry>({
  maxSize: GRAPH_JSON_CACHE_BYTES,
  // UTF-16 code units, about the bytes a string holds in memory.
  sizeCalculation: (entry) => 2 * (entry.nodes.length + entry.connections.length) + 64,
})

/** The entry of `projectId` when it was read at `version`, else undefined. */
export function cachedGraphJson(projectId: number, version: string): GraphJsonEntry | undefined {
  const entry = cache.get(projectId)
  return entry?.version === version ? entry : undefined
}

/** Keeps `entry` as project `projectId`'s graph text (a newer version replaces an older). */
export function keepGraphJson(projectId: number, entry: GraphJsonEntry): void {
  cache.set(projectId, entry)
}

/** The end of a project's JSON object from its graph: `,"nodes":[…],"connections":[…]}`. */
export function graphJsonTail(entry: GraphJsonEntry): string {
  return `,"nodes":${entry.nodes},"connections":${entry.connections}}`
}
