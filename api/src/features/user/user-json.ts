import type { UserRow } from '@reelgraph/db'
import type { User } from '@reelgraph/shared'

/**
 * The user as the API shows it (spec §3 User): `credits` is the sum of both buckets, and
 * the password hash, Stripe ids and tokens are never included.
 */
export function toUserJson(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    credits: row.plan_credits + row.purchased_credits,
    subscriptionStatus: row.subscription_status,
    subscriptionPeriodEnd: row.subscription_period_end?.toISOString() ?? null,
    emailVerified: row.email_verified_at !== null,
    createdAt: row.created_at.toISOString(),
  }
}
