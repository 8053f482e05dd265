import type { DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import type { Env } from '../../env.ts'
import type { BillingGateway } from './billing-gateway.ts'
import { createSandboxGateway } from './sandbox-gateway.ts'
import { createStripeGateway } from './stripe-gateway.ts'

/**
 * The payment provider chosen by configuration (ARCHITECTURE "Billing"; issue 5): Stripe
 * when STRIPE_SECRET_KEY is set, else the offline sandbox.
 * @throws Error at start-up when the sandbox would run under NODE_ENV=production without
 *   BILLING_SANDBOX=true (a production server must not hand out credits for nothing).
 */
export function createBillingGateway(
  env: Pick<Env, 'STRIPE_SECRET_KEY' | 'NODE_ENV' | 'BILLING_SANDBOX' | 'APP_URL'>,
  db: Kysely<DB>,
): BillingGateway {
  if (env.STRIPE_SECRET_KEY) return createStripeGateway({ secretKey: env.STRIPE_SECRET_KEY })
  if (env.NODE_ENV === 'production' && !env.BILLING_SANDBOX) {
    throw new Error(
      'STRIPE_SECRET_KEY is not set, and the offline billing sandbox is refused under ' +
        'NODE_ENV=production. Set STRIPE_SECRET_KEY (and the STRIPE_PRICE_* ids), or set ' +
        'BILLING_SANDBOX=true for a demo deployment where payments are not real.',
    )
  }
  return createSandboxGateway(db, env.APP_URL)
}
