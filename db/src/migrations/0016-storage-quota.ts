import { type Kysely, sql } from 'kysely'

/**
 * Storage that cannot be run up (issue 40 item 5, decision 026): each plan's storage quota
 * (seeded with the plans by the api from its settings; 1 GiB until then, this migration's own
 * value), and when each asset was last seen referenced by the asset collector's mark phase
 * (null: never yet; its `created_at` stands in). The collector deletes assets whose last
 * reference, or creation, is older than its grace period: the index finds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('storage_quota_bytes', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(1024 ** 3)
        .check(sql`storage_quota_bytes >= 0`),
    )
    .execute()
  await db.schema.alterTable('assets').addColumn('last_referenced_at', 'timestamptz').execute()
  await sql`create index assets_last_seen_idx
    on assets ((coalesce(last_referenced_at, created_at)))`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists assets_last_seen_idx`.execute(db)
  await db.schema.alterTable('assets').dropColumn('last_referenced_at').execute()
  await db.schema.alterTable('plans').dropColumn('storage_quota_bytes').execute()
}
