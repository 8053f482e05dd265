import { type Kysely, sql } from 'kysely'

/**
 * "Make video" (issue 13 item 6): the job kind `make-video`, one job for the chain script ->
 * scenes -> images -> render, and `delivered_cost`, the credits of the chain's steps already
 * delivered: a chain that fails or is cancelled half-way refunds only the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table generation_jobs drop constraint if exists generation_jobs_kind_check`.execute(
    db,
  )
  await sql`alter table generation_jobs add constraint generation_jobs_kind_check check (kind in ('script', 'scenes', 'image', 'video', 'make-video'))`.execute(
    db,
  )
  await sql`alter table generation_jobs add column delivered_cost integer not null default 0 check (delivered_cost >= 0)`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table generation_jobs drop column if exists delivered_cost`.execute(db)
  await sql`alter table generation_jobs drop constraint if exists generation_jobs_kind_check`.execute(
    db,
  )
  await sql`alter table generation_jobs add constraint generation_jobs_kind_check check (kind in ('script', 'scenes', 'image', 'video'))`.execute(
    db,
  )
}
