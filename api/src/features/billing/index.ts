import type { DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import type { Env } from '../../env.ts'
import type { BillingGateway } from './billing-gateway.ts'

/**
 * The payment provider chosen by configuration: Stripe when STRIPE_SECRET_KEY is set, else
 * the offline sandbox (refused under NODE_ENV=production unless BILLING_SANDBOX=true).
 */
export function createBillingGateway(env: Env, db: Kysely<DB>): BillingGateway {
  void env
  void db
  // Replaced by the Stripe and sandbox gateways in this next commits.
  const unavailable = () => Promise.reject(new Error('Billing is not available yet.'))
  return {
    mode: 'sandbox',
    createCustomer: unavailable,
    createSubscriptionCheckout: unavailable,
    createPackageCheckout: unavailable,
    createPortalSession: unavailable,
    previewProration: unavailable,
    cancelAtPeriodEnd: unavailable,
    getSubscription: unavailable,
  }
}
