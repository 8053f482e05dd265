import { creditPackagesOutput, plansOutput, subscriptionStatusSchema } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { requireAuth } from '../../middleware/session.ts'
import { getSubscriptionStatus, listCreditPackages, listPlans } from './billing-service.ts'

const TAG = 'Billing'

/**
 * `/api/subscription/*` (spec §7; issue 5). Plans are public (spec §6: anonymous visitors
 * may see /subscription); the status needs a user.
 */
export const subscriptionRoutes = new Hono<AppEnv>()
  .get(
    '/plans',
    docs({ summary: 'The plans, ordered free, basic, pro', tag: TAG, response: plansOutput }),
    async (c) => c.json({ plans: await listPlans(c.var.db) }),
  )
  .get(
    '/status',
    docs({
      summary: 'The user’s subscription status',
      tag: TAG,
      response: subscriptionStatusSchema,
    }),
    async (c) => c.json(await getSubscriptionStatus(c.var.db, requireAuth(c).user.id)),
  )

/** `GET /api/credit-packages` (spec §7). */
export const creditPackageRoutes = new Hono<AppEnv>().get(
  '/',
  docs({ summary: 'One-time credit packages', tag: TAG, response: creditPackagesOutput }),
  async (c) => c.json({ packages: await listCreditPackages(c.var.db) }),
)
