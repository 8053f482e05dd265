import {
  changeMemberRoleInput,
  inviteMemberInput,
  okSchema,
  projectInvitationSchema,
  projectMemberSchema,
  projectMembersSchema,
  serialIdSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { projectNotFound, validateProjectParams } from '../access/project-access.ts'
import { invitationEmail, invitationLink } from './emails.ts'
import { createInvitation, invitationNotFound, revokeInvitation } from './invitation-service.ts'
import { changeMemberRole, listMembers, memberNotFound, removeMember } from './member-service.ts'

const TAG = 'Members'

/** `/api/projects/:id/invitations/:invitationId`: a bad id is a 404 of what it names. */
const validateInvitationParams = () =>
  validate('param', z.object({ id: serialIdSchema, invitationId: serialIdSchema }), {
    onInvalid: (field) => (field === 'id' ? projectNotFound() : invitationNotFound()),
  })

/** `/api/projects/:id/members/:userId`: a bad id is a 404 of what it names. */
const validateMemberParams = () =>
  validate('param', z.object({ id: serialIdSchema, userId: serialIdSchema }), {
    onInvalid: (field) => (field === 'id' ? projectNotFound() : memberNotFound()),
  })
const INVITATION_LIMIT_MESSAGE = 'Too many invitations sent.'

/**
 * A project's members and invitations, mounted at `/api/projects/:id` (issue 6 item 1):
 * any member lists them and may leave; the owner invites, withdraws invitations, changes
 * roles and removes members. Non-members get 404, other members 403 FORBIDDEN.
 */
export const memberRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/members',
    docs({
      summary: 'The project’s members, and its open invitations for the owner',
      tag: TAG,
      response: projectMembersSchema,
    }),
    validateProjectParams(),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(
        await listMembers(c.var.db, { userId: user.id, projectId: c.req.valid('param').id }),
      )
    },
  )
  .post(
    '/invitations',
    docs({
      summary: 'Invite someone by email (owner only)',
      description:
        'Emails a link valid 7 days. Inviting an address again replaces its open invitation.',
      tag: TAG,
      response: projectInvitationSchema,
      status: 201,
    }),
    validateProjectParams(),
    validate('json', inviteMemberInput),
    async (c) => {
      const { user } = requireAuth(c)
      const projectId = c.req.valid('param').id
      const { rateLimits, mailer, env, tasks } = c.var.deps
      await rateLimits.invitationsPerUser.consume(String(user.id), INVITATION_LIMIT_MESSAGE)
      const created = await createInvitation(c.var.db, {
        inviter: user,
        projectId,
        input: c.req.valid('json'),
      })
      const email = invitationEmail({
        to: created.invitation.email,
        inviterName: user.name,
        projectName: created.projectName,
        role: created.invitation.role,
        link: invitationLink(env.APP_URL, created.secret),
      })
      tasks.run('invitation email', () => mailer.send(email))
      return c.json(created.invitation, 201)
    },
  )
  .delete(
    '/invitations/:invitationId',
    docs({ summary: 'Withdraw an invitation (owner only)', tag: TAG, response: okSchema }),
    validateInvitationParams(),
    async (c) => {
      const { user } = requireAuth(c)
      const { id: projectId, invitationId } = c.req.valid('param')
      await revokeInvitation(c.var.db, { ownerId: user.id, projectId, invitationId })
      return c.json({ ok: true as const })
    },
  )
  .patch(
    '/members/:userId',
    docs({
      summary: 'Change a member’s role (owner only)',
      description: 'The member’s open connections are closed and reconnect with the new role.',
      tag: TAG,
      response: projectMemberSchema,
    }),
    validateMemberParams(),
    validate('json', changeMemberRoleInput),
    async (c) => {
      const { user } = requireAuth(c)
      const { id: projectId, userId: memberId } = c.req.valid('param')
      const { role } = c.req.valid('json')
      return c.json(
        await changeMemberRole(c.var.db, c.var.deps.documents, {
          ownerId: user.id,
          projectId,
          memberId,
          role,
        }),
      )
    },
  )
  .delete(
    '/members/:userId',
    docs({
      summary: 'Remove a member (owner), or leave the project (your own user id)',
      description: 'The removed member’s open connections are closed.',
      tag: TAG,
      response: okSchema,
    }),
    validateMemberParams(),
    async (c) => {
      const { user } = requireAuth(c)
      const { id: projectId, userId: memberId } = c.req.valid('param')
      await removeMember(c.var.db, c.var.deps.documents, {
        actorId: user.id,
        projectId,
        memberId,
      })
      return c.json({ ok: true as const })
    },
  )
