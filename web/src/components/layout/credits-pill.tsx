import { CoinsIcon } from 'lucide-react'
import { cn } from '@/lib/utils'

/** "N Credits", or "..." while the balance is unknown (spec §2 Header). */
export function CreditsPill({
  credits,
  className,
}: {
  credits: number | null
  className?: string
}) {
  const text = credits === null ? '...' : `${credits.toLocaleString('en-US')} Credits`
  return (
    <span
      className={cn(
        'inline-flex h-8 items-center gap-1.5 whitespace-nowrap rounded-full border bg-background px-3 font-medium text-sm tabular-nums',
        className,
      )}
      title="Available credits"
      aria-busy={credits === null}
    >
      <CoinsIcon className="size-4 text-primary" aria-hidden />
      {text}
    </span>
  )
}
