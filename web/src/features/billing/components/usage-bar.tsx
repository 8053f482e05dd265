/** What {@link UsageBar} shows. */
export interface UsageBarProps {
  /** The id of the element that names the bar. */
  labelledBy: string
  /** How full it is, 0 to 100 (0 while unknown). */
  percent: number
  /** The value in words, for assistive technology ("11 MB of 1 GB used"). */
  valueText?: string | undefined
  /** True while the value is loading. */
  busy?: boolean
  /** Drawn in the warning colour (nearly full). */
  warn?: boolean
}

/**
 * A thin bar that fills to `percent`: the subscription page's plan credits and storage
 * (spec §9; issue 40 item 5).
 */
export function UsageBar({ labelledBy, percent, valueText, busy, warn }: UsageBarProps) {
  return (
    <div
      role="progressbar"
      aria-labelledby={labelledBy}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      aria-busy={busy ? true : undefined}
      className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
    >
      <div
        className={`h-full rounded-full transition-[width] ${warn ? 'bg-destructive' : 'bg-primary'}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  )
}
