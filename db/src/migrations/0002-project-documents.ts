import { type Kysely, sql } from 'kysely'

/** The Yjs state of each project's document (issue 3). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_documents')
    .addColumn('project_id', 'integer', (c) =>
      c.primaryKey().references('projects.id').onDelete('cascade'),
    )
    .addColumn('state', 'bytea', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_documents').execute()
}
