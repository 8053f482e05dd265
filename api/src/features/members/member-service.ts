import type { DB } from '@reelgraph/db'
import {
  type DocumentGateway,
  MEMBER_MESSAGES,
  type MemberRole,
  type ProjectInvitation,
  type ProjectMember,
  type ProjectMembers,
} from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import type { ProjectCaller } from '../projects/project-service.ts'

/**
 * Project members (issue 6 item 1): the list, a member's role change and removal (or a
 * member leaving). Access changes close the member's live connections through the
 * {@link DocumentGateway}, so they authenticate again with what they may do now.
 */

/** A 404 NOT_FOUND (MEMBER_MESSAGES.memberNotFound) for a member. */
export function memberNotFound(): AppError {
  return new AppError('NOT_FOUND', MEMBER_MESSAGES.memberNotFound)
}

function membersQuery(db: Kysely<DB>, projectId: number) {
  return db
    .selectFrom('project_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.name', 'u.email', 'm.role', 'm.created_at'])
    .where('m.project_id', '=', projectId)
}

function toMember(row: {
  user_id: number
  name: string
  email: string
  role: ProjectMember['role']
  created_at: Date
}): ProjectMember {
  return {
    userId: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role,
    joinedAt: row.created_at.toISOString(),
  }
}

/**
 * The project's open invitations (not accepted, not expired), newest first.
 * @returns `ProjectInvitation[]`: `{ id, email, role, invitedAt, expiresAt }`.
 */
export async function listOpenInvitations(
  db: Kysely<DB>,
  projectId: number,
  now = new Date(),
): Promise<ProjectInvitation[]> {
  const rows = await db
    .selectFrom('project_invitations')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('project_id', '=', projectId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    invitedAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
  }))
}

/**
 * Who is on the project, for any member: `{ role, members, invitations }` with the
 * caller's own role, the members (owner first, then by name) and, for the owner only, the
 * open invitations (`[]` for everyone else).
 * @throws AppError 404 NOT_FOUND when the project does not exist or the user is not a
 *   member.
 * @see issue 6 item 1
 */
export async function listMembers(
  db: Kysely<DB>,
  { userId, projectId }: ProjectCaller,
  now = new Date(),
): Promise<ProjectMembers> {
  const role = await requireProjectRole(db, { userId, projectId, needed: 'member' })
  const rows = await membersQuery(db, projectId)
    .orderBy(sql`m.role = 'owner'`, 'desc')
    .orderBy(sql`lower(u.name)`)
    .orderBy('m.user_id')
    .execute()
  const invitations = role === 'owner' ? await listOpenInvitations(db, projectId, now) : []
  return { role, members: rows.map(toMember), invitations }
}

/** Who gives whom which role, on which project: user ids and a project id, by name. */
export interface MemberRoleChange {
  /** The caller, who must own the project. */
  ownerId: number
  projectId: number
  /** The member's user id. */
  memberId: number
  role: MemberRole
}

/**
 * Gives a member another role (the owner only), then closes the member's live connections
 * so they reconnect with it. Answers the member as `ProjectMember`
 * (`{ userId, name, email, role, joinedAt }`).
 * @throws AppError 404 NOT_FOUND when the project does not exist or the caller is not a
 *   member, or (MEMBER_MESSAGES.memberNotFound) when `memberId` is not a member;
 *   403 FORBIDDEN when the caller is not the owner; 400 BAD_REQUEST
 *   (MEMBER_MESSAGES.ownerRoleFixed) for the owner's own role.
 * @see issue 6 item 1
 */
export async function changeMemberRole(
  db: Kysely<DB>,
  documents: DocumentGateway,
  { ownerId, projectId, memberId, role }: MemberRoleChange,
): Promise<ProjectMember> {
  await requireProjectRole(db, { userId: ownerId, projectId, needed: 'owner' })
  const updated = await db
    .updateTable('project_members')
    .set({ role })
    .where('project_id', '=', projectId)
    .where('user_id', '=', memberId)
    .where('role', '<>', 'owner')
    .returning('user_id')
    .executeTakeFirst()
  if (!updated) {
    if (memberId === ownerId) throw new AppError('BAD_REQUEST', MEMBER_MESSAGES.ownerRoleFixed)
    throw memberNotFound()
  }
  await documents.closeUserConnections(projectId, memberId)
  const row = await membersQuery(db, projectId)
    .where('m.user_id', '=', memberId)
    .executeTakeFirstOrThrow()
  return toMember(row)
}

/** Who removes whom from which project (`actorId === memberId`: leaving), by name. */
export interface MemberRemoval {
  /** The caller. */
  actorId: number
  projectId: number
  /** The user id of the member to remove. */
  memberId: number
}

/**
 * Removes `memberId` from the project: the owner removes anyone else, any other member
 * removes only themself (leaves). Then closes the removed member's live connections (they
 * are refused when they reconnect).
 * @throws AppError 404 NOT_FOUND when the project does not exist or the caller is not a
 *   member, or (MEMBER_MESSAGES.memberNotFound) when `memberId` is not a member;
 *   400 BAD_REQUEST (MEMBER_MESSAGES.ownerCannotLeave) when the owner tries to leave;
 *   403 FORBIDDEN (MEMBER_MESSAGES.ownerOnly) when an editor or viewer removes someone else.
 * @see issue 6 item 1
 */
export async function removeMember(
  db: Kysely<DB>,
  documents: DocumentGateway,
  { actorId, projectId, memberId }: MemberRemoval,
): Promise<void> {
  const actorRole = await requireProjectRole(db, { userId: actorId, projectId, needed: 'member' })
  if (memberId === actorId) {
    if (actorRole === 'owner') throw new AppError('BAD_REQUEST', MEMBER_MESSAGES.ownerCannotLeave)
  } else if (actorRole !== 'owner') {
    throw new AppError('FORBIDDEN', MEMBER_MESSAGES.ownerOnly)
  }
  const removed = await db
    .deleteFrom('project_members')
    .where('project_id', '=', projectId)
    .where('user_id', '=', memberId)
    .where('role', '<>', 'owner')
    .returning('user_id')
    .executeTakeFirst()
  if (!removed) throw memberNotFound()
  await documents.closeUserConnections(projectId, memberId)
}
