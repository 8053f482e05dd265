import type { BatchRow } from '@reelgraph/shared'
import { CheckIcon } from 'lucide-react'
import { memo } from 'react'
import { Link } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { cn } from '@/lib/utils'
import { BATCH_ROW_STATUS_LABELS, formatCredits, rowPercent } from '../lib/batch-words'

/** The canvas URL of a project (spec §2 /). */
function canvasHref(id: number): string {
  return `/?id=${String(id)}`
}

/** A file's URL asking the server for a download (`?download=1`, as the Video node does). */
function downloadHref(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=1`
}

/** A finished row's badge: a green edge, the text at full contrast (the success tint's is not). */
export const DONE_BADGE = 'border-success/50 bg-success/10 text-foreground'

const STATUS_VARIANT = {
  quoted: 'outline',
  queued: 'secondary',
  running: 'secondary',
  succeeded: 'outline',
  failed: 'destructive',
  cancelled: 'outline',
} as const

/**
 * The batch's rows as a table (issue 42 item 3): one line per row with its number, values, a
 * progress bar with its stage, its state (and the error of a failed row), its credits, a
 * thumbnail once done, and links to its project, MP4 and SRT. Real table markup: a caption,
 * column headers, the row number as each line's header.
 */
export function BatchRowsTable({ rows }: { rows: readonly BatchRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">The batch’s rows, one video each</caption>
        <thead className="bg-muted/50 text-left text-muted-foreground text-xs">
          <tr>
            <th scope="col" className="w-12 px-3 py-2 font-medium">
              Row
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Values
            </th>
            <th scope="col" className="w-56 px-3 py-2 font-medium">
              Progress
            </th>
            <th scope="col" className="w-40 px-3 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="w-20 px-3 py-2 text-right font-medium">
              Credits
            </th>
            <th scope="col" className="w-64 px-3 py-2 font-medium">
              Video
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <BatchRowLine key={row.row} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

const BatchRowLine = memo(function BatchRowLine({ row }: { row: BatchRow }) {
  const percent = rowPercent(row)
  const label = `Row ${row.row}`
  return (
    <tr className="border-t align-top">
      <th scope="row" className="px-3 py-3 text-left font-medium tabular-nums">
        {row.row}
      </th>
      <td className="px-3 py-3">
        <dl className="grid gap-0.5">
          {Object.entries(row.values).map(([name, value]) => (
            <div key={name} className="flex min-w-0 gap-1.5">
              <dt className="shrink-0 font-mono text-muted-foreground text-xs leading-5">{name}</dt>
              <dd className="min-w-0 break-words leading-5">
                {value.startsWith('data:') ? 'a picture' : value}
              </dd>
            </div>
          ))}
        </dl>
        {row.projectName ? (
          <p className="mt-1 text-muted-foreground text-xs">Project “{row.projectName}”</p>
        ) : null}
      </td>
      <td className="px-3 py-3">
        <div
          role="progressbar"
          aria-label={`${label} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%${row.stage ? `, ${row.stage}` : ''}`}
          className="relative h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn(
              'h-full rounded-full transition-[width]',
              row.status === 'failed' ? 'bg-destructive' : 'bg-primary',
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
        <p className="mt-1 text-muted-foreground text-xs">
          <span className="tabular-nums">{percent}%</span>
          {row.stage ? ` · ${row.stage}` : null}
        </p>
      </td>
      <td className="px-3 py-3">
        <Badge
          variant={STATUS_VARIANT[row.status]}
          className={row.status === 'succeeded' ? DONE_BADGE : undefined}
        >
          {row.status === 'succeeded' ? <CheckIcon aria-hidden /> : null}
          {BATCH_ROW_STATUS_LABELS[row.status]}
        </Badge>
        {row.error ? (
          <p className="mt-1 break-words text-destructive text-xs">{row.error}</p>
        ) : null}
      </td>
      <td className="px-3 py-3 text-right tabular-nums">
        <span className="sr-only">{formatCredits(row.credits)}</span>
        <span aria-hidden>{row.credits}</span>
      </td>
      <td className="px-3 py-3">
        <div className="flex items-start gap-3">
          {row.thumbnailUrl ? (
            <img
              src={row.thumbnailUrl}
              alt={`${label}: a frame of its video`}
              className="h-16 w-auto max-w-28 shrink-0 rounded border object-cover"
            />
          ) : (
            <div
              aria-hidden
              className="flex h-16 w-12 shrink-0 items-center justify-center rounded border border-dashed text-muted-foreground text-xs"
            >
              –
            </div>
          )}
          <ul className="flex flex-col gap-1 text-xs">
            {row.projectId !== null ? (
              <li>
                <Link
                  href={canvasHref(row.projectId)}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                  aria-label={`Open the project of row ${row.row}`}
                >
                  Project
                </Link>
              </li>
            ) : null}
            {row.mp4Url ? (
              <li>
                <a
                  href={downloadHref(row.mp4Url)}
                  download
                  className="font-medium text-primary underline-offset-4 hover:underline"
                  aria-label={`MP4 of row ${row.row}`}
                >
                  MP4
                </a>
              </li>
            ) : null}
            {row.srtUrl ? (
              <li>
                <a
                  href={downloadHref(row.srtUrl)}
                  download
                  className="font-medium text-primary underline-offset-4 hover:underline"
                  aria-label={`SRT of row ${row.row}`}
                >
                  SRT
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </td>
    </tr>
  )
})
