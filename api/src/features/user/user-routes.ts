import { creditsSchema, storageUsageSchema, userSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { requireAuth } from '../../middleware/session.ts'
import { accountStorage } from '../assets/storage-quota.ts'
import { toUserJson } from './user-json.ts'

/**
 * The signed-in user, their credits and their storage.
 * @see spec §7 GET /api/user, GET /api/user/credits; issue 40 item 5 GET /api/user/storage
 */
export const userRoutes = new Hono<AppEnv>()
  .get('/', docs({ summary: 'The signed-in user', tag: 'User', response: userSchema }), (c) =>
    c.json(toUserJson(requireAuth(c).user)),
  )
  .get(
    '/credits',
    docs({ summary: 'The signed-in user’s credit balance', tag: 'User', response: creditsSchema }),
    (c) => {
      const { user } = requireAuth(c)
      return c.json({
        credits: user.plan_credits + user.purchased_credits,
        planCredits: user.plan_credits,
        purchasedCredits: user.purchased_credits,
      })
    },
  )
  .get(
    '/storage',
    docs({
      summary: 'The signed-in user’s storage: bytes used by their projects’ media, and the quota',
      description:
        'Every asset (images, clips, renders, narrations, music) of the projects the user owns counts against their plan’s quota; an upload or a result that would pass it is refused with 413.',
      tag: 'User',
      response: storageUsageSchema,
    }),
    async (c) => c.json(await accountStorage(c.var.db, requireAuth(c).user.id)),
  )
