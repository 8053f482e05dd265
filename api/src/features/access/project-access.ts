import { type DB, projectRole } from '@reelgraph/db'
import { MEMBER_MESSAGES, type ProjectRole, serialIdSchema } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { AppError } from '../../lib/app-error.ts'
import { validate } from '../../lib/validate.ts'
import { projectAllowed } from './project-limit.ts'

/**
 * Who may do what on a project (issue 6 item 1): every project call, asset read and
 * generation into a project goes through {@link requireProjectRole}.
 */

/** The answer to a project that does not exist and to one the user is not a member of. */
export const PROJECT_NOT_FOUND_MESSAGE =
  'This project does not exist, or you do not have access to it.'

/** A 404 NOT_FOUND for a project, the same whether it is missing or merely not shared. */
export function projectNotFound(): AppError {
  return new AppError('NOT_FOUND', PROJECT_NOT_FOUND_MESSAGE)
}

/**
 * What a call needs: `member` (any role: read), `editor` (owner or editor: change the
 * graph, rename, generate into it) or `owner` (share, change roles, remove, delete).
 */
export type RoleNeeded = 'member' | 'editor' | 'owner'

/** The path of a project route: `:id`, a serial id (issue 14: thin handlers). */
export const projectParams = z.object({ id: serialIdSchema })

/**
 * Validates a project route's `:id` into `c.req.valid('param').id` (a number); anything
 * that is not a serial id is a project that does not exist, 404 NOT_FOUND.
 */
export function validateProjectParams() {
  return validate('param', projectParams, { onInvalid: () => projectNotFound() })
}

/** What {@link requireProjectRole} checks: who, on which project, for what. */
export interface ProjectRoleCheck {
  userId: number
  projectId: number
  needed: RoleNeeded
}

/**
 * The user's role on the project, when it allows `needed`:
 * `requireProjectRole(db, { userId, projectId, needed: 'editor' })`.
 * @returns the role (`owner`, `editor` or `viewer`).
 * @throws AppError 404 NOT_FOUND when the project does not exist, the user is not a
 *   member (so ids cannot be probed), or the request's API token is limited to other
 *   projects (`project-limit.ts`, issue 41 item 1); 403 FORBIDDEN with MEMBER_MESSAGES.editorsOnly when
 *   `needed` is `editor` and the user is a viewer, or MEMBER_MESSAGES.ownerOnly when
 *   `needed` is `owner` and the user is not the owner.
 * @see issue 6 item 1
 */
export async function requireProjectRole(
  db: Kysely<DB>,
  { userId, projectId, needed }: ProjectRoleCheck,
): Promise<ProjectRole> {
  if (!projectAllowed(projectId)) throw projectNotFound()
  const role = await projectRole(db, projectId, userId)
  if (!role) throw projectNotFound()
  if (needed === 'owner' && role !== 'owner') {
    throw new AppError('FORBIDDEN', MEMBER_MESSAGES.ownerOnly)
  }
  if (needed === 'editor' && role === 'viewer') {
    throw new AppError('FORBIDDEN', MEMBER_MESSAGES.editorsOnly)
  }
  return role
}
