import type { StorageUsage } from '@reelgraph/shared'
import { Spinner } from '@/components/ui/spinner'
import { storageView } from '../lib/billing-view'

/** Props of {@link StorageUsageRow}. */
export interface StorageUsageRowProps {
  /** The account's storage; undefined while it loads (or after it failed). */
  usage: StorageUsage | undefined
  /** True when it could not be loaded. */
  failed: boolean
}

/**
 * The storage row of the current subscription card: "Storage: 120 MB of 1 GB used" and a bar
 * of the quota used (issue 40 item 5). Every upload and generated file of the projects the
 * user owns counts; media no project uses any more is deleted after a grace period.
 */
export function StorageUsageRow({ usage, failed }: StorageUsageRowProps) {
  const view = usage ? storageView(usage) : null
  return (
    <div className="flex flex-col gap-2 sm:col-span-3">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span id="storage-usage-label" className="text-muted-foreground">
          Storage
        </span>
        <span className="font-medium tabular-nums" data-testid="storage-usage">
          {view ? (
            `Storage: ${view.words}`
          ) : failed ? (
            'Could not load your storage.'
          ) : (
            <span className="flex items-center gap-2" role="status">
              <Spinner />
              Loading storage...
            </span>
          )}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="storage-usage-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={view?.percent ?? 0}
        aria-valuetext={view?.words}
        aria-busy={view === null && !failed ? true : undefined}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={`h-full rounded-full transition-[width] ${view && view.percent >= 90 ? 'bg-destructive' : 'bg-primary'}`}
          style={{ width: `${view?.percent ?? 0}%` }}
        />
      </div>
      <span className="text-muted-foreground text-xs">
        Uploads and generated media of the projects you own. Media no project uses any more is
        deleted after a few days.
      </span>
    </div>
  )
}
