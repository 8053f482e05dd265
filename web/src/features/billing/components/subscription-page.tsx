import { parseSubscriptionStatus, planTransition } from '@reelgraph/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { useAccountSnapshot } from '@/hooks/use-account-snapshot'
import { errorMessage } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'
import {
  refreshBillingState,
  useCreditBuckets,
  useCreditPackages,
  usePlans,
  useStorageUsage,
  useSubscriptionStatus,
} from '../api/billing-api'
import { useBillingPortal } from '../hooks/use-billing-portal'
import { usePageRestored } from '../hooks/use-page-restored'
import { usePlanChange } from '../hooks/use-plan-change'
import { currentPlan, FEATURED_PLAN_ID, orderPlans } from '../lib/billing-view'
import { BillingFaq } from './billing-faq'
import { CreditPackages } from './credit-packages'
import { CurrentSubscriptionCard } from './current-subscription-card'
import { PlanCard } from './plan-card'
import { PlanChangeDialog } from './plan-change-dialog'

function LoadFailure({
  what,
  error,
  onRetry,
}: {
  what: string
  error: unknown
  onRetry: () => void
}) {
  return (
    <div role="alert" className="flex flex-col items-start gap-2 rounded-xl border p-4 text-sm">
      <p>
        Could not load {what}: {errorMessage(error)}
      </p>
      <Button size="sm" variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  )
}

function Loading({ label }: { label: string }) {
  return (
    <p className="flex items-center gap-2 text-muted-foreground text-sm" role="status">
      <Spinner />
      {label}
    </p>
  )
}

/**
 * /subscription: the current subscription card, the plans (free, basic, pro; pro
 * featured), the credit packages ("Best Value" on medium) and the FAQ. Not guarded:
 * anonymous visitors see plans and packages with sign-in prompts.
 * @see spec §2 /subscription, §4 Plan transitions, §7, §8 Billing
 */
export function SubscriptionPage() {
  useDocumentTitle('Subscription')
  const queryClient = useQueryClient()
  const { user } = useAccountSnapshot()
  const buckets = useCreditBuckets(user !== null)
  const plansQuery = usePlans()
  const packagesQuery = useCreditPackages()
  const statusQuery = useSubscriptionStatus(user !== null)
  const storageQuery = useStorageUsage(user !== null)
  const status = statusQuery.data?.status ?? user?.subscriptionStatus ?? 'free'
  const portal = useBillingPortal()
  const planChange = usePlanChange(status)
  // Back from a checkout or portal: what happened there may have changed the account.
  usePageRestored(() => void refreshBillingState(queryClient))

  // The header's "Active" badge reads the user's status: refresh the user when the
  // (periodically re-fetched) subscription status says it changed.
  const fetchedStatus = statusQuery.data?.status
  const userStatus = user?.subscriptionStatus
  useEffect(() => {
    if (fetchedStatus === undefined || userStatus === undefined) return
    if (fetchedStatus !== userStatus) {
      void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.user, exact: true })
    }
  }, [fetchedStatus, userStatus, queryClient])

  const plans = plansQuery.data ? orderPlans(plansQuery.data) : undefined
  const plan = currentPlan(plans, status)
  const currentPlanId = user ? parseSubscriptionStatus(status).planId : null
  const anyPlanBusy = planChange.busyPlanId !== null || planChange.confirming

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-1">
        <h1 className="font-semibold text-2xl tracking-tight">Subscription</h1>
        <p className="text-muted-foreground">
          Pick a monthly plan or top up with credits that never expire.
        </p>
      </header>

      {user ? (
        <CurrentSubscriptionCard
          status={status}
          plan={plan}
          periodEnd={statusQuery.data?.periodEnd ?? user.subscriptionPeriodEnd}
          buckets={buckets}
          onManageBilling={() => void portal.open()}
          manageBusy={portal.busy}
          storage={storageQuery.data}
          storageFailed={storageQuery.isError}
        />
      ) : null}

      <section aria-labelledby="plans-heading" className="flex flex-col gap-4">
        <h2 id="plans-heading" className="font-semibold text-xl">
          Plans
        </h2>
        {plansQuery.isPending ? (
          <Loading label="Loading plans..." />
        ) : plansQuery.isError ? (
          <LoadFailure
            what="the plans"
            error={plansQuery.error}
            onRetry={() => void plansQuery.refetch()}
          />
        ) : (
          <ul className="grid gap-6 pt-3 md:grid-cols-3">
            {(plans ?? []).map((p) => (
              <li key={p.id} className="flex [&>*]:flex-1">
                <PlanCard
                  plan={p}
                  current={currentPlanId}
                  transition={user ? planTransition(status, p.id) : null}
                  featured={p.id === FEATURED_PLAN_ID}
                  busy={planChange.busyPlanId === p.id}
                  disabled={anyPlanBusy}
                  onChoose={(chosen) => void planChange.choose(chosen)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="packages-heading" className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <h2 id="packages-heading" className="font-semibold text-xl">
            Credit packages
          </h2>
          <p className="text-muted-foreground text-sm">
            One-time purchases on top of your plan. Purchased credits never expire.
          </p>
        </div>
        {packagesQuery.isPending ? (
          <Loading label="Loading credit packages..." />
        ) : packagesQuery.isError ? (
          <LoadFailure
            what="the credit packages"
            error={packagesQuery.error}
            onRetry={() => void packagesQuery.refetch()}
          />
        ) : (
          <div className="pt-3">
            <CreditPackages packages={packagesQuery.data} signedIn={user !== null} />
          </div>
        )}
      </section>

      <section aria-labelledby="faq-heading" className="flex flex-col gap-4">
        <h2 id="faq-heading" className="font-semibold text-xl">
          Frequently asked questions
        </h2>
        <BillingFaq signedIn={user !== null} />
      </section>

      <PlanChangeDialog
        confirmation={planChange.confirmation}
        currentPlanName={plan?.name ?? 'current'}
        periodEnd={statusQuery.data?.periodEnd ?? user?.subscriptionPeriodEnd ?? null}
        busy={planChange.confirming}
        onConfirm={() => void planChange.confirm()}
        onDismiss={planChange.dismiss}
      />
    </div>
  )
}
