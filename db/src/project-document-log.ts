import { docToGraph } from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
import * as Y from 'yjs'
import { snapshotOfDoc } from './project-snapshot.ts'
import type { DB } from './schema.ts'

/**
 * A project's document as stored (issue 15 item 1, decision 008): the snapshot
 * (`project_documents.state`) and the updates appended since the last compaction
 * (`project_document_updates`), read in one statement, so one consistent view even while
 * another process compacts.
 */
export interface StoredProjectDocument {
  /** `Y.encodeStateAsUpdate` as of the last compaction (or the seed). */
  snapshot: Uint8Array
  /** The log's updates in append order (the order does not matter to Yjs). */
  updates: Uint8Array[]
  /** The log rows' ids (bigint as decimal strings), matching `updates`. */
  ids: string[]
  /** When the newest of the snapshot and the log rows was written. */
  savedAt: Date
  /** Sum of the log's update sizes, in bytes. */
  logBytes: number
  /** When the snapshot itself was written (absent: not read, as for a seed made in memory). */
  snapshotAt?: Date
  /**
   * The snapshot's graph index, set only for a document seeded just now (a read leaves it
   * out: `readProjectGraphIndex` reads it alone, and loads do not need its 300 KB).
   */
  graphIndex?: string | null
}

interface StoredRow {
  part: number
  id: string | null
  data: Uint8Array
  at: Date
}

/**
 * Reads a project's snapshot and log in one statement (one consistent view under
 * READ COMMITTED: a concurrent compaction is seen entirely or not at all).
 * @returns null when the project has no stored document yet (never opened, or deleted).
 */
export async function readProjectDocument(options: {
  db: Kysely<DB>
  projectId: number
}): Promise<StoredProjectDocument | null> {
  const { db, projectId } = options
  const { rows } = await sql<StoredRow>`
    select 0 as part, null::text as id, state as data, updated_at as at
      from project_documents where project_id = ${projectId}
    union all
    select 1, id::text, update, created_at
      from project_document_updates where project_id = ${projectId}
    order by part, id`.execute(db)
  const [first, ...rest] = rows
  if (!first || Number(first.part) !== 0) return null
  let savedAt = first.at
  let logBytes = 0
  const updates: Uint8Array[] = []
  const ids: string[] = []
  for (const row of rest) {
    updates.push(row.data)
    ids.push(row.id ?? '')
    logBytes += row.data.byteLength
    if (row.at > savedAt) savedAt = row.at
  }
  return { snapshot: first.data, updates, ids, savedAt, logBytes, snapshotAt: first.at }
}

/**
 * Applies the stored document to `doc` in one transaction: the snapshot, then each log
 * update (issue 15 item 1: loading merges the snapshot and the log). Cheaper than applying
 * {@link mergeStoredDocument}'s result: `Y.mergeUpdates` re-encodes the whole snapshot
 * (about 29 ms against 9 ms for a 300-node project with 20 updates).
 */
export function applyStoredDocument(
  doc: Y.Doc,
  stored: StoredProjectDocument,
  origin: unknown = null,
): void {
  doc.transact(() => {
    Y.applyUpdate(doc, stored.snapshot, origin)
    for (const update of stored.updates) Y.applyUpdate(doc, update, origin)
  }, origin)
}

/**
 * The whole stored document as one Yjs update (the snapshot merged with its log).
 * @see issue 15 item 1: loading merges the snapshot and the log
 */
export function mergeStoredDocument(stored: StoredProjectDocument): Uint8Array {
  return stored.updates.length === 0
    ? stored.snapshot
    : Y.mergeUpdates([stored.snapshot, ...stored.updates])
}

/** Postgres' foreign key violation: the project was deleted (the log references it). */
const FOREIGN_KEY_VIOLATION = '23503'

/**
 * Appends one Yjs update to a project's log: bytes in proportion to the edit, no lock on
 * the project row (the foreign key check only takes a key-share lock, which compaction's
 * `for no key update` does not block). Any process may append any update any number of
 * times: Yjs updates are idempotent, so a repeated or reordered row loads to the same doc.
 * @returns false when the project no longer exists (nothing written), else true.
 * @throws the database's error for anything else (the caller retries).
 * @see issue 15 item 1
 */
export async function appendProjectUpdate(options: {
  db: Kysely<DB>
  projectId: number
  update: Uint8Array
}): Promise<boolean> {
  return (await appendProjectUpdateRow(options)) !== null
}

/**
 * {@link appendProjectUpdate}, answering the new row's id (a bigint as a decimal string), or
 * null when the project no longer exists (nothing written).
 * @throws the database's error for anything else (the caller retries).
 * @see issue 23 item 3 (the REST path keeps the ids of the rows it has)
 */
