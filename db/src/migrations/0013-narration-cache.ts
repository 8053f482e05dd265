import { type Kysely, sql } from 'kysely'

/**
 * Narration as its own cached step (issue 21 item 4): each project's spoken narrations by
 * their `narrationKey` (provider, model, voice, exact text), with their word timings. The WAV
 * is an asset of the project, so it is stored where the project's files are (S3 or the data
 * folder), read by any worker, and removed with the project. `last_used_at` orders the
 * pruning of the least recently used past the cache's budget.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('narration_cache')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('key', 'text', (c) => c.notNull().check(sql`key ~ '^[0-9a-f]{64}$'`))
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('duration_ms', 'double precision', (c) => c.notNull().check(sql`duration_ms >= 0`))
    .addColumn('words', 'jsonb', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull().check(sql`byte_size >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('narration_cache_pkey', ['project_id', 'key'])
    .execute()
  await db.schema
    .createIndex('narration_cache_last_used_at_idx')
    .on('narration_cache')
    .column('last_used_at')
    .execute()
  await db.schema
    .createIndex('narration_cache_asset_id_idx')
    .on('narration_cache')
    .column('asset_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('narration_cache').execute()
}
