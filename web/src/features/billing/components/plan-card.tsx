import { PLAN_ORDER, type Plan, type PlanTransition } from '@reelgraph/shared'
import { CheckIcon, SparklesIcon } from 'lucide-react'
import { Link } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'
import { formatPrice } from '../lib/billing-view'

/** Props of {@link PlanCard}. */
export interface PlanCardProps {
  plan: Plan
  /** The plan the person is on now; null for an anonymous visitor. */
  current: Plan['id'] | null
  /** What choosing it does (spec §4); null for an anonymous visitor (sign-in prompt). */
  transition: PlanTransition | null
  featured: boolean
  /** This card's action is running. */
  busy: boolean
  /** Another plan action is running. */
  disabled: boolean
  onChoose: (plan: Plan) => void
}

function actionLabel(plan: Plan, current: Plan['id'], transition: PlanTransition): string {
  switch (transition.kind) {
    case 'none':
      return 'Current plan'
    case 'reactivate':
      return plan.id === current ? `Keep ${plan.name}` : `Reactivate with ${plan.name}`
    case 'portal-downgrade':
    case 'downgrade-to-free':
    case 'already-cancelling':
      return `Downgrade to ${plan.name}`
    case 'checkout':
      return PLAN_ORDER[plan.id] > PLAN_ORDER[current]
        ? `Upgrade to ${plan.name}`
        : `Switch to ${plan.name}`
  }
}

/** One plan: name, monthly price, credits, features and its action button. */
export function PlanCard({
  plan,
  current,
  transition,
  featured,
  busy,
  disabled,
  onChoose,
}: PlanCardProps) {
  const titleId = `plan-${plan.id}-title`
  return (
    <Card
      aria-labelledby={titleId}
      role="region"
      className={cn('relative', featured && 'border-primary shadow-md ring-1 ring-primary')}
    >
      {featured ? (
        <Badge className="absolute -top-2.5 left-1/2 -translate-x-1/2">
          <SparklesIcon aria-hidden />
          Most Popular
        </Badge>
      ) : null}
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle as="h3" id={titleId}>
            {plan.name}
          </CardTitle>
          {current === plan.id ? <Badge variant="secondary">Your plan</Badge> : null}
        </div>
        <CardDescription>
          <span className="font-semibold text-3xl text-foreground tabular-nums">
            {formatPrice(plan.price)}
          </span>{' '}
          / month
        </CardDescription>
        <p className="text-sm">
          <span className="font-medium tabular-nums">{plan.credits.toLocaleString('en-US')}</span>{' '}
          credits {plan.id === 'free' ? 'to start' : 'every month'}
        </p>
      </CardHeader>
      <CardContent className="flex-1">
        <ul className="flex flex-col gap-2 text-sm">
          {plan.features.map((feature) => (
            <li key={feature} className="flex gap-2">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              {feature}
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        {transition === null || current === null ? (
          <Button asChild className="w-full" variant={featured ? 'default' : 'outline'}>
            <Link href="/auth">
              {plan.id === 'free' ? 'Sign in to get started' : 'Sign in to subscribe'}
            </Link>
          </Button>
        ) : (
          <Button
            className="w-full"
            variant={featured && transition.kind !== 'none' ? 'default' : 'outline'}
            disabled={transition.kind === 'none' || busy || disabled}
            aria-busy={busy || undefined}
            onClick={() => onChoose(plan)}
          >
            {busy ? <Spinner /> : null}
            {busy ? 'Please wait...' : actionLabel(plan, current, transition)}
          </Button>
        )}
      </CardFooter>
    </Card>
  )
}
