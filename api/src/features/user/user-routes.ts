import { creditsSchema, userSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { requireAuth } from '../../middleware/session.ts'
import { toUserJson } from './user-json.ts'

/**
 * The signed-in user and their credits.
 * @see spec §7 GET /api/user, GET /api/user/credits
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
