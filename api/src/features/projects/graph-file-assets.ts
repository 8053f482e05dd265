import type { DB } from '@reelgraph/db'
import type { GraphFileTimelines, GraphNode } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { assetIdsIn } from '../assets/asset-references.ts'

/**
 * The files a graph file names (issue 42 item 2, decision 031): node data and timeline
 * settings hold asset URLs (`/api/assets/<id>`), never bytes. An import keeps a reference the
 * importing person can open (an asset of a project they are a member of) and leaves out, in
 * words, every field that names one they cannot (another person's project, or a file that is
 * gone): a file must not lend anyone a way into someone else's media.
 */

/** Ids per query: well under Postgres' 65,535 parameters, and short statements. */
const ASSET_LOOKUP_CHUNK = 1_000
/**
 * Left-out fields named one by one in the answer; the rest are counted in one line, so a
 * 2,000-node file of someone else's pictures answers a readable list.
 */
const MAX_NAMED_WARNINGS = 20

/**
 * Of `assetIds`, those `userId` may open: assets of projects they are a member of (the rule
 * of `findAsset`, issue 6 item 1), looked up in chunks.
 */
export async function readableAssetIds(
  db: Kysely<DB>,
  { userId, assetIds }: { userId: number; assetIds: readonly string[] },
): Promise<Set<string>> {
  const readable = new Set<string>()
  for (let i = 0; i < assetIds.length; i += ASSET_LOOKUP_CHUNK) {
    const rows = await db
      .selectFrom('assets')
      .innerJoin('project_members as m', 'm.project_id', 'assets.project_id')
      .select('assets.id')
      .where('assets.id', 'in', assetIds.slice(i, i + ASSET_LOOKUP_CHUNK))
      .where('m.user_id', '=', userId)
      .execute()
    for (const row of rows) readable.add(row.id)
  }
  return readable
}

/** The asset ids every text of `nodes`' data and of `timelines` names. */
export function assetIdsOfGraph(nodes: readonly GraphNode[], timelines: GraphFileTimelines) {
  const texts: string[] = []
  for (const node of nodes) {
    for (const value of Object.values(node.data)) if (typeof value === 'string') texts.push(value)
  }
  for (const timeline of Object.values(timelines)) {
    for (const value of Object.values(timeline.settings)) {
      if (typeof value === 'string') texts.push(value)
    }
  }
  return assetIdsIn(texts)
}

/** A graph with the references its importer may keep, and what was left out, in words. */
export interface ReadableGraph {
  nodes: GraphNode[]
  timelines: GraphFileTimelines
  /** One sentence per thing left out or worth knowing; empty when nothing. */
  warnings: string[]
}

/** A node as a person knows it: its label and id. */
function nodeName(node: GraphNode): string {
  return node.label ? `“${node.label}” (${node.id})` : node.id
}

/** Whether `text` names an asset outside `readable`. */
function namesUnreadable(text: string, readable: ReadonlySet<string>): boolean {
  return assetIdsIn([text]).some((id) => !readable.has(id))
}

/**
 * `nodes` and `timelines` without the fields that name an asset outside `readable` (a data
 * field or a timeline setting is left out whole: it then reads as its default, as a field
 * never set does), with a warning per field left out, and one about the kept references,
 * which stay files of the project they came from.
 */
export function keepReadableReferences({
  nodes,
  timelines,
  readable,
}: {
  nodes: readonly GraphNode[]
  timelines: GraphFileTimelines
  readable: ReadonlySet<string>
}): ReadableGraph {
  const leftOut: string[] = []
  const kept = new Set<string>()
  const keep = (text: string): boolean => {
    if (namesUnreadable(text, readable)) return false
    for (const id of assetIdsIn([text])) kept.add(id)
    return true
  }
  const readableNodes = nodes.map((node) => {
    const data: GraphNode['data'] = {}
    for (const [key, value] of Object.entries(node.data)) {
      if (typeof value === 'string' && !keep(value)) {
        leftOut.push(
          `${nodeName(node)}: left out ${key}, which names a file you cannot open (in a project you are not a member of, or deleted).`,
        )
      } else data[key] = value
    }
    return { ...node, data }
  })
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const readableTimelines: GraphFileTimelines = {}
  for (const [videoId, timeline] of Object.entries(timelines)) {
    const settings: GraphFileTimelines[string]['settings'] = {}
    for (const [field, value] of Object.entries(timeline.settings)) {
      if (typeof value === 'string' && !keep(value)) {
        const video = byId.get(videoId)
        leftOut.push(
          `The timeline of ${video ? nodeName(video) : videoId}: left out ${field}, which names a file you cannot open (in a project you are not a member of, or deleted).`,
        )
      } else settings[field] = value
    }
    readableTimelines[videoId] = { settings, cuts: timeline.cuts }
  }
  const warnings = leftOut.slice(0, MAX_NAMED_WARNINGS)
  if (leftOut.length > MAX_NAMED_WARNINGS) {
    warnings.push(
      `And ${leftOut.length - MAX_NAMED_WARNINGS} more fields left out for the same reason.`,
    )
  }
  if (kept.size === 1) {
    warnings.push(
      '1 file (a picture, clip, render or music) still belongs to the project it came from: it shows here, but a render uses only this project’s own files, so generate or upload it again here before you render.',
    )
  } else if (kept.size > 1) {
    warnings.push(
      `${kept.size} files (pictures, clips, renders or music) still belong to the projects they came from: they show here, but a render uses only this project’s own files, so generate or upload them again here before you render.`,
    )
  }
  return { nodes: readableNodes, timelines: readableTimelines, warnings }
}
