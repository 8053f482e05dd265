import { type Kysely, sql } from 'kysely'

/**
 * Clips at video providers (issue 22 item 2): a running clip job holds a slot of its provider
 * (`provider_slot`, the provider's id) while it talks to it, so that every worker process
 * together keeps to the provider's concurrency setting. A job that ends (or whose worker dies:
 * its status moves on) holds none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generation_jobs').addColumn('provider_slot', 'text').execute()
  await sql`create index generation_jobs_provider_slot_idx on generation_jobs (provider_slot) where provider_slot is not null and status = 'running'`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists generation_jobs_provider_slot_idx`.execute(db)
  await db.schema.alterTable('generation_jobs').dropColumn('provider_slot').execute()
}
