import {
  billingSuccessOutput,
  billingUrlOutput,
  calculateProrationInput,
  cancelSubscriptionInput,
  createCheckoutSessionInput,
  createPortalSessionInput,
  creditPackagesOutput,
  plansOutput,
  prorationOutput,
  purchaseCreditsInput,
  reactivateWithCheckoutInput,
  subscriptionStatusSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import {
  calculateProration,
  cancelSubscription,
  createCheckoutSession,
  createPortalSession,
  purchaseCredits,
  reactivateWithCheckout,
} from './billing-actions.ts'
import { getSubscriptionStatus, listCreditPackages, listPlans } from './billing-service.ts'

const TAG = 'Billing'

/**
 * `/api/subscription/*` (spec §7; issue 5). Plans are public (spec §6: anonymous visitors
 * may see /subscription); the status and every action need a user. Plan changes follow the
 * spec §4 transition table; accounts change only once the provider confirms (webhook or
 * sandbox), except cancel, which reads `<plan>_cancelling` from the provider's answer.
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
  .post(
    '/create-checkout-session',
    docs({
      summary: 'A checkout for a paid plan (free to paid, or an upgrade)',
      tag: TAG,
      response: billingUrlOutput,
    }),
    requireSignedIn,
    validate('json', createCheckoutSessionInput),
    async (c) => {
      const { user } = requireAuth(c)
      const { priceId } = c.req.valid('json')
      return c.json(await createCheckoutSession(c.var.deps, user.id, priceId))
    },
  )
  .post(
    '/create-portal-session',
    docs({
      summary: 'The billing portal, optionally changing to a target plan',
      tag: TAG,
      response: billingUrlOutput,
    }),
    requireSignedIn,
    validate('json', createPortalSessionInput),
    async (c) => {
      const { user } = requireAuth(c)
      const { targetPlanId } = c.req.valid('json')
      return c.json(await createPortalSession(c.var.deps, user.id, targetPlanId))
    },
  )
  .post(
    '/calculate-proration',
    docs({
      summary: 'What a plan change costs now, in US dollars',
      tag: TAG,
      response: prorationOutput,
    }),
    requireSignedIn,
    validate('json', calculateProrationInput),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(await calculateProration(c.var.deps, user.id, c.req.valid('json')))
    },
  )
  .post(
    '/cancel',
    docs({
      summary: 'Cancel the subscription at the end of its period',
      tag: TAG,
      response: billingSuccessOutput,
    }),
    requireSignedIn,
    validate('json', cancelSubscriptionInput),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(await cancelSubscription(c.var.deps, user.id))
    },
  )
  .post(
    '/reactivate-with-checkout',
    docs({
      summary: 'Reactivate a cancelling subscription through a checkout',
      tag: TAG,
      response: billingUrlOutput,
    }),
    requireSignedIn,
    validate('json', reactivateWithCheckoutInput),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(await reactivateWithCheckout(c.var.deps, user.id, c.req.valid('json')))
    },
  )

/** `GET /api/credit-packages` (spec §7). */
export const creditPackageRoutes = new Hono<AppEnv>().get(
  '/',
  docs({ summary: 'One-time credit packages', tag: TAG, response: creditPackagesOutput }),
  async (c) => c.json({ packages: await listCreditPackages(c.var.db) }),
)

/** `POST /api/purchase-credits` (spec §7): a one-time checkout for a credit package. */
export const purchaseCreditsRoutes = new Hono<AppEnv>().post(
  '/',
  docs({ summary: 'A checkout for a credit package', tag: TAG, response: billingUrlOutput }),
  requireSignedIn,
  validate('json', purchaseCreditsInput),
  async (c) => {
    const { user } = requireAuth(c)
    const { packageId } = c.req.valid('json')
    return c.json(await purchaseCredits(c.var.deps, user.id, packageId))
  },
)
