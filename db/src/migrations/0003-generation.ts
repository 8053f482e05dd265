import { type Kysely, sql } from 'kysely'

/**
 * Generation (issue 4): generated assets, and which bucket each ledger row moved credits
 * in, so a refund puts them back where they came from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('credit_transactions')
    .addColumn('plan_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('purchased_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // Rows so far (account creation) moved purchased credits only.
  await sql`update credit_transactions set purchased_amount = amount`.execute(db)

  await db.schema
    .createTable('assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('assets_project_id_idx').on('assets').column('project_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('assets').execute()
  await db.schema
    .alterTable('credit_transactions')
    .dropColumn('plan_amount')
    .dropColumn('purchased_amount')
    .execute()
}
