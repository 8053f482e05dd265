import { CreditCardIcon } from 'lucide-react'
import { PlaceholderPage } from '@/components/layout/placeholder-page'

/** /subscription: plans, current subscription, packages, FAQ. A placeholder until billing lands. */
export function SubscriptionPage() {
  return (
    <PlaceholderPage
      title="Subscription"
      icon={CreditCardIcon}
      message="Plans and credit packages are coming soon. Every account starts on the free plan."
    />
  )
}
