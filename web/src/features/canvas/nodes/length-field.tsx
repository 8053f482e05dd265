import {
  TARGET_SECONDS_MAX,
  TARGET_SECONDS_MIN,
  TARGET_SECONDS_PRESETS,
  targetSecondsSchema,
} from '@reelgraph/shared'
import { useId, useState } from 'react'
import { cn } from '@/lib/utils'

/** The select's value for "Custom…" (a number of seconds typed in). */
const CUSTOM = 'custom'

const isPreset = (seconds: number) =>
  (TARGET_SECONDS_PRESETS as readonly number[]).includes(seconds)

/** The look of the two places the field sits in: a node's small controls, or a dialog's. */
const LOOKS = {
  node: {
    label: 'font-medium text-muted-foreground text-xs',
    control:
      'nodrag h-8 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-50',
  },
  dialog: {
    label: 'font-medium text-sm',
    control:
      'h-9 rounded-md border bg-background px-2 text-sm aria-invalid:border-destructive disabled:opacity-50',
  },
} as const

/**
 * "Length" (issue 42 item 1): the video's target length, chosen among 15, 30, 60 and 90
 * seconds or "Custom…", which shows a number field for any whole number of seconds from 10 to
 * 600 (written only once valid; until then its message says what is wrong). Native controls,
 * so the keyboard and screen readers work as everywhere; it fits a node's width.
 */
export function LengthField(props: {
  value: number
  onChange: (seconds: number) => void
  disabled?: boolean
  look: keyof typeof LOOKS
}) {
  const { value, onChange, disabled } = props
  const look = LOOKS[props.look]
  const id = useId()
  const [customChosen, setCustomChosen] = useState(false)
  const [draft, setDraft] = useState<string | null>(null)
  const custom = customChosen || !isPreset(value)
  const shown = draft ?? String(value)
  const read = (text: string) =>
    targetSecondsSchema.safeParse(text.trim() === '' ? Number.NaN : Number(text))
  const checked = read(shown)
  const error = draft !== null && !checked.success ? checked.error.issues[0]?.message : null
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className={look.label}>
        Length
      </label>
      <div className="flex min-w-0 items-center gap-2">
        <select
          id={id}
          className={cn(look.control, 'min-w-0 flex-1')}
          value={custom ? CUSTOM : String(value)}
          disabled={disabled}
          onChange={(e) => {
            if (e.target.value === CUSTOM) {
              setCustomChosen(true)
              return
            }
            setCustomChosen(false)
            setDraft(null)
            onChange(Number(e.target.value))
          }}
        >
          {TARGET_SECONDS_PRESETS.map((seconds) => (
            <option key={seconds} value={String(seconds)}>
              {seconds} s
            </option>
          ))}
          <option value={CUSTOM}>Custom…</option>
        </select>
        {custom ? (
          <span className="flex shrink-0 items-center gap-1">
            <input
              type="number"
              aria-label="Seconds"
              inputMode="numeric"
              className={cn(look.control, 'nowheel w-20 tabular-nums')}
              disabled={disabled}
              min={TARGET_SECONDS_MIN}
              max={TARGET_SECONDS_MAX}
              step={1}
              value={shown}
              onChange={(e) => {
                setDraft(e.target.value)
                const next = read(e.target.value)
                if (next.success) onChange(next.data)
              }}
              onBlur={() => {
                if (draft !== null && read(draft).success) setDraft(null)
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            <span className="text-muted-foreground text-xs" aria-hidden>
              s
            </span>
          </span>
        ) : null}
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      ) : null}
    </div>
  )
}
