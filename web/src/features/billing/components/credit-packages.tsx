import type { CreditPackage } from '@reelgraph/shared'
import { useState } from 'react'
import { Link } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { redirectTo, usePurchaseCredits } from '../api/billing-api'
import { BILLING_ERRORS } from '../lib/billing-messages'
import { formatPrice } from '../lib/billing-view'
import { usePageRestored } from '../hooks/use-page-restored'

/** Props of {@link CreditPackages}. */
export interface CreditPackagesProps {
  packages: readonly CreditPackage[]
  /** Anonymous visitors get a sign-in prompt instead of Buy. */
  signedIn: boolean
}

/**
 * One-time credit packages that never expire; "medium" is marked "Best Value". Buy opens a
 * checkout; a failure toasts "Error purchasing credits" with the message.
 * @see spec §2 /subscription, §7 POST /api/purchase-credits, §8 Billing
 */
export function CreditPackages({ packages, signedIn }: CreditPackagesProps) {
  const purchase = usePurchaseCredits()
  const [busyId, setBusyId] = useState<string | null>(null)
  usePageRestored(() => setBusyId(null))

  if (packages.length === 0) {
    return <p className="text-muted-foreground">{BILLING_ERRORS.noPackages}</p>
  }

  const buy = async (pkg: CreditPackage) => {
    if (busyId !== null) return
    setBusyId(pkg.id)
    try {
      redirectTo(await purchase.mutateAsync({ packageId: pkg.id }))
    } catch (error) {
      toast({
        title: BILLING_ERRORS.purchaseFailed,
        description: errorMessage(error),
        variant: 'destructive',
      })
      setBusyId(null)
    }
  }

  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {packages.map((pkg) => {
        const bestValue = pkg.bestValue || pkg.id === 'medium'
        const busy = busyId === pkg.id
        return (
          <li key={pkg.id} className="flex">
            <Card
              role="region"
              aria-labelledby={`package-${pkg.id}-title`}
              className={cn('relative flex-1', bestValue && 'border-primary ring-1 ring-primary')}
            >
              {bestValue ? (
                <Badge className="absolute -top-2.5 left-1/2 -translate-x-1/2">Best Value</Badge>
              ) : null}
              <CardHeader className="flex-1">
                <CardTitle as="h3" id={`package-${pkg.id}-title`}>
                  {pkg.name}
                </CardTitle>
                <p className="font-semibold text-2xl tabular-nums">
                  {pkg.credits.toLocaleString('en-US')} credits
                </p>
                <CardDescription>
                  {formatPrice(pkg.price)} one-time · {pkg.description}
                </CardDescription>
              </CardHeader>
              <CardFooter>
                {signedIn ? (
                  <Button
                    className="w-full"
                    variant={bestValue ? 'default' : 'outline'}
                    disabled={busyId !== null}
                    aria-busy={busy || undefined}
                    onClick={() => void buy(pkg)}
                  >
                    {busy ? <Spinner /> : null}
                    {busy ? 'Please wait...' : `Buy ${pkg.credits.toLocaleString('en-US')} credits`}
                  </Button>
                ) : (
                  <Button asChild className="w-full" variant="outline">
                    <Link href="/auth">Sign in to buy</Link>
                  </Button>
                )}
              </CardFooter>
            </Card>
          </li>
        )
      })}
    </ul>
  )
}
