import { CheckIcon, CircleDotIcon, CloudOffIcon, LoaderCircleIcon } from 'lucide-react'
import { Tooltip } from '@/components/ui/tooltip'
import { cn } from '@/lib/utils'
import { type SaveStatus, UNREACHABLE_MESSAGE } from '@/stores/save-status'

const LABELS: Record<SaveStatus, string> = {
  saved: 'Saved',
  saving: 'Saving...',
  unsaved: 'Unsaved',
  // Short for the header; screen readers get the whole sentence, the tooltip what to do.
  unreachable: 'Not saved',
}

const ICONS = {
  saved: CheckIcon,
  saving: LoaderCircleIcon,
  unsaved: CircleDotIcon,
  unreachable: CloudOffIcon,
} as const satisfies Record<SaveStatus, unknown>

/**
 * Saved / Saving... / Unsaved (spec §2 Header, §4 Save status), and "Not saved: can't
 * reach the server" when changes cannot get to the server (issue 11): the pill shows "Not
 * saved", screen readers get the whole sentence, and a tooltip says what to do. Announced
 * politely.
 */
export function SaveStatusPill({ status, className }: { status: SaveStatus; className?: string }) {
  const Icon = ICONS[status]
  const unreachable = status === 'unreachable'
  const pill = (
    <output
      aria-live="polite"
      // Focusable while it has a tooltip, so keyboard users reach the explanation too.
      tabIndex={unreachable ? 0 : undefined}
      className={cn(
        'inline-flex h-8 items-center gap-1.5 whitespace-nowrap rounded-full px-3 font-medium text-sm',
        status === 'saved' && 'bg-success/10 text-success',
        status === 'saving' && 'bg-muted text-muted-foreground',
        status === 'unsaved' && 'bg-warning text-warning-foreground',
        unreachable &&
          'bg-destructive text-destructive-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      <Icon className={cn('size-4', status === 'saving' && 'animate-spin')} aria-hidden />
      {unreachable ? (
        <>
          <span aria-hidden>{LABELS.unreachable}</span>
          <span className="sr-only">{UNREACHABLE_MESSAGE.title}</span>
        </>
      ) : (
        LABELS[status]
      )}
    </output>
  )
  if (!unreachable) return pill
  return (
    <Tooltip content={UNREACHABLE_MESSAGE.description} className="max-w-64">
      {pill}
    </Tooltip>
  )
}
