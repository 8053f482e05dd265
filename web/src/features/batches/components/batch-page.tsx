import type { Batch } from '@reelgraph/shared'
import {
  ArrowLeftIcon,
  FileArchiveIcon,
  PlayIcon,
  RotateCcwIcon,
  RotateCwIcon,
  XIcon,
} from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { Link, useParams } from 'wouter'
import { PageLoader } from '@/components/layout/page-loader'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog'
import { Spinner } from '@/components/ui/spinner'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { toast } from '@/hooks/use-toast'
import { errorMessage, isApiError } from '@/lib/api-client'
import { useBatch, useCancelBatch, useRetryFailedRows, useStartBatch } from '../api/batches-api'
import {
  BATCH_STATUS_LABELS,
  batchSummary,
  canCancel,
  canRetryFailed,
  formatCredits,
  formatEstimate,
} from '../lib/batch-words'
import { BatchRowsTable, DONE_BADGE } from './batch-rows-table'

/**
 * /batches/:id (issue 42 item 3): a batch's page. The header names its template, its state
 * and its quote (credits, the estimated time, how many rows at once) with "Start batch" while
 * it is quoted (a 402 said in words with a link to /subscription); then the rows' table, read
 * again every 1.5 s while it runs (paused while the tab is hidden), the total spent against
 * the quote, a polite summary of the rows for screen readers, and Cancel all (asks first),
 * Retry failed and Download all (ZIP).
 */
export function BatchPage() {
  const params = useParams<{ id: string }>()
  const id = /^\d{1,15}$/.test(params.id ?? '') ? Number(params.id) : null
  useDocumentTitle('Batch')
  if (id === null) return <BatchMissing />
  return <BatchView id={id} />
}

function BatchView({ id }: { id: number }) {
  const batch = useBatch(id)
  if (batch.data) return <BatchLoaded batch={batch.data} refreshFailed={batch.isRefetchError} />
  if (batch.isPending) return <PageLoader label="Loading the batch..." />
  if (isApiError(batch.error, 404)) return <BatchMissing />
  return (
    <PageFrame>
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
        <p className="flex-1 text-destructive">
          Couldn’t load this batch. {errorMessage(batch.error)}
        </p>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={batch.isFetching}
          onClick={() => void batch.refetch()}
        >
          {batch.isFetching ? <Spinner /> : <RotateCwIcon aria-hidden />}
          {batch.isFetching ? 'Retrying...' : 'Retry'}
        </Button>
      </div>
    </PageFrame>
  )
}

function PageFrame({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-screen-xl flex-1 flex-col gap-5 px-4 py-6 sm:px-6">
      <Link
        href="/projects"
        className="inline-flex w-fit items-center gap-1.5 text-muted-foreground text-sm underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon className="size-4" aria-hidden />
        Projects
      </Link>
      {children}
    </div>
  )
}

function BatchMissing() {
  return (
    <PageFrame>
      <h1 className="font-semibold text-2xl tracking-tight">Batch not found</h1>
      <p className="text-muted-foreground">
        This batch does not exist, or it is not yours. Your batches start from New from template on
        the projects page.
      </p>
    </PageFrame>
  )
}

