import { type Kysely, sql } from 'kysely'
import { CREDIT_TRANSACTION_TYPES } from '../schema.ts'

/**
 * Video renders as generation jobs (issue 13 item 4): the job kind `video` and the ledger
 * type `video_generation`. Both columns are checked against a list, so the checks are
 * replaced (Postgres named them `<table>_<column>_check` when 0001 and 0008 created them).
 * New databases already got `video_generation` from 0001, which reads the current list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = sql.join(CREDIT_TRANSACTION_TYPES.map((t) => sql.lit(t)))
  await sql`alter table credit_transactions drop constraint if exists credit_transactions_transaction_type_check`.execute(
    db,
  )
  await sql`alter table credit_transactions add constraint credit_transactions_transaction_type_check check (transaction_type in (${types}))`.execute(
    db,
  )
  await sql`alter table generation_jobs drop constraint if exists generation_jobs_kind_check`.execute(
    db,
  )
  await sql`alter table generation_jobs add constraint generation_jobs_kind_check check (kind in ('script', 'scenes', 'image', 'video'))`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table generation_jobs drop constraint if exists generation_jobs_kind_check`.execute(
    db,
  )
  await sql`alter table generation_jobs add constraint generation_jobs_kind_check check (kind in ('script', 'scenes', 'image'))`.execute(
    db,
  )
}
