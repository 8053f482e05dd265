import { type Kysely, sql } from 'kysely'

/**
 * Batch runs from a table (issue 42 item 3, decision 033). This migration carries its own
 * values and imports no code of today.
 * - `batches`: one template times rows of values for one account. `template_id` names the
 *   template it was quoted from, without a foreign key: a batch is a record of what ran and
 *   outlives a template deleted later (its name is kept in `template_name`). `status` quoted,
 *   running, done or cancelled; the quote's credits per row and in all, its estimate in
 *   seconds and the concurrency it assumed; `poll_token` the one poll chain of the batch's
 *   driver that may go on (a new one replaces it at start and retry); `completed_event_sent`
 *   true once `batch.completed` was recorded for the batch's last final row (reset by a retry).
 * - `batch_rows`: one row of the table. `row_number` 1 for the first row of values; `values`
 *   the variables' values (JSON object); `status` quoted, queued, running, succeeded, failed,
 *   cancelled; the project it made (`project_name` kept) and its current Make video job
 *   (`job_id`), the Make video call it submits (`make_video`, JSON, kept for a retry),
 *   `spent_before` the credits earlier attempts kept after their refunds, `error` why it
 *   failed, in words.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull())
    .addColumn('template_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('quoted')
        .check(sql`status in ('quoted', 'running', 'done', 'cancelled')`),
    )
    .addColumn('quote_credits', 'integer', (c) => c.notNull())
    .addColumn('quote_credits_per_row', 'integer', (c) => c.notNull())
    .addColumn('quote_seconds', 'integer', (c) => c.notNull())
    .addColumn('quote_concurrency', 'integer', (c) => c.notNull())
    .addColumn('poll_token', 'uuid')
    .addColumn('completed_event_sent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('batches_user_idx')
    .on('batches')
    .columns(['user_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('batch_rows')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('batch_id', 'integer', (c) =>
      c.notNull().references('batches.id').onDelete('cascade'),
    )
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('values', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('quoted')
        .check(sql`status in ('quoted', 'queued', 'running', 'succeeded', 'failed', 'cancelled')`),
    )
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('project_name', 'text')
    .addColumn('job_id', 'uuid', (c) => c.references('generation_jobs.id').onDelete('set null'))
    .addColumn('make_video', 'jsonb')
    .addColumn('spent_before', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addUniqueConstraint('batch_rows_number_unique', ['batch_id', 'row_number'])
    .execute()
  await db.schema
    .createIndex('batch_rows_status_idx')
    .on('batch_rows')
    .columns(['batch_id', 'status'])
    .execute()
  await db.schema.createIndex('batch_rows_job_idx').on('batch_rows').column('job_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('batch_rows').execute()
  await db.schema.dropTable('batches').execute()
}
