import {
  acceptedInvitationSchema,
  acceptInvitationInput,
  invitationPreviewSchema,
  MEMBER_MESSAGES,
  tokenSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth } from '../../middleware/session.ts'
import { acceptInvitation, previewInvitation } from './invitation-service.ts'

const TAG = 'Members'

/**
 * Invitation links, mounted at `/api/invitations` (issue 6 item 1): anyone holding a link
 * sees what it offers; a signed-in user with the invited address accepts it.
 */
export const invitationRoutes = new Hono<AppEnv>()
  .post(
    '/accept',
    docs({
      summary: 'Accept an invitation (signed in with the invited address)',
      tag: TAG,
      response: acceptedInvitationSchema,
    }),
    validate('json', acceptInvitationInput),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(await acceptInvitation(c.var.db, user, c.req.valid('json').token))
    },
  )
  .get(
    '/:token',
    docs({
      summary: 'What an invitation link offers (no sign-in needed)',
      tag: TAG,
      response: invitationPreviewSchema,
    }),
    async (c) => {
      const token = tokenSchema.safeParse(c.req.param('token'))
      if (!token.success) throw new AppError('NOT_FOUND', MEMBER_MESSAGES.invitationInvalid)
      return c.json(await previewInvitation(c.var.db, token.data))
    },
  )
