import { type Kysely, sql } from 'kysely'

/**
 * Teams (issue 6 item 1): who may open a project and with which role, and the pending
 * email invitations. Every existing project gets its owner as an `owner` member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'editor', 'viewer')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('project_members_pkey', ['project_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('project_members_user_id_idx')
    .on('project_members')
    .column('user_id')
    .execute()
  // One owner per project, the row that mirrors projects.user_id.
  await sql`create unique index project_members_one_owner on project_members (project_id) where role = 'owner'`.execute(
    db,
  )
  await sql`insert into project_members (project_id, user_id, role, created_at)
            select id, user_id, 'owner', created_at from projects`.execute(db)

  await db.schema
    .createTable('project_invitations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    /** Lower-cased, trimmed; accepting needs an account with this address. */
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('editor', 'viewer')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .execute()
  // At most one open invitation per address and project (inviting again replaces it).
  await sql`create unique index project_invitations_open on project_invitations (project_id, email) where accepted_at is null`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('project_invitations').execute()
  await db.schema.dropTable('project_members').execute()
}
