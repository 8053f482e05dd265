import { SERVER_BUSY_MESSAGE } from '@reelgraph/shared'
import {
  CheckIcon,
  CircleDotIcon,
  CloudOffIcon,
  HourglassIcon,
  LoaderCircleIcon,
} from 'lucide-react'
import { Tooltip } from '@/components/ui/tooltip'
import { cn } from '@/lib/utils'
import { type SaveStatus, UNREACHABLE_MESSAGE } from '@/stores/save-status'

const LABELS: Record<SaveStatus, string> = {
  saved: 'Saved',
  saving: 'Saving...',
  unsaved: 'Unsaved',
  // Short for the header; screen readers get the whole sentence, the tooltip what to do.
  unreachable: 'Not saved',
  busy: 'Server busy',
}

const ICONS = {
  saved: CheckIcon,
  saving: LoaderCircleIcon,
  unsaved: CircleDotIcon,
  unreachable: CloudOffIcon,
  busy: HourglassIcon,
} as const satisfies Record<SaveStatus, unknown>

/** What screen readers and the tooltip say for the statuses whose label is short. */
const EXPLAINED: Partial<Record<SaveStatus, { sentence: string; tooltip: string }>> = {
  unreachable: { sentence: UNREACHABLE_MESSAGE.title, tooltip: UNREACHABLE_MESSAGE.description },
  // Issue 23: not an error, the changes wait on this device.
  busy: { sentence: SERVER_BUSY_MESSAGE, tooltip: SERVER_BUSY_MESSAGE },
}

/**
 * Saved / Saving... / Unsaved (spec §2 Header, §4 Save status), "Not saved: can't reach the
 * server" when changes cannot get to the server (issue 11), and "Server busy" while the sync
 * server is busy and the changes wait on this device (issue 23): for those two the pill
 * shows a short label, screen readers get the whole sentence, and a tooltip says more.
 * Announced politely.
 */
export function SaveStatusPill({ status, className }: { status: SaveStatus; className?: string }) {
  const Icon = ICONS[status]
  const explained = EXPLAINED[status]
  const pill = (
    <output
      aria-live="polite"
      // Focusable while it has a tooltip, so keyboard users reach the explanation too.
      tabIndex={explained ? 0 : undefined}
      className={cn(
        'inline-flex h-8 items-center gap-1.5 whitespace-nowrap rounded-full px-3 font-medium text-sm',
        status === 'saved' && 'bg-success/10 text-success',
        status === 'saving' && 'bg-muted text-muted-foreground',
        (status === 'unsaved' || status === 'busy') && 'bg-warning text-warning-foreground',
        status === 'unreachable' && 'bg-destructive text-destructive-foreground',
        explained && 'outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      <Icon className={cn('size-4', status === 'saving' && 'animate-spin')} aria-hidden />
      {explained ? (
        <>
          <span aria-hidden>{LABELS[status]}</span>
          <span className="sr-only">{explained.sentence}</span>
        </>
      ) : (
        LABELS[status]
      )}
    </output>
  )
  if (!explained) return pill
  return (
    <Tooltip content={explained.tooltip} className="max-w-64">
      {pill}
    </Tooltip>
  )
}
