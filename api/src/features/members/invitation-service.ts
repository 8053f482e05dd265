import { type DB, generateSecret, hashSecretHex } from '@reelgraph/db'
import {
  type AcceptedInvitation,
  INVITATION_TTL_MS,
  type InvitationPreview,
  type InviteMemberInput,
  MEMBER_MESSAGES,
  type ProjectInvitation,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { AppError } from '../../lib/app-error.ts'
import { normalizeEmail } from '../auth/auth-service.ts'
import { requireProjectRole } from '../access/project-access.ts'

/**
 * Email invitations to a project (issue 6 item 1). The owner invites an address with a
 * role; the email's link carries a random secret, stored only as its SHA-256 hex. An
 * invitation is open until it is accepted or 7 days pass (INVITATION_TTL_MS); inviting an
 * address again replaces its open invitation (new secret, new expiry). Accepting needs a
 * signed-in account with the invited address.
 */

/** A 404 NOT_FOUND (MEMBER_MESSAGES.invitationInvalid) for an invitation link. */
export function invitationInvalid(): AppError {
  return new AppError('NOT_FOUND', MEMBER_MESSAGES.invitationInvalid)
}

/** A 404 NOT_FOUND (MEMBER_MESSAGES.invitationNotFound) for an invitation. */
export function invitationNotFound(): AppError {
  return new AppError('NOT_FOUND', MEMBER_MESSAGES.invitationNotFound)
}

/** A new invitation, with what its email needs. */
export interface CreatedInvitation {
  /** As the owner's member list shows it: `{ id, email, role, invitedAt, expiresAt }`. */
  invitation: ProjectInvitation
  /** The secret for the email's link (never stored). */
  secret: string
  projectName: string
}

/**
 * Invites `input.email` (stored lower-cased) to the project as `input.role`, replacing an
 * open or expired invitation of that address (its old link stops working). The caller
 * sends the email with the returned secret.
 * @throws AppError 404 NOT_FOUND when the project does not exist or the inviter is not a
 *   member; 403 FORBIDDEN when the inviter is not the owner; 400 VALIDATION_FAILED
 *   (MEMBER_MESSAGES.inviteSelf, field `email`) for the inviter's own address; 409
 *   ALREADY_MEMBER when the address belongs to a member (case-insensitive).
 * @see issue 6 item 1
 */
export async function createInvitation(
  db: Kysely<DB>,
  {
    inviter,
    projectId,
    input,
  }: { inviter: { id: number; email: string }; projectId: number; input: InviteMemberInput },
  now = new Date(),
): Promise<CreatedInvitation> {
  await requireProjectRole(db, { userId: inviter.id, projectId, needed: 'owner' })
  const email = normalizeEmail(input.email)
  if (email === normalizeEmail(inviter.email)) {
    throw new AppError('VALIDATION_FAILED', MEMBER_MESSAGES.inviteSelf, {
      fields: { email: MEMBER_MESSAGES.inviteSelf },
    })
  }
  const member = await db
    .selectFrom('project_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.user_id')
    .where('m.project_id', '=', projectId)
    .where('u.email', '=', email)
    .executeTakeFirst()
  if (member) {
    throw new AppError('ALREADY_MEMBER', MEMBER_MESSAGES.alreadyMember, {
      fields: { email: MEMBER_MESSAGES.alreadyMember },
    })
  }
  const secret = generateSecret()
  const values = {
    role: input.role,
    token_hash: hashSecretHex(secret),
    invited_by: inviter.id,
    created_at: now,
    expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
  }
  // One atomic upsert on the one-open-invitation-per-address index: two owners' tabs
  // inviting the same address at once end with one invitation, the later secret.
  const row = await db
    .insertInto('project_invitations')
    .values({ project_id: projectId, email, ...values })
    .onConflict((oc) =>
      oc.columns(['project_id', 'email']).where('accepted_at', 'is', null).doUpdateSet(values),
    )
    .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow()
  const project = await db
    .selectFrom('projects')
    .select('name')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow()
  return {
    invitation: {
      id: row.id,
      email: row.email,
      role: row.role,
      invitedAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
    },
    secret,
    projectName: project.name,
  }
}

/**
 * Withdraws an invitation not yet accepted (the owner only); its link stops working.
 * @throws AppError 404 NOT_FOUND when the project does not exist or the caller is not a
 *   member, or (MEMBER_MESSAGES.invitationNotFound) when `invitationId` is not an
 *   unaccepted invitation of this project; 403 FORBIDDEN when the caller is not the owner.
 * @see issue 6 item 1
 */
export async function revokeInvitation(
  db: Kysely<DB>,
  {
    ownerId,
    projectId,
    invitationId,
  }: {
    /** The caller, who must own the project. */
    ownerId: number
    projectId: number
    invitationId: number
  },
): Promise<void> {
  await requireProjectRole(db, { userId: ownerId, projectId, needed: 'owner' })
  const deleted = await db
    .deleteFrom('project_invitations')
    .where('id', '=', invitationId)
    .where('project_id', '=', projectId)
    .where('accepted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  if (!deleted) throw invitationNotFound()
}

/**
 * What an invitation link offers, for anyone holding it (no sign-in): `{ projectName,
 * inviterName, role, email }`.
 * @throws AppError 404 NOT_FOUND (MEMBER_MESSAGES.invitationInvalid) for an unknown,
 *   expired or accepted invitation.
 * @see issue 6 item 1
 */
export async function previewInvitation(
  db: Kysely<DB>,
  token: string,
  now = new Date(),
): Promise<InvitationPreview> {
  const row = await db
    .selectFrom('project_invitations as i')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .innerJoin('users as u', 'u.id', 'i.invited_by')
    .select(['p.name as project_name', 'u.name as inviter_name', 'i.role', 'i.email'])
    .where('i.token_hash', '=', hashSecretHex(token))
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', now)
    .executeTakeFirst()
  if (!row) throw invitationInvalid()
  return {
    projectName: row.project_name,
    inviterName: row.inviter_name,
    role: row.role,
    email: row.email,
  }
}

/**
 * Accepts an invitation for the signed-in `user`, in one transaction with the invitation
 * row locked (two concurrent accepts add one member): adds them with the invitation's role
 * unless they are already a member (their role is kept: never a downgrade, never the
 * owner's), marks the invitation accepted, and marks the address verified (the link
 * reached it). Answers `{ projectId, role }` with the role now held.
 * @throws AppError 404 NOT_FOUND (MEMBER_MESSAGES.invitationInvalid) for an unknown,
 *   expired or already accepted invitation; 403 FORBIDDEN
 *   (MEMBER_MESSAGES.invitationWrongAccount) when the user's email is not the invited one.
 * @see issue 6 item 1
 */
export async function acceptInvitation(
  db: Kysely<DB>,
  user: { id: number; email: string },
  token: string,
  now = new Date(),
): Promise<AcceptedInvitation> {
  return db.transaction().execute(async (trx) => {
    const invitation = await trx
      .selectFrom('project_invitations')
      .select(['id', 'project_id', 'email', 'role', 'expires_at', 'accepted_at'])
      .where('token_hash', '=', hashSecretHex(token))
      .forUpdate()
      .executeTakeFirst()
    if (!invitation || invitation.accepted_at !== null || invitation.expires_at <= now) {
      throw invitationInvalid()
    }
    if (invitation.email !== normalizeEmail(user.email)) {
      throw new AppError('FORBIDDEN', MEMBER_MESSAGES.invitationWrongAccount)
    }
    const projectId = invitation.project_id
    const inserted = await trx
      .insertInto('project_members')
      .values({ project_id: projectId, user_id: user.id, role: invitation.role, created_at: now })
      .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
      .returning('role')
      .executeTakeFirst()
    const role =
      inserted?.role ??
      (
        await trx
          .selectFrom('project_members')
          .select('role')
          .where('project_id', '=', projectId)
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).role
    await trx
      .updateTable('project_invitations')
      .set({ accepted_at: now })
      .where('id', '=', invitation.id)
      .execute()
    await trx
      .updateTable('users')
      .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
      .where('id', '=', user.id)
      .execute()
    return { projectId, role }
  })
}