function BatchLoaded({ batch, refreshFailed }: { batch: Batch; refreshFailed: boolean }) {
  const start = useStartBatch()
  const cancel = useCancelBatch()
  const retry = useRetryFailedRows()
  const [startProblem, setStartProblem] = useState<{ message: string; short: boolean } | null>(null)
  const [retryProblem, setRetryProblem] = useState<string | null>(null)
  const { quote } = batch
  const rowCount = batch.rows.length

  const onStart = async () => {
    setStartProblem(null)
    try {
      await start.mutateAsync({ id: batch.id })
      toast({ title: 'Batch Started', description: `${rowCount} videos are on their way.` })
    } catch (error) {
      console.error('Failed to start a batch.', error)
      setStartProblem({
        message: errorMessage(error, 'Couldn’t start the batch. Please try again.'),
        short: isApiError(error, 402),
      })
    }
  }
  const onRetry = async () => {
    setRetryProblem(null)
    try {
      await retry.mutateAsync({ id: batch.id })
      toast({ title: 'Retrying', description: 'The failed rows are queued again.' })
    } catch (error) {
      console.error('Failed to retry a batch’s rows.', error)
      setRetryProblem(errorMessage(error, 'Couldn’t retry the failed rows. Please try again.'))
    }
  }

  return (
    <PageFrame>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="break-words font-semibold text-2xl tracking-tight">
              {batch.templateName}: a batch of {rowCount} {rowCount === 1 ? 'video' : 'videos'}
            </h1>
            <Badge
              variant={batch.status === 'done' ? 'outline' : 'secondary'}
              className={batch.status === 'done' ? DONE_BADGE : undefined}
            >
              {BATCH_STATUS_LABELS[batch.status]}
            </Badge>
          </div>
          <p className="text-muted-foreground text-sm">
            Quote: <strong className="text-foreground">{formatCredits(quote.credits)}</strong> (
            {formatCredits(quote.creditsPerRow)} a video) · {formatEstimate(quote.estimatedSeconds)}
            , {quote.concurrency} {quote.concurrency === 1 ? 'video' : 'videos'} at a time.
          </p>
          {batch.status !== 'quoted' ? (
            <p className="text-sm" data-testid="batch-spent">
              Spent <strong className="tabular-nums">{formatCredits(batch.spentCredits)}</strong> of
              the {formatCredits(quote.credits)} quoted.
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {batch.status === 'quoted' ? (
            <Button type="button" disabled={start.isPending} onClick={() => void onStart()}>
              {start.isPending ? <Spinner /> : <PlayIcon aria-hidden />}
              {start.isPending ? 'Starting...' : `Start batch · ${formatCredits(quote.credits)}`}
            </Button>
          ) : null}
          {canRetryFailed(batch) ? (
            <Button
              type="button"
              variant="outline"
              disabled={retry.isPending}
              onClick={() => void onRetry()}
            >
              {retry.isPending ? <Spinner /> : <RotateCcwIcon aria-hidden />}
              {retry.isPending ? 'Retrying...' : 'Retry failed'}
            </Button>
          ) : null}
          {batch.zipUrl ? (
            <Button asChild variant="outline">
              <a href={batch.zipUrl} download>
                <FileArchiveIcon aria-hidden />
                Download all (ZIP)
              </a>
            </Button>
          ) : null}
          {canCancel(batch) ? (
            <ConfirmActionDialog
              trigger={
                <Button type="button" variant="outline" className="text-destructive">
                  <XIcon aria-hidden />
                  Cancel all
                </Button>
              }
              title="Cancel this batch?"
              description="Rows not finished stop and are refunded; finished videos stay."
              actionLabel="Cancel all"
              pendingLabel="Cancelling..."
              onConfirm={async () => {
                await cancel.mutateAsync({ id: batch.id })
                toast({ title: 'Batch Cancelled', description: 'Rows not finished were stopped.' })
              }}
            />
          ) : null}
        </div>
      </header>

      {startProblem ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {startProblem.message}{' '}
          {startProblem.short ? (
            <Link href="/subscription" className="underline underline-offset-4">
              Get credits
            </Link>
          ) : null}
        </p>
      ) : null}
      {retryProblem ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {retryProblem}
        </p>
      ) : null}
      {refreshFailed ? (
        <p role="alert" className="text-destructive text-sm">
          Couldn’t refresh the batch; showing what was last read.
        </p>
      ) : null}

      <p role="status" className="text-sm" aria-live="polite">
        {batchSummary(batch)}
      </p>
      <BatchRowsTable rows={batch.rows} />
    </PageFrame>
  )
}
