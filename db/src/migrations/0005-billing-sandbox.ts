import { type Kysely, sql } from 'kysely'

/**
 * The offline billing sandbox (issue 5 item 4): its checkout sessions and subscriptions,
 * standing in for Stripe's when `STRIPE_SECRET_KEY` is not set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_checkout_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('payment', 'subscription')`))
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('plan_or_package_id', 'text', (c) => c.notNull())
    .addColumn('replaces_subscription_id', 'text')
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'paid', 'canceled')`),
    )
    .addColumn('subscription_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createTable('sandbox_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('price_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('current_period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('current_period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('sandbox_subscriptions_customer_idx')
    .on('sandbox_subscriptions')
    .column('customer_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['sandbox_subscriptions', 'sandbox_checkout_sessions'])
    await db.schema.dropTable(t).execute()
}
