import { CircleAlertIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/** Props of {@link FailureNotice}. */
export interface FailureNoticeProps {
  /** What failed ("Failed to rename project. Please try again."). */
  message: string
  /** Why, when known (the server's message, say). */
  detail?: string | undefined
  /** A way out: a Retry button, say. */
  action?: ReactNode
  className?: string
}

/**
 * An inline, announced failure message. The projects page logs its failures instead of
 * toasting them (spec §8); this says so on the page, so nobody is left guessing.
 */
export function FailureNotice({ message, detail, action, className }: FailureNoticeProps) {
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-destructive text-sm',
        className,
      )}
    >
      <CircleAlertIcon aria-hidden className="size-4 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{message}</p>
        {detail && detail !== message ? (
          <p className="break-words text-destructive/80">{detail}</p>
        ) : null}
      </div>
      {action}
    </div>
  )
}
