import { type Kysely, sql } from 'kysely'

/**
 * Job kinds come from the api's registry (issue 21 item 1), not from a list in the database:
 * a new kind is a module and a line in the map, with no migration. The column keeps the shape
 * of a kind's name (the api's `JOB_KIND_NAME_PATTERN`); which names exist is the registry's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table generation_jobs drop constraint if exists generation_jobs_kind_check`.execute(
    db,
  )
  await sql`alter table generation_jobs add constraint generation_jobs_kind_check check (kind ~ '^[a-z][a-z0-9-]{0,39}$')`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table generation_jobs drop constraint if exists generation_jobs_kind_check`.execute(
    db,
  )
  await sql`alter table generation_jobs add constraint generation_jobs_kind_check check (kind in ('script', 'scenes', 'image', 'video', 'make-video'))`.execute(
    db,
  )
}
