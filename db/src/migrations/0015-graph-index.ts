import { type Kysely, sql } from 'kysely'

/**
 * The graph index beside each snapshot (issue 23, decision 021): the last
 * Yjs item of every key of the snapshot's graph maps, as `encodeGraphIndex` writes it. A REST
 * autosave on a project this process has not seen reads it instead of the snapshot.
 *
 * It stands for the snapshot it was written with, and the database keeps it so: a trigger
 * clears it when `state` changes without it (a writer that does not know about indexes). A
 * writer that changes the snapshot writes the new index in the same statement. Null until
 * the snapshot is next written (seeded or compacted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('project_documents').addColumn('graph_index', 'text').execute()
  await sql`create function project_documents_graph_index_stale() returns trigger
    language plpgsql as $$ begin new.graph_index := null; return new; end $$`.execute(db)
  await sql`create trigger project_documents_graph_index_stale
    before update of state on project_documents for each row
    when (new.graph_index is not distinct from old.graph_index)
    execute function project_documents_graph_index_stale()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists project_documents_graph_index_stale on project_documents`.execute(
    db,
  )
  await sql`drop function if exists project_documents_graph_index_stale()`.execute(db)
  await db.schema.alterTable('project_documents').dropColumn('graph_index').execute()
}
