import {
  type CreditPackage,
  creditPackagesOutput,
  type Credits,
  creditsSchema,
  type Plan,
  type PlanId,
  plansOutput,
  SUBSCRIPTION_REFETCH_INTERVAL_MS,
  type StorageUsage,
  SUBSCRIPTION_STALE_TIME_MS,
  type SubscriptionStatus,
  storageUsageSchema,
  subscriptionStatusSchema,
} from '@reelgraph/shared'
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type ApiGetPath, getQueryFn } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The billing calls (spec §7; issue 5): plans, credit packages, the subscription status,
 * and the calls that answer `{url}` for the browser to go to (checkout, portal,
 * reactivation, credit purchase). No toasts here: the billing pages show the spec §8
 * messages. An answer without a url is an error (spec §5 Billing).
 */

/** Query keys of the billing reads: the paths of their calls. */
export const BILLING_QUERY_KEYS = {
  plans: ['/subscription/plans'],
  packages: ['/credit-packages'],
  storage: ['/user/storage'],
} as const satisfies Record<string, readonly [ApiGetPath]>

/** `GET /api/subscription/plans` -> the plans, ordered free, basic, pro (public). */
export function usePlans() {
  return useQuery<{ plans: Plan[] }, Error, Plan[]>({
    queryKey: BILLING_QUERY_KEYS.plans,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: plansOutput,
      what: 'the plans',
      call: ({ signal }) => api.GET('/subscription/plans', { signal }),
    }),
    select: (answer) => answer.plans,
  })
}

/** `GET /api/credit-packages` -> the one-time credit packages (public). */
export function useCreditPackages() {
  return useQuery<{ packages: CreditPackage[] }, Error, CreditPackage[]>({
    queryKey: BILLING_QUERY_KEYS.packages,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: creditPackagesOutput,
      what: 'the credit packages',
      call: ({ signal }) => api.GET('/credit-packages', { signal }),
    }),
    select: (answer) => answer.packages,
  })
}

/**
 * `GET /api/subscription/status` -> {status, subscriptionId, periodEnd}: fresh for 1 min,
 * re-fetched every 5 min (spec §4, §9). Enable it only while a user is signed in.
 */
export function useSubscriptionStatus(enabled = true) {
  return useQuery<SubscriptionStatus>({
    queryKey: QUERY_KEYS.subscriptionStatus,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: subscriptionStatusSchema,
      what: 'your subscription',
      call: ({ signal }) => api.GET('/subscription/status', { signal }),
    }),
    staleTime: SUBSCRIPTION_STALE_TIME_MS,
    refetchInterval: SUBSCRIPTION_REFETCH_INTERVAL_MS,
    enabled,
  })
}

/**
 * The credit buckets (plan and purchased) from `GET /api/user/credits`, re-fetched when
 * the page mounts: the cached balance may have been set from the user, which has only the
 * total. Null until the answer has both buckets. Enable it only while a user is signed in.
 * @see issue 14 item 7
 */
export function useCreditBuckets(
  enabled: boolean,
): Pick<Credits, 'planCredits' | 'purchasedCredits'> | null {
  const query = useQuery<unknown>({
    queryKey: QUERY_KEYS.credits,
    queryFn: getQueryFn({
      on401: 'returnNull',
      schema: creditsSchema,
      what: 'your credits',
      call: ({ signal }) => api.GET('/user/credits', { signal }),
    }),
    staleTime: 0,
    refetchOnMount: 'always',
    enabled,
  })
  const parsed = creditsSchema.safeParse(query.data)
  return parsed.success
    ? { planCredits: parsed.data.planCredits, purchasedCredits: parsed.data.purchasedCredits }
    : null
}

/**
 * `GET /api/user/storage` -> the bytes the user's projects hold and their plan's quota
 * (issue 40 item 5), fetched again each time the page mounts. Enable it only while a user is
 * signed in.
 */
export function useStorageUsage(enabled: boolean) {
  return useQuery<StorageUsage>({
    queryKey: BILLING_QUERY_KEYS.storage,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: storageUsageSchema,
      what: 'your storage',
      call: ({ signal }) => api.GET('/user/storage', { signal }),
    }),
    staleTime: 0,
    refetchOnMount: 'always',
    enabled,
  })
}

