import {
  compactProjectDocument,
  type DB,
  insertProjectWithOwner,
  projectDocumentIsStale,
  type ProjectRow,
} from '@reelgraph/db'
import {
  type CreatedProject,
  defaultProjectDescription,
  type DocumentGateway,
  type Graph,
  type KnownNodes,
  MAX_PROJECT_BYTES,
  type Project,
  type ProjectSummary,
  utf8Bytes,
  PROJECT_PREVIEW_MAX_NODES,
  type ProjectPreview,
  projectPreviewSchema,
  TOKEN_MESSAGES,
} from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
import { AppError } from '../../lib/app-error.ts'
import { CoalescedReads } from '../../lib/coalesced-reads.ts'
import { deleteProjectAssets } from '../assets/asset-service.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { projectNotFound as notFound, requireProjectRole } from '../access/project-access.ts'
import { allowedProjectIds, projectAllowed } from '../access/project-limit.ts'
import { cachedGraphJson, type GraphJsonEntry, keepGraphJson } from './graph-json-cache.ts'

/**
 * Projects: named graphs shared with members (spec §3 Project; issue 3 item 1, issue 6
 * item 1). Every function takes the acting user and answers 404 for a project they are not
 * a member of, as for one that does not exist, so ids cannot be probed; and 403 when their
 * role does not allow the call (reading: any member; renaming and graph changes: owner or
 * editor; deleting: the owner).
 */

/** The API's view of a stored graph column: what the sync server materialized. */
function graphOf(row: Pick<ProjectRow, 'nodes' | 'connections'>): Graph {
  return {
    nodes: row.nodes as Graph['nodes'],
    connections: row.connections as Graph['connections'],
  }
}

/**
 * An upper bound of the UTF-8 bytes of `graph`'s JSON, without writing it (issue 23: the
 * autosave sends a whole graph every second): each string at 6 bytes a UTF-16 code unit
 * (an escaped control character, `\u0001`, is the longest), each number at 24, and
 * MAX_JSON_OVERHEAD_BYTES of quotes, colons, commas and brackets around every value.
 */
function graphJsonBytesBound(graph: Graph): number {
  const text = (s: string) => 6 * s.length + MAX_JSON_OVERHEAD_BYTES
  let bytes = MAX_JSON_OVERHEAD_BYTES
  for (const node of graph.nodes) {
    bytes += text(node.id) + text(node.type) + text(node.label) + text(node.connectionPoints)
    bytes += 2 * (24 + MAX_JSON_OVERHEAD_BYTES) + 6 * MAX_JSON_OVERHEAD_BYTES
    for (const key in node.data) {
      const value = node.data[key]
      bytes += text(key) + (typeof value === 'string' ? text(value) : 24 + MAX_JSON_OVERHEAD_BYTES)
    }
  }
  for (const c of graph.connections)
    bytes += text(c.source) + text(c.target) + 3 * MAX_JSON_OVERHEAD_BYTES
  return bytes
}

/** Room for a key's quotes and colon, a value's separators and brackets, in bytes. */
const MAX_JSON_OVERHEAD_BYTES = 32

/**
 * @throws AppError 413 PAYLOAD_TOO_LARGE when the graph's JSON exceeds MAX_PROJECT_BYTES.
 */
export function assertProjectSize(graph: Graph): void {
  if (graphJsonBytesBound(graph) <= MAX_PROJECT_BYTES) return
  const bytes = utf8Bytes(JSON.stringify(graph))
  if (bytes > MAX_PROJECT_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `This project would take ${(bytes / 1024 / 1024).toFixed(1)} MiB; a project can be at most ${MAX_PROJECT_BYTES / 1024 / 1024} MiB. Remove some nodes or shorten long texts.`,
    )
  }
}

/** A stored preview, without entries a hand-edited row could make unreadable. */
function previewOf(raw: unknown): ProjectPreview {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((entry) => {
    const one = projectPreviewSchema.element.safeParse(entry)
    return one.success ? [one.data] : []
  })
}

/** Who calls on which project: the signed-in user's id and the project's, by name (issue 14). */
export interface ProjectCaller {
  userId: number
  projectId: number
}

/**
 * The projects the user is a member of (their own and those shared with them), most
 * recently updated first, with node counts, the user's role and the owner's name. A request
 * with an API token limited to some projects lists only those (issue 41 item 1).
 */
