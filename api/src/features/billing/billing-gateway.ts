/**
 * The payment provider as billing sees it (ARCHITECTURE "Billing"; issue 5). Two
 * implementations: Stripe (through the `stripe` SDK) and the offline sandbox used when
 * `STRIPE_SECRET_KEY` is not set. Both lead to the same fulfilment code.
 */

/** A subscription as the provider reports it now (re-read when event order matters). */
export interface SubscriptionSnapshot {
  id: string
  customerId: string
  /** The provider's status: active, trialing, past_due, canceled, incomplete, unpaid... */
  status: string
  /** The price of its (single) item: maps to a plan. */
  priceId: string
  cancelAtPeriodEnd: boolean
  currentPeriodStart: Date
  currentPeriodEnd: Date
}

/** URLs the provider sends the browser back to. */
export interface ReturnUrls {
  successUrl: string
  cancelUrl: string
}

/** Payments: checkout pages, the billing portal, previews and cancellations. */
export interface BillingGateway {
  readonly mode: 'stripe' | 'sandbox'
  /**
   * The provider's customer for a user, created on first need (the caller stores the id).
   * @returns the customer id.
   */
  createCustomer(user: { id: number; email: string; name: string }): Promise<string>
  /**
   * A hosted checkout for a monthly subscription to `priceId`; when
   * `replacesSubscriptionId` is given (reactivation), fulfilment cancels that one.
   * Metadata `userId` and `planId` travel with the session.
   */
  createSubscriptionCheckout(
    args: {
      customerId: string
      priceId: string
      userId: number
      planId: string
      replacesSubscriptionId?: string | undefined
    } & ReturnUrls,
  ): Promise<{ url: string }>
  /** A hosted checkout for a one-time credit package (metadata `userId`, `packageId`). */
  createPackageCheckout(
    args: {
      customerId: string
      priceId: string
      userId: number
      packageId: string
    } & ReturnUrls,
  ): Promise<{ url: string }>
  /**
   * The billing portal; with `targetPriceId` and `subscriptionId`, its subscription-update
   * flow for that price (downgrades take effect at period end).
   */
  createPortalSession(args: {
    customerId: string
    returnUrl: string
    subscriptionId?: string | undefined
    targetPriceId?: string | undefined
  }): Promise<{ url: string }>
  /** What changing `subscriptionId` to `newPriceId` now would cost, in cents (invoice preview). */
  previewProration(args: {
    customerId: string
    subscriptionId: string
    newPriceId: string
  }): Promise<number>
  /** Sets cancel at period end; answers the updated subscription. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionSnapshot>
  /** The subscription as it is now, or null when the provider has none by that id. */
  getSubscription(subscriptionId: string): Promise<SubscriptionSnapshot | null>
}
