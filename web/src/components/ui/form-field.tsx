import { Slot } from 'radix-ui'
import { type ReactElement, type ReactNode, useId } from 'react'
import { cn } from '@/lib/utils'
import { Label } from './label'

/** Props of {@link FormField}. */
export interface FormFieldProps {
  /** The visible label, bound to the control. */
  label: ReactNode
  /** The field's message under the control; marks the control invalid. */
  error?: string | undefined
  /** Help text under the control (the password hint, say). */
  description?: ReactNode
  /** Something at the right end of the label row (a "Forgot password?" link, say). */
  labelAside?: ReactNode
  /** Exactly one control: it receives `id`, `aria-invalid` and `aria-describedby`. */
  children: ReactElement
  className?: string
}

/**
 * A labelled form control with its hint and error. The label is bound by `htmlFor`, the
 * hint and error are announced through `aria-describedby`, and an error sets `aria-invalid`.
 */
export function FormField({
  label,
  error,
  description,
  labelAside,
  children,
  className,
}: FormFieldProps) {
  const id = useId()
  const descriptionId = `${id}-description`
  const errorId = `${id}-error`
  const describedBy = [description ? descriptionId : null, error ? errorId : null]
    .filter(Boolean)
    .join(' ')
  return (
    <div data-slot="form-field" className={cn('grid gap-2', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id} className={cn(error && 'text-destructive')}>
          {label}
        </Label>
        {labelAside}
      </div>
      <Slot.Root
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      >
        {children}
      </Slot.Root>
      {description ? (
        <p id={descriptionId} className="text-muted-foreground text-xs">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="font-medium text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  )
}
