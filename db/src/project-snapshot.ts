import {
  applyGraphToDoc,
  decodeGraphIndex,
  encodeGraphIndex,
  type Graph,
  type GraphIndex,
  graphIndexOfDoc,
} from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
import * as Y from 'yjs'
import type { DB } from './schema.ts'

/**
 * A project's snapshot row as written (seeded or compacted): the Yjs state and its graph
 * index (issue 23, decision 021), always in one statement (the database
 * clears an index whose snapshot changed without it: migration 0015).
 */
export interface ProjectSnapshot {
  /** `Y.encodeStateAsUpdate(doc)`. */
  state: Uint8Array
  /** `encodeGraphIndex` of the same doc. */
  graph_index: string
}

/** The snapshot row of `doc` as it is now. */
export function snapshotOfDoc(doc: Y.Doc): ProjectSnapshot {
  return { state: Y.encodeStateAsUpdate(doc), graph_index: encodeGraphIndex(graphIndexOfDoc(doc)) }
}

/** The snapshot row of a new document holding `graph` (a project's first). */
export function seedSnapshot(graph: Graph): ProjectSnapshot {
  const doc = new Y.Doc()
  try {
    applyGraphToDoc(doc, graph)
    return snapshotOfDoc(doc)
  } finally {
    doc.destroy()
  }
}

/**
 * The graph index of a `StoredProjectDocument` that carries one (a document seeded just
 * now), or null when it cannot stand for the document: log rows, or no index. Null means:
 * decode the document instead.
 */
export function storedGraphIndex(stored: {
  /** The log's updates (`StoredProjectDocument.updates`). */
  updates: readonly unknown[]
  graphIndex?: string | null | undefined
}): GraphIndex | null {
  if (stored.updates.length > 0 || !stored.graphIndex) return null
  return decodeGraphIndex(stored.graphIndex)
}

/** A project's document as its graph index alone (what the REST autosave writes against). */
export interface IndexedProjectDocument {
  index: GraphIndex
  /** When the snapshot was written (what `readProjectDocumentChanges` compares with). */
  snapshotAt: Date
  /** The snapshot's encoded size in bytes. */
  snapshotBytes: number
}

/**
 * Reads a project's graph index without its snapshot, when it stands for the whole stored
 * document: an index is stored and the log holds no row (a compacted project, as one nobody
 * edited for LOG_COMPACT_IDLE_MS is). One statement, so one consistent view. Postgres splits
 * the index into its lines (`encodeGraphIndex`), one result row each, so no string here is
 * as large as the whole index (about 300 KB for 300 nodes: see GRAPH_INDEX_LINE_CHARS).
 * @returns null when it does not (no document, no index, or rows to compact): read the
 *   document instead (`readProjectDocument`)
 * @see issue 23 item 3; decision 020
 */
export async function readProjectGraphIndex(options: {
  db: Kysely<DB>
  projectId: number
}): Promise<IndexedProjectDocument | null> {
  const { db, projectId } = options
  const { rows } = await sql<{ line: string; at: Date; bytes: number }>`
    select line.text as line, d.updated_at as at, octet_length(d.state) as bytes
      from project_documents d,
        unnest(string_to_array(d.graph_index, chr(10))) with ordinality as line(text, n)
      where d.project_id = ${projectId} and d.graph_index is not null
        and not exists (select from project_document_updates where project_id = ${projectId})
      order by line.n`.execute(db)
  const row = rows[0]
  const index = row ? decodeGraphIndex(rows.map((r) => r.line)) : null
  if (!row || !index) return null
  return { index, snapshotAt: row.at, snapshotBytes: Number(row.bytes) }
}