/**
 * Refetches what a payment or a plan change may have changed: the user (the header's
 * "Active" badge reads its subscriptionStatus), the credits and the subscription status.
 */
export async function refreshBillingState(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [
      QUERY_KEYS.user,
      QUERY_KEYS.credits,
      QUERY_KEYS.subscriptionStatus,
      // A new plan has a new storage quota (issue 40 item 5).
      BILLING_QUERY_KEYS.storage,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true })),
  )
}

/** The url of a `{url}` answer. @throws {Error} with `message` when there is none. */
export function requireUrl(answer: unknown, message: string): string {
  const url =
    typeof answer === 'object' && answer !== null && 'url' in answer
      ? (answer as { url: unknown }).url
      : undefined
  if (typeof url !== 'string' || url.trim() === '') throw new Error(message)
  return url
}

/** Sends the browser to a checkout or portal page ("then the browser redirects", spec §7). */
export function redirectTo(url: string): void {
  window.location.href = url
}

/** The message when the portal answers without a url (spec §8 Billing). */
export const PORTAL_NO_URL_MESSAGE = 'Failed to create customer portal session'
/** The message when a checkout call answers without a url. */
export const CHECKOUT_NO_URL_MESSAGE = 'Failed to create checkout session'

/** `POST /api/subscription/create-checkout-session` {priceId} -> the checkout url. */
export function useCreateCheckoutSession() {
  return useMutation<string, Error, { priceId: string }>({
    mutationFn: async (input) =>
      requireUrl(
        (await api.POST('/subscription/create-checkout-session', { body: input })).data,
        CHECKOUT_NO_URL_MESSAGE,
      ),
  })
}

/** `POST /api/subscription/create-portal-session` {targetPlanId?} -> the portal url. */
export function useCreatePortalSession() {
  return useMutation<string, Error, { targetPlanId?: PlanId } | undefined>({
    mutationFn: async (input) =>
      requireUrl(
        (await api.POST('/subscription/create-portal-session', { body: input ?? {} })).data,
        PORTAL_NO_URL_MESSAGE,
      ),
  })
}

/**
 * `POST /api/subscription/calculate-proration` {currentPlanId, newPlanId} -> the amount
 * in dollars charged (or, when negative, credited) for the change.
 */
export function useCalculateProration() {
  return useMutation<number, Error, { currentPlanId: PlanId; newPlanId: PlanId }>({
    mutationFn: async (input) => {
      const { data } = await api.POST('/subscription/calculate-proration', { body: input })
      const amount: unknown = data?.amount
      if (typeof amount !== 'number' || !Number.isFinite(amount)) {
        throw new Error('The server did not return a prorated amount')
      }
      return amount
    },
  })
}

/** `POST /api/subscription/cancel` {cancelAtPeriodEnd: true}; refreshes the account. */
export function useCancelSubscription() {
  const queryClient = useQueryClient()
  return useMutation<{ success: boolean }, Error, void>({
    mutationFn: async () => {
      const { data } = await api.POST('/subscription/cancel', { body: { cancelAtPeriodEnd: true } })
      return { success: data?.success === true }
    },
    onSuccess: () => refreshBillingState(queryClient),
  })
}

/** `POST /api/subscription/reactivate-with-checkout` {newPlanId, priceId} -> the checkout url. */
export function useReactivateWithCheckout() {
  return useMutation<string, Error, { newPlanId: PlanId; priceId: string }>({
    mutationFn: async (input) =>
      requireUrl(
        (await api.POST('/subscription/reactivate-with-checkout', { body: input })).data,
        CHECKOUT_NO_URL_MESSAGE,
      ),
  })
}

/** `POST /api/purchase-credits` {packageId} -> the checkout url. */
export function usePurchaseCredits() {
  return useMutation<string, Error, { packageId: string }>({
    mutationFn: async (input) =>
      requireUrl(
        (await api.POST('/purchase-credits', { body: input })).data,
        CHECKOUT_NO_URL_MESSAGE,
      ),
  })
}
