import {
  type Batch,
  BATCH_ROW_FINAL,
  type BatchRow,
  type BatchRowStatus,
  type BatchStatus,
} from '@reelgraph/shared'

/**
 * The words and timings of the batch page (issue 42 item 3): what a batch's and a row's state
 * are called, the quote's estimate, the page's one-line summary, and when it polls.
 */

/** How often the page reads a running batch, in ms: a progress bar that moves, not a flood. */
export const BATCH_POLL_INTERVAL_MS = 1_500

/** A batch's state in words. */
export const BATCH_STATUS_LABELS: Record<BatchStatus, string> = {
  quoted: 'Quoted, not started',
  running: 'Running',
  done: 'Done',
  cancelled: 'Cancelled',
}

/** A row's state in words. */
export const BATCH_ROW_STATUS_LABELS: Record<BatchRowStatus, string> = {
  quoted: 'Not started',
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

/**
 * How long a batch should take, in words: "under a minute", "about 1 minute", "about 12
 * minutes", "about 1 h 5 min".
 * @param seconds the quote's `estimatedSeconds`
 */
export function formatEstimate(seconds: number): string {
  if (seconds < 60) return 'under a minute'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? `about ${hours} h` : `about ${hours} h ${rest} min`
}

/** "1 credit", "48 credits". */
export function formatCredits(credits: number): string {
  return `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`
}

/**
 * When the page reads the batch again: every {@link BATCH_POLL_INTERVAL_MS} while it runs
 * (or while a row has not reached its end, a retry say), never once it is quoted, done or
 * cancelled with every row final. TanStack Query pauses the interval while the tab is hidden.
 */
export function batchPollInterval(
  batch: Pick<Batch, 'status' | 'rows'> | undefined,
): number | false {
  if (!batch) return false
  if (batch.status === 'running') return BATCH_POLL_INTERVAL_MS
  if (batch.status === 'quoted') return false
  return batch.rows.some((row) => row.status !== 'quoted' && !BATCH_ROW_FINAL.has(row.status))
    ? BATCH_POLL_INTERVAL_MS
    : false
}

/** A row's progress as a whole percentage, 0..100 (a succeeded row is 100). */
export function rowPercent(row: Pick<BatchRow, 'progress' | 'status'>): number {
  if (row.status === 'succeeded') return 100
  return Math.max(0, Math.min(100, Math.round(row.progress * 100)))
}

/**
 * The page's one-line account of the rows, read out politely when it changes: "3 rows: 1
 * done, 2 running." (states with no row left out, in the order a row goes through them).
 */
export function batchSummary(batch: Pick<Batch, 'rows'>): string {
  const total = batch.rows.length
  const counts = new Map<BatchRowStatus, number>()
  for (const row of batch.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1)
  const order: BatchRowStatus[] = [
    'succeeded',
    'failed',
    'running',
    'queued',
    'cancelled',
    'quoted',
  ]
  const parts = order
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${BATCH_ROW_STATUS_LABELS[status].toLowerCase()}`)
  return `${total} ${total === 1 ? 'row' : 'rows'}: ${parts.join(', ')}.`
}

/** True once the batch started and some row failed: Retry failed queues those rows again. */
export function canRetryFailed(batch: Pick<Batch, 'status' | 'rows'>): boolean {
  return batch.status !== 'quoted' && batch.rows.some((row) => row.status === 'failed')
}

/** True while the batch is quoted or running: Cancel all stops what has not finished. */
export function canCancel(batch: Pick<Batch, 'status'>): boolean {
  return batch.status === 'running' || batch.status === 'quoted'
}
