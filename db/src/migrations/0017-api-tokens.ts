import { type Kysely, sql } from 'kysely'

/**
 * Personal access tokens (issue 41 item 1, decision 027). A token is `rg_` and 32 random
 * bytes; only its SHA-256 is kept (`token_hash`, unique: the lookup), with the first 8
 * characters to show (`display_prefix`). `scopes` holds this moment's scope names;
 * `project_ids` null means every project of the account. `last_used_at` is written at most
 * once a minute. A revoked token keeps its row (`revoked_at`) so the list can leave it out and
 * a request with it is told it was revoked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 80`))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) =>
      c
        .notNull()
        .check(
          sql`cardinality(scopes) >= 1 and scopes <@ array['projects:read', 'projects:write', 'generate', 'billing:read']::text[]`,
        ),
    )
    .addColumn('project_ids', sql`integer[]`)
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('api_tokens_user_id_idx').on('api_tokens').column('user_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute()
}
