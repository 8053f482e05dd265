import { type Kysely, sql } from 'kysely'

/**
 * The rate-limit counters shared by every api process when there is no Redis (issue 11
 * item 6): the table `rate-limiter-flexible`'s RateLimiterPostgres reads and writes (its
 * columns, names and types; `key` is text rather than its varchar(255), as keys carry an
 * email and an address). One table for every limit: each key starts with its limit's name.
 * `expire` is in ms since the epoch; null never expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute()
  // The limiter deletes expired rows every few minutes.
  await sql`create index rate_limits_expire_idx on rate_limits (expire)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute()
}
