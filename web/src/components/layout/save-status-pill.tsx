import { CheckIcon, CircleDotIcon, LoaderCircleIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import type { SaveStatus } from '@/stores/save-status'

const LABELS: Record<SaveStatus, string> = {
  saved: 'Saved',
  saving: 'Saving...',
  unsaved: 'Unsaved',
}

/** Saved / Saving... / Unsaved (spec §2 Header, §4 Save status); announced politely. */
export function SaveStatusPill({ status, className }: { status: SaveStatus; className?: string }) {
  const Icon =
    status === 'saving' ? LoaderCircleIcon : status === 'unsaved' ? CircleDotIcon : CheckIcon
  return (
    <output
      aria-live="polite"
      className={cn(
        'inline-flex h-8 items-center gap-1.5 whitespace-nowrap rounded-full px-3 font-medium text-sm',
        status === 'saved' && 'bg-success/10 text-success',
        status === 'saving' && 'bg-muted text-muted-foreground',
        status === 'unsaved' && 'bg-warning text-warning-foreground',
        className,
      )}
    >
      <Icon className={cn('size-4', status === 'saving' && 'animate-spin')} aria-hidden />
      {LABELS[status]}
    </output>
  )
}
