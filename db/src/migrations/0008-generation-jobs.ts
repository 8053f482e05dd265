import { type Kysely, sql } from 'kysely'

/**
 * Generation as durable jobs (issue 12): one row per job, the record the api answers from
 * (`GET /api/jobs/:id`) and the worker updates. The queue itself (delivery, leases, retries)
 * is pg-boss's, in its own schema `pgboss`, created by pg-boss at start; a job's pg-boss id
 * is this row's id.
 * - `idempotency_key` (`<kind>:<user>:<Idempotency-Key>`) is unique: a retried request finds
 *   the job it started instead of charging again.
 * - `spend_transaction_id` is the charge (null when the action is free), refunded at most once
 *   by the ledger; `refunded` is what went back.
 * - `provider_paid` turns true once the provider delivered (a cancel after that refunds nothing).
 * - `result_written` turns true once the result is in the project's document.
 * - `error_code` is the api error a failed job answers with (`PROVIDER_ERROR`, ...).
 * - A job outlives its project (`project_id` set null): its creator still reads it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('generation_jobs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('node_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('script', 'scenes', 'image')`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`),
    )
    .addColumn('progress', 'integer')
    .addColumn('stage', 'text')
    .addColumn('message', 'text')
    .addColumn('error_code', 'text')
    .addColumn('cost', 'integer', (c) => c.notNull())
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('spend_transaction_id', 'integer', (c) => c.references('credit_transactions.id'))
    .addColumn('provider_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('input', 'jsonb', (c) => c.notNull())
    .addColumn('result', 'jsonb')
    .addColumn('result_written', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('generation_jobs_user_idx')
    .on('generation_jobs')
    .columns(['user_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('generation_jobs_project_idx')
    .on('generation_jobs')
    .column('project_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('generation_jobs').execute()
}
