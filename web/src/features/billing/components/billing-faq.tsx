import { DEFAULT_GENERATION_COSTS, type GenerationAction } from '@reelgraph/shared'
import { ChevronDownIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { useAiProviders } from '@/hooks/use-ai-providers'

function plural(n: number): string {
  return `${n} credit${n === 1 ? '' : 's'}`
}

function CostsSentence({ costs }: { costs: Record<GenerationAction, number> }) {
  return (
    <>
      A script costs {plural(costs.script)}, a set of scenes {plural(costs.scenes)} and an image{' '}
      {plural(costs.image)}. A generation that fails is not charged.
    </>
  )
}

/** The costs as the server reports them (signed in only: the call needs a session). */
function LiveCosts() {
  const providers = useAiProviders()
  return <CostsSentence costs={providers.data?.costs ?? DEFAULT_GENERATION_COSTS} />
}

function Question({ question, children }: { question: string; children: ReactNode }) {
  return (
    <details className="group border-b py-3 last:border-b-0">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
        {question}
        <ChevronDownIcon
          className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
          aria-hidden
        />
      </summary>
      <p className="mt-2 text-muted-foreground text-sm">{children}</p>
    </details>
  )
}

/** Frequently asked questions about plans, credits and cancelling (spec §2, §9 Billing). */
export function BillingFaq({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="rounded-xl border px-6 py-2">
      <Question question="How do plan credits work?">
        Paid plans are billed monthly in advance and give their credits straight away. At each new
        billing period your plan credits reset to the plan&apos;s monthly amount; unused plan
        credits do not roll over.
      </Question>
      <Question question="Do purchased credits expire?">
        No. Credit packages are one-time purchases that never expire, and they stay when your plan
        credits reset.
      </Question>
      <Question question="What happens when I cancel?">
        Your plan stays active, with its credits, until the end of the current billing period, then
        you move to the Free plan. You can reactivate a paid plan before then; that starts a new
        billing period right away.
      </Question>
      <Question question="What does a credit buy?">
        {signedIn ? <LiveCosts /> : <CostsSentence costs={DEFAULT_GENERATION_COSTS} />}
      </Question>
      <Question question="How do I change plans?">
        Upgrades go through a secure checkout and take effect once paid. Downgrades go through the
        billing portal and take effect at the end of the billing period; the prorated amount is
        shown before you confirm.
      </Question>
    </div>
  )
}
