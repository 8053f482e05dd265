import { type Kysely, sql } from 'kysely'

/**
 * Templates (issue 42 item 2). This migration carries its own values and imports no code of
 * today.
 * - `templates`: a project's graph saved with variables (`{{topic}}`), a name, a description
 *   and the settings of the videos made from it. `owner_id` is the account that saved it,
 *   null for a builtin one (`builtin_key` unique, seeded by the api at start-up, so its id is
 *   stable across restarts and processes). `project_id` is the project it was saved from
 *   (null once that project is deleted): the project's members see it as their team's.
 *   `graph` is a graph file's body (`{ nodes, connections, timelines }`), `variables` and
 *   `settings` the shared contract's shapes; `preview_asset_id` the asset shown as its
 *   preview frame (kept by the asset collector), null for none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('builtin_key', 'text', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('graph', 'jsonb', (c) => c.notNull())
    .addColumn('variables', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('settings', 'jsonb', (c) => c.notNull())
    .addColumn('preview_asset_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A builtin template has no owner; every other one has.
    .addCheckConstraint(
      'templates_owner_or_builtin',
      sql`(owner_id is null) <> (builtin_key is null)`,
    )
    .execute()
  await db.schema.createIndex('templates_owner_idx').on('templates').column('owner_id').execute()
  await db.schema
    .createIndex('templates_project_idx')
    .on('templates')
    .column('project_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('templates').execute()
}
