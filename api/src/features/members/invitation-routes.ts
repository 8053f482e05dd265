import {
  acceptedInvitationSchema,
  acceptInvitationInput,
  invitationPreviewSchema,
  tokenSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { acceptInvitation, invitationInvalid, previewInvitation } from './invitation-service.ts'

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
    requireSignedIn,
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
    // A token shared's `tokenSchema` refuses is a link that does not work: 404.
    validate('param', z.object({ token: tokenSchema }), { onInvalid: () => invitationInvalid() }),
    async (c) => c.json(await previewInvitation(c.var.db, c.req.valid('param').token)),
  )