export async function listProjects(db: Kysely<DB>, userId: number): Promise<ProjectSummary[]> {
  const allowed = allowedProjectIds()
  const rows = await db
    .selectFrom('project_members as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as o', 'o.id', 'p.user_id')
    .select([
      'p.id',
      'p.name',
      'p.description',
      'p.created_at',
      // Appends since the last compaction are changes too (issue 15 item 3).
      sql<Date>`greatest(p.updated_at, (select max(u.created_at) from project_document_updates u where u.project_id = p.id))`.as(
        'updated_at',
      ),
      'm.role',
      'o.name as owner_name',
      sql<number>`jsonb_array_length(p.nodes)`.as('node_count'),
      // The card's preview: type and position of the first nodes, read in the database.
      sql<ProjectPreview | null>`(
        select jsonb_agg(jsonb_build_object(
          'type', n->>'type',
          'x', (n->'position'->>'x')::float8,
          'y', (n->'position'->>'y')::float8))
        from (select n from jsonb_array_elements(p.nodes) n limit ${PROJECT_PREVIEW_MAX_NODES}) s
      )`.as('preview'),
    ])
    .where('m.user_id', '=', userId)
    .$if(allowed !== null, (q) => q.where('p.id', 'in', allowed!))
    .orderBy('updated_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    nodeCount: Number(r.node_count),
    preview: previewOf(r.preview),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    role: r.role,
    ownerName: r.owner_name,
  }))
}

/**
 * One project with its graph, for any member. The graph is never older than the stored
 * document: when the project's update log holds rows not yet merged, it is compacted first
 * (materialize on read; issue 15 item 3).
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member.
 */
