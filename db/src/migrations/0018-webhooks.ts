import { type Kysely, sql } from 'kysely'

/**
 * Signed webhooks (issue 41 item 3, decision 028). This migration carries its own values and
 * imports no code of today.
 * - `webhook_endpoints`: where an account wants its events (`url`, the event types in
 *   `events`, optionally one project), and the signing secret (`whsec_` + base64 of random
 *   bytes). The secret is the receiver's key to check our signature, so it is kept as it is (to
 *   sign), not hashed; it is answered once, at creation. `consecutive_failures` counts
 *   deliveries in a row that failed for good; past the api's limit `disabled_at` is set.
 * - `webhook_deliveries`: one event for one endpoint. `message_id` is the `webhook-id` header
 *   (the same on every attempt); `payload` the exact JSON text signed and sent; `status`
 *   pending, succeeded or failed; the last attempt's HTTP status (null when refused, unreachable
 *   or timed out) and words; when the next retry is due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', sql`text[]`, (c) => c.notNull().check(sql`cardinality(events) > 0`))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('consecutive_failures', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`consecutive_failures >= 0`),
    )
    .execute()
  await db.schema
    .createIndex('webhook_endpoints_user_idx')
    .on('webhook_endpoints')
    .column('user_id')
    .execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'uuid', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'succeeded', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_response_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('webhook_endpoints').execute()
}
