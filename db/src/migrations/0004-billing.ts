import { type Kysely, sql } from 'kysely'

/** Billing (issue 5): the plan and package catalogue, and Stripe events seen. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('stripe_price_id', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('credit_packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('best_value', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('stripe_price_id', 'text')
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['stripe_events', 'credit_packages', 'plans'])
    await db.schema.dropTable(t).execute()
}
