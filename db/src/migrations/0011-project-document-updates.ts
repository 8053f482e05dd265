import { type Kysely, sql } from 'kysely'

/**
 * The append-only log of each project's document (issue 15 item 1, decision 008): every
 * store appends only the Yjs update(s) since the previous one, and compaction merges rows
 * into `project_documents.state` and deletes exactly those rows. `id` orders a project's
 * rows (the order does not matter to Yjs, it keeps loads reproducible); the primary key
 * (project_id, id) is the one index an append writes and the one a load or compaction reads.
 * `created_at` gives a project's last change before the next compaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_document_updates')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity())
    .addColumn('update', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('project_document_updates_pkey', ['project_id', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_document_updates').execute()
}
