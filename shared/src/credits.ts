/**
 * The credit ledger's transaction types (spec §4, ARCHITECTURE decision 4): what each row
 * of a user's credit history is. The database checks its column against this list, and the
 * api writes only these.
 */
export const CREDIT_TRANSACTION_TYPES = [
  'script_generation',
  'scene_generation',
  'image_generation',
  'video_generation',
  'generation_refund',
  'account_creation',
  'admin_adjustment',
  'subscription_renewal',
  'subscription_created',
  'subscription_canceled',
  'credit_purchase',
] as const
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number]
