/**
 * The billing messages of spec §8, word for word, and the page's own fixed texts.
 * @see spec §8 Billing, §2 /subscription
 */
export const BILLING_ERRORS = {
  prorationErrorTitle: 'Calculation Error',
  prorationErrorDescription: 'Failed to calculate prorated amount. Default values will be used.',
  portalFailed: 'Failed to open billing portal. Please try again later.',
  portalNoUrl: 'Failed to create customer portal session',
  changePlanFailed: 'Failed to change plan',
  reactivateFailed: 'Failed to reactivate subscription',
  downgradeToFreeFailed: 'Failed to downgrade to free plan. Please try again later.',
  purchaseFailed: 'Error purchasing credits',
  noPackages: 'No credit packages available at this time.',
} as const
