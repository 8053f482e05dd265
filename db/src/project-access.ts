import type { Kysely } from 'kysely'
import type { DB, ProjectRole } from './schema.ts'

/**
 * The role `userId` has on `projectId`, or null when they are not a member (or the project
 * does not exist: callers answer both with 404, so ids cannot be probed). One indexed
 * primary-key read; the api, the asset route and the sync server all ask this.
 * @see issue 6 item 1
 */
export async function projectRole(
  db: Kysely<DB>,
  projectId: number,
  userId: number,
): Promise<ProjectRole | null> {
  const row = await db
    .selectFrom('project_members')
    .select('role')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.role ?? null
}

/**
 * Inserts a project with its owner's `owner` membership in one transaction, and answers the
 * new project's id. Every project is made through this, so each has exactly one owner row.
 * @see issue 6 item 1
 */
export async function insertProjectWithOwner(
  db: Kysely<DB>,
  values: {
    user_id: number
    name: string
    description: string
    nodes: string
    connections: string
    created_at?: Date
    updated_at?: Date
  },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('projects')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('project_members')
      .values({ project_id: id, user_id: values.user_id, role: 'owner' })
      .execute()
    return id
  })
}
