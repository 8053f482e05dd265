import { applyStoredDocument, type DB, readProjectDocument } from '@reelgraph/db'
import {
  type DocumentGateway,
  dropDuplicateConnections,
  getTimelinesMap,
  GRAPH_FILE_FORMAT,
  GRAPH_FILE_VERSION,
  type GraphFile,
  type GraphFileInput,
  type GraphFileTimelines,
  graphFileName,
  graphFileNode,
  graphFileTimelines,
  type ImportedProject,
  timelineRegistersOfFile,
  utf8Bytes,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import { PROJECT_BODY_LIMIT_BYTES } from '../../config.ts'
import { assetIdsOfGraph, keepReadableReferences, readableAssetIds } from './graph-file-assets.ts'
import { createProject, getProject, type ProjectCaller } from './project-service.ts'

/**
 * The graph file (issue 42 item 2, decision 031): a project exported as shared's
 * `GraphFile` and a file imported as a new project, over the services REST uses to get and
 * create a project (`getProject`, `createProject`), so membership, the API token's project
 * limit and the size rule are theirs.
 */

/** An exported graph file: its JSON text and the name to save it as. */
export interface ExportedGraphFile {
  /** `<project name>.reelgraph.json`, safe on every system. */
  fileName: string
  /** The file's JSON (indented when that still fits the import's body limit). */
  text: string
}

/**
 * The timeline registers of the project's stored document (what every editor sees once
 * saved), or none when it has no stored document yet (never opened: no timeline was edited).
 */
async function storedTimelineRegisters(
  db: Kysely<DB>,
  projectId: number,
): Promise<[string, unknown][]> {
  const stored = await readProjectDocument({ db, projectId })
  if (!stored) return []
  const doc = new Y.Doc()
  try {
    applyStoredDocument(doc, stored)
    return [...getTimelinesMap(doc).entries()]
  } finally {
    doc.destroy()
  }
}

/**
 * A project as a graph file of the current version, for any member (viewers too): its name,
 * description, nodes (each as `graphFileNode` keeps it: no job state), connections and its
 * Video nodes' timelines. Node ids are kept: they are unique within a project only, so the
 * imported copy uses the same ones.
 * @throws AppError 404 NOT_FOUND when it does not exist or the user is not a member (or it
 *   is outside the API token's project limit).
 */
export async function exportProjectGraph(
  db: Kysely<DB>,
  { userId, projectId, now = new Date() }: ProjectCaller & { now?: Date },
): Promise<ExportedGraphFile> {
  const project = await getProject(db, { userId, projectId })
  const nodes = project.nodes.map(graphFileNode)
  const videoIds = new Set(nodes.filter((n) => n.type === 'video').map((n) => n.id))
  // Only a Video node has a timeline: a project without one is not decoded.
  const timelines: GraphFileTimelines =
    videoIds.size > 0
      ? graphFileTimelines(await storedTimelineRegisters(db, projectId), videoIds)
      : {}
  const file = {
    format: GRAPH_FILE_FORMAT,
    version: GRAPH_FILE_VERSION,
    exportedAt: now.toISOString(),
    project: { name: project.name, description: project.description },
    nodes,
    connections: project.connections,
    timelines,
  } satisfies GraphFileInput
  // Indented for people who read or diff it, unless only the compact form would import.
  const indented = JSON.stringify(file, null, 2)
  const text = utf8Bytes(indented) <= PROJECT_BODY_LIMIT_BYTES ? indented : JSON.stringify(file)
  return { fileName: graphFileName(project.name), text }
}

/**
 * Makes a new project owned by `userId` from a graph file read by shared's `parseGraphFile`
 * (so it keeps every rule of the document): named `name`, else as the file says; the nodes
 * with their ids, without job state; asset references the caller cannot open left out, each
 * said in `warnings` (`graph-file-assets.ts`); the timelines written into its document. Nothing
 * is stored when anything is refused; a failure writing the timelines deletes the project.
 * @throws AppError 413 PAYLOAD_TOO_LARGE when the graph is over MAX_PROJECT_BYTES; 403
 *   FORBIDDEN for an API token limited to some projects (as `createProject`).
 * @throws Error from the document gateway when the timelines cannot be stored.
 */
export async function importProjectGraph(
  deps: { db: Kysely<DB>; documents: DocumentGateway },
  { userId, file, name }: { userId: number; file: GraphFile; name?: string | undefined },
): Promise<ImportedProject> {
  const { db, documents } = deps
  const nodes = file.nodes.map(graphFileNode)
  const readable = await readableAssetIds(db, {
    userId,
    assetIds: assetIdsOfGraph(nodes, file.timelines),
  })
  const graph = keepReadableReferences({ nodes, timelines: file.timelines, readable })
  const created = await createProject(db, userId, {
    name: name ?? file.project.name,
    description: file.project.description,
    nodes: graph.nodes,
    connections: dropDuplicateConnections(file.connections),
  })
  const registers = timelineRegistersOfFile(graph.timelines)
  if (registers.length > 0) {
    try {
      await documents.transact(created.id, (doc, origin) => {
        const map = getTimelinesMap(doc)
        doc.transact(() => {
          for (const [key, value] of registers) map.set(key, value)
        }, origin)
      })
    } catch (error) {
      await db.deleteFrom('projects').where('id', '=', created.id).execute()
      await documents.closeDocument(created.id)
      throw error
    }
  }
  return { ...created, warnings: graph.warnings }
}