export async function appendProjectUpdateRow(options: {
  db: Kysely<DB>
  projectId: number
  update: Uint8Array
}): Promise<string | null> {
  try {
    const row = await options.db
      .insertInto('project_document_updates')
      .values({ project_id: options.projectId, update: options.update })
      .returning(sql<string>`id::text`.as('id'))
      .executeTakeFirstOrThrow()
    return row.id
  } catch (err) {
    if ((err as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return null
    throw err
  }
}

/** What of a project's stored document is new to a reader that holds part of it. */
export interface StoredDocumentChanges {
  /** The snapshot, when it is not the one the reader holds (a compaction ran); else null. */
  snapshot: Uint8Array | null
  /** When the snapshot was written: what the reader holds next. */
  snapshotAt: Date
  /** The log rows the reader does not hold, in append order. */
  updates: { id: string; update: Uint8Array }[]
  /** The ids of every row in the log now: what the reader holds next. */
  ids: string[]
}

/**
 * What a project's stored document holds beyond what a reader already applied: the snapshot
 * when it changed since `snapshotAt` (a compaction merged rows into it), and the log rows
 * whose ids are not in `knownIds`; one statement, so one consistent view (as
 * {@link readProjectDocument}). Applying both to the reader's copy gives the stored
 * document: Yjs updates are idempotent.
 *
 * Only the rows the reader does not hold come back while the snapshot is the one it holds
 * (rows leave the log only in a compaction, which replaces the snapshot): an autosave reads
 * its one or two new rows, not the whole log of up to LOG_COMPACT_UPDATES rows (issue 23).
 * @returns null when the project has no stored document (never opened, or deleted)
 * @see issue 23 item 3 (REST PATCH against the document as stored, without loading it anew)
 */
export async function readProjectDocumentChanges(options: {
  db: Kysely<DB>
  projectId: number
  snapshotAt: Date
  knownIds: ReadonlySet<string>
}): Promise<StoredDocumentChanges | null> {
  const { db, projectId, snapshotAt, knownIds } = options
  const known = [...knownIds].join(',')
  // Dates come back from the driver to the millisecond: compare at that precision.
  const { rows } = await sql<{
    part: number
    id: string | null
    data: Uint8Array | null
    at: Date
  }>`
    with known as (select string_to_array(${known}, ',')::bigint[] as ids)
    select 0 as part, null::text as id,
        case when date_trunc('milliseconds', updated_at) = ${snapshotAt} then null else state end
          as data,
        updated_at as at
      from project_documents where project_id = ${projectId}
    union all
    select 1, id::text,
        case when id = any(known.ids) then null else update end,
        created_at
      from project_document_updates, known
      where project_id = ${projectId}
        and (not (id = any(known.ids))
          or exists (select from project_documents
            where project_id = ${projectId}
              and date_trunc('milliseconds', updated_at) <> ${snapshotAt}))
    order by part, id`.execute(db)
  const [first, ...rest] = rows
  if (!first || Number(first.part) !== 0) return null
  const listed = rest.map((row) => row.id ?? '')
  return {
    snapshot: first.data,
    snapshotAt: first.at,
    updates: rest.flatMap((row) => (row.data ? [{ id: row.id ?? '', update: row.data }] : [])),
    // The snapshot held: every known row is still in the log (only a compaction removes rows).
    ids: first.data ? listed : [...knownIds, ...listed],
  }
}

/** What one compaction did. */
export interface CompactionResult {
  /** Log rows merged into the snapshot and deleted (0: the log was empty, nothing written). */
  merged: number
  /** Size of the new snapshot in bytes (0 when nothing was written). */
  snapshotBytes: number
}

/**
 * Merges a project's log into its snapshot and materializes the REST JSON, in one
 * transaction: locks the project row `for no key update` (compactions of one project from
 * any process run one at a time; appends are not blocked), reads snapshot and log, writes
 * the merged snapshot, `projects.nodes/connections` (`docToGraph` of the merge) and
 * `updated_at` (the newest row's time), and deletes exactly the rows it merged (rows
 * appended meanwhile stay for the next compaction). A process that dies mid-way rolls back:
 * the snapshot and log are as before, and loading them gives the same document.
 * @returns null when the project does not exist.
 * @see issue 15 items 2 and 3
 */
export async function compactProjectDocument(options: {
  db: Kysely<DB>
  projectId: number
}): Promise<CompactionResult | null> {
  const { projectId } = options
  return options.db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('projects')
      .select('id')
      .where('id', '=', projectId)
      .forNoKeyUpdate()
      .executeTakeFirst()
    if (!locked) return null
    const stored = await readProjectDocument({ db: trx, projectId })
    if (!stored || stored.updates.length === 0) return { merged: 0, snapshotBytes: 0 }
    const doc = new Y.Doc()
    try {
      applyStoredDocument(doc, stored)
      const { state, graph_index } = snapshotOfDoc(doc)
      const graph = docToGraph(doc)
      await trx
        .updateTable('projects')
        .set({
          nodes: JSON.stringify(graph.nodes),
          connections: JSON.stringify(graph.connections),
          updated_at: stored.savedAt,
        })
        .where('id', '=', projectId)
        .execute()
      await trx
        .updateTable('project_documents')
        .set({ state, graph_index, updated_at: stored.savedAt })
        .where('project_id', '=', projectId)
        .execute()
      // Exactly the merged rows: one appended meanwhile may have a smaller id (ids are
      // taken at insert, not at commit), so no range.
      await sql`delete from project_document_updates
        where project_id = ${projectId}
          and id = any(string_to_array(${stored.ids.join(',')}, ',')::bigint[])`.execute(trx)
      return { merged: stored.updates.length, snapshotBytes: state.byteLength }
    } finally {
      doc.destroy()
    }
  })
}

/**
 * Whether the project's log holds updates not yet merged into its snapshot, i.e. its
 * `projects.nodes/connections` may be older than its stored document.
 * @see issue 15 item 3 (GET materializes on read when stale)
 */
export async function projectDocumentIsStale(options: {
  db: Kysely<DB>
  projectId: number
}): Promise<boolean> {
  const row = await options.db
    .selectFrom('project_document_updates')
    .select('id')
    .where('project_id', '=', options.projectId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
