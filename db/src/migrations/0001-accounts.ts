import { type Kysely, sql } from 'kysely'
import { CREDIT_TRANSACTION_TYPES } from '../schema.ts'

/** Accounts, sessions, emailed tokens, the credit ledger and projects (issue 2). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('plan_credits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`plan_credits >= 0`),
    )
    .addColumn('purchased_credits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`purchased_credits >= 0`),
    )
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('subscription_status', 'text', (c) => c.notNull().defaultTo('free'))
    .addColumn('subscription_period_end', 'timestamptz')
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create unique index users_email_lower_idx on users (lower(email))`.execute(db)

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute()

  for (const table of ['password_reset_tokens', 'email_verification_tokens'] as const) {
    let builder = db.schema
      .createTable(table)
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
    if (table === 'email_verification_tokens') {
      builder = builder.addColumn('email', 'text', (c) => c.notNull())
    }
    await builder
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute()
    await db.schema.createIndex(`${table}_user_id_idx`).on(table).column('user_id').execute()
  }

  const types = sql.join(CREDIT_TRANSACTION_TYPES.map((t) => sql.lit(t)))
  await db.schema
    .createTable('credit_transactions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('transaction_type', 'text', (c) =>
      c.notNull().check(sql`transaction_type in (${types})`),
    )
    .addColumn('description', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('credit_transactions_user_id_idx')
    .on('credit_transactions')
    .columns(['user_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('projects')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('nodes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('connections', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create index projects_user_updated_idx on projects (user_id, updated_at desc)`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'projects',
    'credit_transactions',
    'email_verification_tokens',
    'password_reset_tokens',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(t).execute()
  }
}