export async function getProject(
  db: Kysely<DB>,
  { userId, projectId }: ProjectCaller,
): Promise<Project> {
  // Members only: a stranger's request must not compact someone else's project.
  await requireProjectRole(db, { userId, projectId, needed: 'member' })
  if (await projectDocumentIsStale({ db, projectId })) {
    await compactProjectDocument({ db, projectId })
  }
  const row = await db
    .selectFrom('project_members as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as o', 'o.id', 'p.user_id')
    .selectAll('p')
    .select(['m.role', 'o.name as owner_name'])
    .where('m.project_id', '=', projectId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw notFound()
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ...graphOf(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    role: row.role,
    ownerName: row.owner_name,
  }
}

/** A project's graph as JSON text, in two parts: see {@link getProjectGraphJson}. */
export interface ProjectGraphJson {
  /** `{"id":…,"name":…,"role":…` (the object left open). */
  fields: string
  /** The stored graph's text at its version, as kept by `graph-json-cache.ts`. */
  graph: GraphJsonEntry
}

/** A project's name, the caller's role, its version and whether its log awaits compaction. */
function readProjectHead(db: Kysely<DB>, { userId, projectId }: ProjectCaller) {
  return db
    .selectFrom('project_members as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .select([
      'p.name',
      'm.role',
      sql<string>`p.updated_at::text`.as('version'),
      sql<boolean>`exists (select 1 from project_document_updates u where u.project_id = p.id)`.as(
        'stale',
      ),
    ])
    .where('m.project_id', '=', projectId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
}

const projectHeads = new CoalescedReads<Awaited<ReturnType<typeof readProjectHead>>>()

/**
 * One project's graph as JSON text (`{"id", "name", "role", "nodes", "connections"}`: its
 * `fields`, then `graph-json-cache.ts`' `graphJsonTail`), for any member: what {@link getProject} reads, without parsing the stored graph into objects
 * and printing it again (the MCP server's `get_project`, issue 41 item 2: a 300-node graph is
 * some 200 KB a caller only passes on). One small read checks the membership, the version
 * and whether the update log holds changes not merged yet (then compacted first, as
 * {@link getProject}); the graph's text comes from this process's `graph-json-cache.ts` when
 * it holds that version, else from the database (as Postgres prints it).
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member.
 */
export async function getProjectGraphJson(
  db: Kysely<DB>,
  { userId, projectId }: ProjectCaller,
): Promise<ProjectGraphJson> {
  // A project outside an API token's limit is a stranger's (issue 41 item 1).
  if (!projectAllowed(projectId)) throw notFound()
  // Callers reading the same project as the same user in the same turn share one read
  // (decision 030).
  let row = await projectHeads.run(db, `${projectId}:${userId}`, () =>
    readProjectHead(db, { userId, projectId }),
  )
  if (!row) throw notFound()
  if (row.stale) {
    await compactProjectDocument({ db, projectId })
    row = await readProjectHead(db, { userId, projectId })
    if (!row) throw notFound()
  }
  let graph = cachedGraphJson(projectId, row.version)
  if (!graph) {
    const stored = await db
      .selectFrom('projects')
      .select([
        sql<string>`updated_at::text`.as('version'),
        sql<string>`nodes::text`.as('nodes'),
        sql<string>`connections::text`.as('connections'),
      ])
      .where('id', '=', projectId)
      .executeTakeFirst()
    if (!stored) throw notFound()
    graph = stored
    keepGraphJson(projectId, stored)
  }
  const fields = JSON.stringify({ id: projectId, name: row.name, role: row.role })
  return { fields: fields.slice(0, -1), graph }
}

/**
 * Creates a project; its document is seeded from this JSON when first opened.
 * @throws AppError 413 when the graph is over MAX_PROJECT_BYTES; 403 FORBIDDEN for a
 *   request whose API token is limited to some projects (issue 41 item 1).
 */
export async function createProject(
  db: Kysely<DB>,
  userId: number,
  input: { name: string; description?: string | undefined } & Graph,
  now = new Date(),
): Promise<CreatedProject> {
  if (allowedProjectIds() !== null) throw new AppError('FORBIDDEN', TOKEN_MESSAGES.projectLimited)
  const graph = { nodes: input.nodes, connections: input.connections }
  assertProjectSize(graph)
  const id = await insertProjectWithOwner(db, {
    user_id: userId,
    name: input.name,
    description: input.description ?? defaultProjectDescription(now),
    nodes: JSON.stringify(graph.nodes),
    connections: JSON.stringify(graph.connections),
    created_at: now,
    updated_at: now,
  })
  return { id, name: input.name }
}

/**
 * Renames a project (owner or editor).
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member;
 *   403 FORBIDDEN when the user is a viewer.
 */
export async function renameProject(
  db: Kysely<DB>,
  { userId, projectId, name }: ProjectCaller & { name: string },
): Promise<{ name: string; updatedAt: string }> {
  await requireProjectRole(db, { userId, projectId, needed: 'editor' })
  const row = await db
    .updateTable('projects')
    .set({ name, updated_at: sql`now()` })
    .where('id', '=', projectId)
    .returning(['name', 'updated_at'])
    .executeTakeFirst()
  if (!row) throw notFound()
  return { name: row.name, updatedAt: row.updated_at.toISOString() }
}

/**
 * Replaces a project's graph through its live document (the Yjs changes it implies, appended
 * to the project's log; issue 15 item 4), so open editors see the change, and answers the
 * document's graph as stored (owner or editor).
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member;
 *   403 FORBIDDEN when the user is a viewer; 413 when the graph is over MAX_PROJECT_BYTES.
 */
export async function replaceProjectGraph(
  db: Kysely<DB>,
  documents: DocumentGateway,
  { userId, projectId, graph }: ProjectCaller & { graph: Graph },
): Promise<Graph> {
  await requireProjectRole(db, { userId, projectId, needed: 'editor' })
  assertProjectSize(graph)
  return documents.applyGraph(projectId, graph)
}

/**
 * The nodes a PATCH replacing the project's graph need not parse (`parsePatchProjectInput`;
 * issue 23): those this process wrote last, else, the caller being an editor, the nodes of
 * the project's stored document (read now and kept for the write that follows), or
 * undefined when there are none.
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member;
 *   403 FORBIDDEN for a viewer (when the document must be read)
 */
export async function knownNodesForGraph(
  db: Kysely<DB>,
  documents: DocumentGateway,
  { userId, projectId }: ProjectCaller,
): Promise<KnownNodes | undefined> {
  const kept = documents.knownNodes(projectId)
  if (kept) return kept
  await requireProjectRole(db, { userId, projectId, needed: 'editor' })
  return documents.readKnownNodes(projectId)
}

/**
 * Deletes a project with its document, members, invitations and generated files, and
 * disconnects everyone's open connections (the owner only).
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member;
 *   403 FORBIDDEN when the user is not its owner.
 */
export async function deleteProject(
  db: Kysely<DB>,
  documents: DocumentGateway,
  assets: AssetStorage,
  { userId, projectId }: ProjectCaller,
): Promise<void> {
  await requireProjectRole(db, { userId, projectId, needed: 'owner' })
  await deleteProjectAssets(db, assets, projectId)
  const deleted = await db
    .deleteFrom('projects')
    .where('id', '=', projectId)
    .returning('id')
    .executeTakeFirst()
  if (!deleted) throw notFound()
  await documents.closeDocument(projectId)
}
