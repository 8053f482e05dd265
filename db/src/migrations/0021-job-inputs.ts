import { type Kysely, sql } from 'kysely'

/**
 * Jobs that wait for their inputs (issue 42 item 4, decision 034). This migration carries its
 * own values and imports no code of today.
 * - `generation_jobs.input_hash`: the hash of its node's inputs when the job's input was read
 *   (shared's `generatorInputHash`), stored on the node with the result; null for a job
 *   without a node, or from before.
 * - `generation_jobs.waiting`: true while a queued job of a run waits for the jobs of its
 *   inputs (`job_inputs`): charged, not yet on the queue; its input is read from the document
 *   when they have all succeeded.
 * - `job_inputs`: job `job_id` waits for job `input_job_id` (whose result its node reads).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generation_jobs').addColumn('input_hash', 'text').execute()
  await db.schema
    .alterTable('generation_jobs')
    .addColumn('waiting', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  await db.schema
    .createTable('job_inputs')
    .addColumn('job_id', 'uuid', (c) =>
      c.notNull().references('generation_jobs.id').onDelete('cascade'),
    )
    .addColumn('input_job_id', 'uuid', (c) =>
      c.notNull().references('generation_jobs.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('job_inputs_pkey', ['job_id', 'input_job_id'])
    .addCheckConstraint('job_inputs_not_itself', sql`job_id <> input_job_id`)
    .execute()
  await db.schema
    .createIndex('job_inputs_input_idx')
    .on('job_inputs')
    .column('input_job_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_inputs').execute()
  await db.schema.alterTable('generation_jobs').dropColumn('waiting').execute()
  await db.schema.alterTable('generation_jobs').dropColumn('input_hash').execute()
}
