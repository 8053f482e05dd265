import { type ChangeEvent, type ReactNode, useId, useState } from 'react'
import { Checkbox } from '@/components/ui/checkbox'
import { cn } from '@/lib/utils'
import { useCanEdit } from '../hooks/use-can-edit'

/**
 * The small form controls inside nodes. Each is labelled, marks itself invalid with its
 * message, and carries React Flow's `nodrag` (typing and selecting text must not drag the
 * node) and, where it scrolls, `nowheel` (scrolling it must not zoom the canvas). For a
 * viewer they are read-only (text can still be selected and copied) or disabled (issue 6).
 */

const controlClass =
  'nodrag w-full min-w-0 rounded-md border border-input bg-background px-2 py-1 text-sm shadow-xs outline-none transition-[color,box-shadow] placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-50'

interface FieldFrameProps {
  id: string
  label: string
  error?: string | null | undefined
  hint?: ReactNode
  aside?: ReactNode
  children: ReactNode
}

function FieldFrame({ id, label, error, hint, aside, children }: FieldFrameProps) {
  return (
    <div className="grid gap-1">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="font-medium text-muted-foreground text-xs">
          {label}
        </label>
        {aside}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

function describedBy(id: string, error?: string | null, hint?: ReactNode): string | undefined {
  if (error) return `${id}-error`
  return hint ? `${id}-hint` : undefined
}

/** A text field: one line, or with `rows` a multi-line box of that many rows. */
export function TextField(props: {
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
  rows?: number
  error?: string | null
  hint?: ReactNode
}) {
  const id = useId()
  const readOnly = !useCanEdit()
  const control = {
    id,
    readOnly,
    value: props.value,
    placeholder: props.placeholder,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      props.onChange(e.target.value),
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy(id, props.error, props.hint),
  }
  return (
    <FieldFrame id={id} label={props.label} error={props.error} hint={props.hint}>
      {props.rows === undefined ? (
        <input className={cn(controlClass, 'h-8 read-only:bg-muted/40')} {...control} />
      ) : (
        <textarea
          // Scrollable boxes are costly to composite on large canvases: scroll only while focused.
          className={cn(
            controlClass,
            'nowheel resize-y overflow-hidden read-only:bg-muted/40 focus:overflow-auto',
          )}
          rows={props.rows}
          {...control}
        />
      )}
    </FieldFrame>
  )
}

/** An option of {@link SelectField}: a value shown as is, or a value with its label. */
export type SelectOption = string | { value: string; label: string }

const optionValue = (o: SelectOption) => (typeof o === 'string' ? o : o.value)
const optionLabel = (o: SelectOption) => (typeof o === 'string' ? o : o.label)

/** A choice among a few options; a stored value that is not an option is still shown. */
export function SelectField(props: {
  label: string
  value: string
  options: readonly SelectOption[]
  onChange: (value: string) => void
  placeholder?: string
  disabled?: boolean
  error?: string | null
  hint?: ReactNode
}) {
  const id = useId()
  const canEdit = useCanEdit()
  const disabled = props.disabled || !canEdit
  const options: readonly SelectOption[] =
    props.value && !props.options.some((o) => optionValue(o) === props.value)
      ? [props.value, ...props.options]
      : props.options
  return (
    <FieldFrame id={id} label={props.label} error={props.error} hint={props.hint}>
      <select
        id={id}
        className={cn(controlClass, 'h-8')}
        value={props.value}
        disabled={disabled}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
      >
        {props.placeholder !== undefined ? (
          <option value="" disabled>
            {props.placeholder}
          </option>
        ) : null}
        {options.map((option) => (
          <option key={optionValue(option)} value={optionValue(option)}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}

/** A labelled group of {@link GroupedSelectField}'s options (an `<optgroup>`). */
export interface OptionGroup {
  label: string
  options: readonly { value: string; label: string }[]
}

/**
 * A choice among options in labelled groups (a native `<select>` with `<optgroup>`s: the
 * keyboard, type-ahead and screen readers work as everywhere). A stored value that is not an
 * option is still shown, as `missingLabel`.
 */
export function GroupedSelectField(props: {
  label: string
  value: string
  groups: readonly OptionGroup[]
  onChange: (value: string) => void
  placeholder?: string
  missingLabel?: string
  disabled?: boolean
  error?: string | null
  hint?: ReactNode
}) {
  const id = useId()
  const canEdit = useCanEdit()
  const disabled = props.disabled || !canEdit
  const missing =
    props.value !== '' && !props.groups.some((g) => g.options.some((o) => o.value === props.value))
  return (
    <FieldFrame id={id} label={props.label} error={props.error} hint={props.hint}>
      <select
        id={id}
        className={cn(controlClass, 'h-8')}
        value={props.value}
        disabled={disabled}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.error, props.hint)}
      >
        {props.placeholder !== undefined ? (
          <option value="" disabled>
            {props.placeholder}
          </option>
        ) : null}
        {missing ? <option value={props.value}>{props.missingLabel ?? props.value}</option> : null}
        {props.groups.map((group) => (
          <optgroup key={group.label} label={group.label}>
            {group.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </FieldFrame>
  )
}

/**
 * A number field that writes only valid values: what is typed stays in the field (with its
 * message) until it passes `validate`, then goes to the doc. While it is being edited the
 * field shows what was typed; changes from elsewhere show once it loses focus.
 */
export function NumberField(props: {
  label: string
  value: number
  onCommit: (value: number) => void
  validate: (value: number) => string | null
  min: number
  max: number
  step: number
}) {
  const id = useId()
  const readOnly = !useCanEdit()
  const { value, validate, onCommit } = props
  const [draft, setDraft] = useState<string | null>(null)
  const shown = draft ?? String(value)
  const parsed = shown.trim() === '' ? Number.NaN : Number(shown)
  const error = draft === null ? null : validate(parsed)
  return (
    <FieldFrame id={id} label={props.label} error={error}>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        className={cn(controlClass, 'h-8 read-only:bg-muted/40')}
        readOnly={readOnly}
        value={shown}
        min={props.min}
        max={props.max}
        step={props.step}
        onChange={(e) => {
          const text = e.target.value
          setDraft(text)
          const n = text.trim() === '' ? Number.NaN : Number(text)
          if (!validate(n)) onCommit(n)
        }}
        onBlur={() => {
          if (draft !== null && validate(parsed) === null) setDraft(null)
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
      />
    </FieldFrame>
  )
}

/** A slider with its value shown beside the label. */
export function SliderField(props: {
  label: string
  value: number
  min: number
  max: number
  step?: number
  onChange: (value: number) => void
}) {
  const id = useId()
  const disabled = !useCanEdit()
  return (
    <FieldFrame
      id={id}
      label={props.label}
      aside={
        <span className="font-medium text-xs tabular-nums" aria-hidden>
          {props.value}
        </span>
      }
    >
      <input
        id={id}
        type="range"
        className="nodrag w-full accent-primary disabled:opacity-50"
        disabled={disabled}
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </FieldFrame>
  )
}

/** A labelled checkbox writing one boolean field (disabled for a viewer). */
export function CheckField(props: {
  label: string
  checked: boolean
  onChange: (value: boolean) => void
}) {
  const id = useId()
  const canEdit = useCanEdit()
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={id}
        className="nodrag"
        checked={props.checked}
        disabled={!canEdit}
        onCheckedChange={(v) => props.onChange(v === true)}
      />
      <label htmlFor={id} className="text-xs">
        {props.label}
      </label>
    </div>
  )
}
