import type { StorageUsage } from '@reelgraph/shared'
import { Spinner } from '@/components/ui/spinner'
import { storageView } from '../lib/billing-view'
import { UsageBar } from './usage-bar'

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
      <UsageBar
        labelledBy="storage-usage-label"
        percent={view?.percent ?? 0}
        valueText={view?.words}
        busy={view === null && !failed}
        warn={view !== null && view.percent >= 90}
      />
      <span className="text-muted-foreground text-xs">
        Uploads and generated media of the projects you own. Media no project uses any more is
        deleted after a few days.
      </span>
    </div>
  )
}
