import { Link } from 'wouter'
import { cn } from '@/lib/utils'

/** The Reelgraph mark: three connected nodes. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M10 11 16 22 22 11" fill="none" stroke="white" strokeWidth="2" />
      <circle cx="10" cy="11" r="3.5" fill="white" />
      <circle cx="22" cy="11" r="3.5" fill="white" />
      <circle cx="16" cy="22" r="3.5" fill="white" />
    </svg>
  )
}

/**
 * The logo with the product name, linking to / (spec §2 Header). With `compact`, the name is
 * only read out (not shown) on narrow screens.
 */
export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <Link
      href="/"
      className={cn(
        'flex items-center gap-2 rounded-md font-semibold text-lg tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      <LogoMark />
      <span className={cn(compact && 'sr-only sm:not-sr-only')}>Reelgraph</span>
    </Link>
  )
}
