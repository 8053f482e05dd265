import { CircleXIcon } from 'lucide-react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { ResultCard } from './result-card'

/** /subscription/cancel: "Checkout Canceled" (spec §2). Nothing was charged. */
export function SubscriptionCancelPage() {
  useDocumentTitle('Checkout Canceled')
  return (
    <ResultCard
      icon={CircleXIcon}
      iconClassName="text-muted-foreground"
      title="Checkout Canceled"
      description="Your checkout was canceled and you have not been charged. You can pick a plan again whenever you like."
    >
      <Button asChild>
        <Link href="/subscription">Back to Plans</Link>
      </Button>
      <Button asChild variant="outline">
        <Link href="/projects">Back to Projects</Link>
      </Button>
    </ResultCard>
  )
}
